// The built-in task specs on the transformer (WASM): pretraining from the spec's base mix and a few
// RL steps give the hand-written task's frames, within float32 noise (here: identical).
import { describe, expect, it } from 'vitest';
import { makeConfig, type Config } from '../core/config';
import type { Task } from '../core/tasks/types';
import { pretrainBase, policyShape } from '../core/pretrain';
import { BUILTIN_TASK_NAMES, BUILTIN_TASKS, type BuiltinTaskName } from '../core/tasks/builtin';
import { TASKS } from '../core/tasks/index';
import { runFrames } from '../../tests/support/task-fingerprint';
import { createNodeEngine } from './node';

async function framesWith(name: BuiltinTaskName, task: Task, cfg: Config): Promise<number[]> {
  const prev = TASKS[name];
  TASKS[name] = task;
  try {
    const engine = await createNodeEngine(policyShape(cfg), { seed: 11 });
    await pretrainBase(engine, task, 0, { steps: 3, batch: 16, lr: 3e-3, temperature: cfg.temperature });
    await engine.setWeights(await engine.getWeights());
    const text = await runFrames(engine, cfg, 2);
    await engine.dispose();
    const nums: number[] = [];
    JSON.parse(text, (_k, v: unknown) => (typeof v === 'number' && nums.push(v), v));
    return nums;
  } finally {
    TASKS[name] = prev;
  }
}

describe('built-in task specs on the ORT engine (WASM)', () => {
  it('pretrain + RL frames match the hand-written tasks', async () => {
    for (const name of BUILTIN_TASK_NAMES) {
      const cfg = makeConfig({ task: name, method: 'combine', dModel: 16, layers: 1, heads: 2, mlp: 32, rolloutBatch: 8, behaviorSamples: 8, lr: 0.01, seed: 5 });
      const want = await framesWith(name, TASKS[name], cfg);
      const got = await framesWith(name, BUILTIN_TASKS[name], cfg);
      expect(got.length).toBe(want.length);
      const worst = got.reduce((m, x, i) => Math.max(m, Math.abs(x - want[i]) / Math.max(1, Math.abs(want[i]))), 0);
      expect(worst, name).toBeLessThan(1e-5);
    }
  }, 300_000);
});
