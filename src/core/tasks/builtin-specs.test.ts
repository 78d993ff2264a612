// The built-in tasks as specs (builtin/*.json) against the hand-written modules they replace: same
// fields, same environment draws, same reference batches, and the same metric frames and traces on
// the tabular engine, bit for bit, on fixed seeds.
import { describe, expect, it } from 'vitest';
import type { Config } from '../config';
import { pretrainBase, policyShape } from '../pretrain';
import { createTabularEngine } from '../../../tests/support/tabular-engine';
import { envTranscript, frameConfigs, referenceBatches, runFrames, staticFields } from '../../../tests/support/task-fingerprint';
import { BUILTIN_TASK_NAMES, BUILTIN_TASKS, type BuiltinTaskName } from './builtin';
import { TASKS } from './index';
import type { Task } from './types';

async function framesWith(name: BuiltinTaskName, task: Task, cfg: Config): Promise<string> {
  const prev = TASKS[name];
  TASKS[name] = task; // the loop reads TASKS[config.task]
  try {
    const engine = createTabularEngine(policyShape(cfg));
    await pretrainBase(engine, task, 0, { steps: 40, batch: 32, lr: 0.05, temperature: cfg.temperature });
    await engine.setWeights(await engine.getWeights());
    return await runFrames(engine, cfg, 3);
  } finally {
    TASKS[name] = prev;
  }
}

describe('built-in task specs reproduce the hand-written tasks', () => {
  for (const name of BUILTIN_TASK_NAMES) {
    it(`${name}: fields, environment draws and reference batches`, () => {
      const spec = BUILTIN_TASKS[name];
      const old = TASKS[name];
      expect(spec).not.toBe(old);
      expect(staticFields(spec)).toEqual(staticFields(old));
      for (const [seed, turns, initial] of [[1, 1, -1], [2, 4, -1], [3, 4, 1], [4, 8, 0], [5, 2, -1]]) {
        expect(envTranscript(spec, seed, turns, initial)).toEqual(envTranscript(old, seed, turns, initial));
      }
      expect(referenceBatches(spec)).toEqual(referenceBatches(old));
    });
    it(`${name}: metric frames and traces on the tabular engine`, async () => {
      for (const cfg of frameConfigs(name)) {
        const want = await framesWith(name, TASKS[name], cfg);
        const got = await framesWith(name, BUILTIN_TASKS[name], cfg);
        expect(got.length).toBeGreaterThan(1000);
        expect(got === want, `${name} ${cfg.method}: frames differ`).toBe(true);
      }
    }, 120_000);
  }
});

describe('the comparison can fail', () => {
  it('one changed probability in a spec changes the environment draws', async () => {
    const { BUILTIN_SPECS } = await import('./builtin');
    const { taskFromSpec } = await import('./compile');
    const spec = structuredClone(BUILTIN_SPECS.assistant);
    spec.states[0].act['direct-code'].truth = [0.59, 0.36, 0.05];
    expect(envTranscript(taskFromSpec(spec), 2, 4, -1)).not.toEqual(envTranscript(TASKS.assistant, 2, 4, -1));
  });
});
