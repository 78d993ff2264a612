// The built-in task specs on the transformer (WASM): pretraining from the spec's base mix and two
// RL steps give the scalars the hand-written tasks gave (fixtures/handwritten-tasks.json, recorded
// from those modules before their removal), within float32 noise.
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../core/config';
import { pretrainBase, policyShape } from '../core/pretrain';
import { BUILTIN_TASK_NAMES, BUILTIN_TASKS } from '../core/tasks/builtin';
import recorded from '../core/tasks/fixtures/handwritten-tasks.json';
import { runFrames } from '../../tests/support/task-fingerprint';
import { createNodeEngine } from './node';

describe('built-in task specs on the ORT engine (WASM)', () => {
  it('pretrain + RL scalars match the hand-written tasks', async () => {
    for (const name of BUILTIN_TASK_NAMES) {
      const cfg = makeConfig({ task: name, method: 'combine', dModel: 16, layers: 1, heads: 2, mlp: 32, rolloutBatch: 8, behaviorSamples: 8, lr: 0.01, seed: 5 });
      const engine = await createNodeEngine(policyShape(cfg), { seed: 11 });
      await pretrainBase(engine, BUILTIN_TASKS[name], 0, { steps: 3, batch: 16, lr: 3e-3, temperature: cfg.temperature });
      await engine.setWeights(await engine.getWeights());
      const frames = JSON.parse(await runFrames(engine, cfg, 2)) as unknown[];
      await engine.dispose();
      const got = [frames[0] as Record<string, number>, ...frames.slice(1).map((f) => (f as { scalars: Record<string, number> }).scalars)];
      const want = (recorded as unknown as Record<string, { wasmScalars: Record<string, number>[] }>)[name].wasmScalars;
      expect(got.map((f) => Object.keys(f).sort())).toEqual(want.map((f) => Object.keys(f).sort()));
      want.forEach((f, i) => {
        for (const [k, v] of Object.entries(f)) expect(Math.abs(got[i][k] - v), `${name} frame ${i} ${k}`).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(v)));
      });
    }
  }, 300_000);
});
