// Engine factories for the fidelity suite: a fresh engine holding a pretrained base, with the base
// weights pretrained once per task and cached. Works for any PolicyEngine constructor.
import type { Config } from '../../src/core/config';
import type { PolicyEngine, PolicyShape } from '../../src/core/engine';
import { policyShape, pretrainBase } from '../../src/core/pretrain';
import { taskOf } from '../../src/core/tasks/registry';
import { createTabularEngine, type TabularOptions } from '../../src/engine/tabular/tabular-engine';
import type { EngineFactory } from './fidelity';

export interface BaseOptions {
  pretrainSteps?: number;
  pretrainLr?: number;
  pretrainBatch?: number;
  /** Base weights to use instead of pretraining (e.g. a shipped checkpoint); null → pretrain. */
  loadBase?: (config: Config) => Float32Array | null;
}

export function baseFactory(create: (shape: PolicyShape, seed: number) => Promise<PolicyEngine>, o: BaseOptions = {}): EngineFactory {
  const cache = new Map<string, Float32Array>();
  return async (cfg: Config) => {
    const shape = policyShape(cfg);
    const key = `${cfg.task}:${JSON.stringify(shape)}:${cfg.temperature}`;
    let w = cache.get(key) ?? o.loadBase?.(cfg) ?? undefined;
    if (!w) {
      const tmp = await create(shape, 0);
      await pretrainBase(tmp, taskOf(cfg), 0, { steps: o.pretrainSteps ?? 400, batch: o.pretrainBatch ?? 64, lr: o.pretrainLr ?? 0.05, temperature: cfg.temperature });
      w = await tmp.getWeights();
      await tmp.dispose();
      cache.set(key, w);
    }
    const engine = await create(shape, cfg.seed);
    await engine.setWeights(w);
    return engine;
  };
}

export function tabularFactory(o: TabularOptions & BaseOptions = {}): EngineFactory {
  return baseFactory(async (shape) => createTabularEngine(shape, o), o);
}
