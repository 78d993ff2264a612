// The built-in tasks as specs (builtin/*.json) against what the hand-written modules they replaced
// produced: fixtures/handwritten-tasks.json was recorded FROM THOSE MODULES (commit 806996a, where
// this test compared the two directly and they agreed bit for bit) before they were removed.
// Fields, environment draws and reference batches depend on the task only: never re-record them.
// The frame hashes also depend on the loop; a loop change that moves them legitimately must show
// the env/reference hashes unchanged before the frame hashes are re-recorded.
import { describe, expect, it } from 'vitest';
import type { Config } from '../config';
import { pretrainBase, policyShape } from '../pretrain';
import { createTabularEngine } from '../../engine/tabular/tabular-engine';
import { envTranscript, fingerprint, frameConfigs, runFrames, sha } from '../../../tests/support/task-fingerprint';
import { BUILTIN_SPECS, BUILTIN_TASK_NAMES, BUILTIN_TASKS } from './builtin';
import { taskFromSpec } from './compile';
import recorded from './fixtures/handwritten-tasks.json';
import type { Task } from './types';

type Recorded = { static: string; env: string[]; reference: string; tabularFrames: string[] };

async function frames(task: Task, cfg: Config): Promise<string> {
  const engine = createTabularEngine(policyShape(cfg));
  await pretrainBase(engine, task, 0, { steps: 40, batch: 32, lr: 0.05, temperature: cfg.temperature });
  await engine.setWeights(await engine.getWeights());
  return runFrames(engine, cfg, 3);
}

describe('built-in task specs reproduce the hand-written tasks (recorded)', () => {
  for (const name of BUILTIN_TASK_NAMES) {
    const want = (recorded as unknown as Record<string, Recorded>)[name];
    it(`${name}: fields, environment draws and reference batches`, () => {
      const { static: st, env, reference } = fingerprint(BUILTIN_TASKS[name]);
      expect({ static: st, env, reference }).toEqual({ static: want.static, env: want.env, reference: want.reference });
    });
    it(`${name}: metric frames and traces on the tabular engine`, async () => {
      const got: string[] = [];
      for (const cfg of frameConfigs(name)) got.push(sha(await frames(BUILTIN_TASKS[name], cfg)));
      expect(got).toEqual(want.tabularFrames);
    }, 120_000);
  }
});

describe('the comparison can fail', () => {
  it('one changed probability in a spec changes the environment draws', () => {
    const spec = structuredClone(BUILTIN_SPECS.assistant);
    spec.states[0].act['direct-code'].truth = [0.59, 0.36, 0.05];
    expect(envTranscript(taskFromSpec(spec), 2, 4, -1)).not.toEqual(envTranscript(BUILTIN_TASKS.assistant, 2, 4, -1));
  });
});
