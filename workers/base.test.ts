// The workers' base when pretrained (URL `pretrain=N`, a custom task): a function of the task and
// the budget alone — the same on an engine that already trained (a restored run, the previous
// task's base), and the one `npm run pretrain` computes.
import { describe, expect, it } from 'vitest';
import { pretrainCheckpoint } from '../src/cli/pretrain';
import { defaultConfig } from '../src/core/config';
import { policyShape, sftSteps } from '../src/core/pretrain';
import { Rng } from '../src/core/rng';
import { BUILTIN_TASKS } from '../src/core/tasks/builtin';
import { createNodeEngine } from '../src/engine/node';
import { loadBase } from './base';

const bits = (w: Float32Array) => new Uint32Array(w.buffer, w.byteOffset, w.length);

describe('workers/base.ts loadBase (pretraining)', () => {
  it('gives the same base on a fresh engine, on one that trained since, and as npm run pretrain', async () => {
    const cfg = defaultConfig();
    const source = { baseUrl: 'http://127.0.0.1/', pretrainSteps: 3 };
    const engine = await createNodeEngine(policyShape(cfg), { seed: 0 });
    try {
      const first = await loadBase(source, engine, cfg, () => undefined);
      expect(first.source).toMatch(/pretrained in the worker \(3 SFT steps/);
      // the engine trains on (other weights, optimizer moments, step count), as a restored run does
      await sftSteps(engine, BUILTIN_TASKS.strategies, new Rng(9), { steps: 2, batch: 16, lr: 0.05 });
      const again = await loadBase(source, engine, cfg, () => undefined);
      expect(bits(again.weights)).toEqual(bits(first.weights));
      const cli = await pretrainCheckpoint(BUILTIN_TASKS[cfg.task], { steps: 3, lr: 3e-3, batch: 64, seed: 0 });
      expect(bits(first.weights)).toEqual(bits(cli.weights));
    } finally {
      await engine.dispose();
    }
  }, 300_000);
});
