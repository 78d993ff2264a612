// The fidelity suite's engine on the REAL transformer (WASM engine, shipped base checkpoints), shared
// by the fidelity test files of src/engine (split so that vitest runs them side by side).
import type { Config } from '../../src/core/config';
import { policyShape } from '../../src/core/pretrain';
import { shippedBase } from '../../src/cli/checkpoints';
import { createNodeEngine } from '../../src/engine/node';
import { baseFactory } from './factory';
import type { FidelityResult } from './fidelity';

export const makeWasm = baseFactory((shape, seed) => createNodeEngine(shape, { seed }), {
  loadBase: (cfg: Config) => {
    const base = shippedBase(cfg.task, policyShape(cfg), cfg.temperature);
    if (typeof base === 'string') throw new Error(`fidelity tests need the shipped bases: ${base}`);
    return base.weights;
  },
});
export const show = (r: FidelityResult) => JSON.stringify(r.values);
