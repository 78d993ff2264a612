// What a task determines, as hashes (test support, Node only): environment transcripts under random
// behaviors, reference (pretraining / SFT) batches, and the metric frames and traces of short runs
// on the tabular engine. Two tasks with equal fingerprints serve, judge, pretrain and train alike.
import { createHash } from 'node:crypto';
import { makeConfig, type Config } from '../../src/core/config';
import { Run } from '../../src/core/loop';
import { Rng } from '../../src/core/rng';
import { referenceBatch } from '../../src/core/tasks/index';
import type { Task } from '../../src/core/tasks/types';

const sha = (x: unknown): string => createHash('sha256').update(typeof x === 'string' ? x : JSON.stringify(x)).digest('hex').slice(0, 16);

/** Sessions under uniformly random behaviors (invalid included): every transition and the env stream position. */
export function envTranscript(task: Task, seed: number, turns: number, initial: number, sessions = 300): unknown[] {
  const pick = new Rng(seed ^ 0x5bd1e995);
  const r = new Rng(seed);
  const out: unknown[] = [];
  for (let s = 0; s < sessions; s++) {
    const env = task.newEnv(s % 3 === 0 ? new Rng(seed + s) : r, turns, initial);
    out.push(['start', env.state, env.turn]);
    for (let t = 0; t < 64; t++) {
      const b = pick.int(task.behaviors.length + 1) - 1;
      const tr = env.act(b, r);
      out.push([b, tr.truth, tr.hasNext, tr.next, tr.hintTarget, tr.done, tr.outcome ?? null, r.position]);
      if (tr.done) break;
    }
  }
  return out;
}

export function staticFields(task: Task): unknown {
  return {
    kind: task.kind, longHorizon: task.longHorizon, states: task.states, behaviors: task.behaviors,
    baseMix: task.baseMix, gold: task.gold, good: task.good,
  };
}

export function referenceBatches(task: Task): unknown {
  const a = referenceBatch(task, 64, new Rng(7));
  const b = referenceBatch(task, 64, new Rng(8), { hintShare: 0.5, hintFollow: 0.7, goldOnly: false });
  const g = referenceBatch(task, 32, new Rng(9), { hintShare: 0.3, hintFollow: 0.85, goldOnly: true });
  return [a, b, g].map((x) => [Array.from(x.tokens), Array.from(x.lossMask)]);
}

/** Configs that exercise every method, SFT on gold, groups, staleness, 503s, credit and focus. */
export function frameConfigs(task: string): Config[] {
  const base = { task: task as Config['task'], lr: 0.05, rolloutBatch: 8, behaviorSamples: 8 };
  return [
    makeConfig({ ...base, method: 'binary-rl', seed: 3, sftGoldSteps: 2, sftBatch: 8 }),
    makeConfig({ ...base, method: 'combine', seed: 4, updatesPerRollout: 2, minibatches: 2, staleness: 1, pauseWindow: 0.2, requestRate: 3, klCoef: 0.1, judgeNoise: 0.2 }),
    makeConfig({ ...base, method: 'opd', seed: 5, hintMinLength: 3 }),
    makeConfig({ ...base, method: 'grpo', seed: 6, groupSize: 4, dynamicSampling: true, prmStepCoef: 0.2, stepwiseZ: true, gamma: 0.9, focusState: 1 }),
  ];
}

export async function runFrames(engine: import('../../src/core/engine').PolicyEngine, cfg: Config, steps: number): Promise<string> {
  const run = await Run.create(engine, cfg);
  const frames: unknown[] = [run.baseScalars];
  for (let i = 0; i < steps; i++) {
    const { perf: _perf, ...f } = await run.step();
    frames.push(f);
  }
  run.dispose();
  return JSON.stringify(frames);
}

export interface Fingerprint {
  static: string;
  env: string[];
  reference: string;
}

export function fingerprint(task: Task): Fingerprint {
  const env: string[] = [];
  for (const [seed, turns, initial] of [[1, 1, -1], [2, 4, -1], [3, 4, 1], [4, 8, 0], [5, 2, -1]]) env.push(sha(envTranscript(task, seed, turns, initial)));
  return { static: sha(staticFields(task)), env, reference: sha(referenceBatches(task)) };
}

export { sha };
