import { describe, expect, it } from 'vitest';
import { entropyOf } from './measure/entropy';
import { measureBehavior, passAtK, ratioHistogram, rewardStats } from './metrics';
import type { JudgedTurn } from './credit/types';
import type { Generated } from './serve';
import { BUILTIN_TASKS } from './tasks/builtin';
import { CONTEXT, EOS, PROMPT_LENGTH, markerToken } from './tasks/vocab';

describe('metrics', () => {
  it('pass@k is the unbiased estimator', () => {
    expect(passAtK(10, 0, 5)).toBe(0);
    expect(passAtK(10, 10, 1)).toBe(1);
    expect(passAtK(10, 3, 1)).toBeCloseTo(0.3, 12);
    // 1 − C(7,2)/C(10,2) = 1 − 21/45
    expect(passAtK(10, 3, 2)).toBeCloseTo(1 - 21 / 45, 12);
    expect(passAtK(10, 3, 8)).toBe(1);
  });

  it('behavior distribution, support and standard error from samples', () => {
    const task = BUILTIN_TASKS.strategies;
    const A = markerToken('ANSWER');
    const states = [0, 0, 0, 0, 1, 1];
    const behavior = [1, 1, 1, 0, 3, -1];
    const tokens = new Int32Array(states.length * CONTEXT);
    states.forEach((_, b) => tokens.set([A, EOS], b * CONTEXT + PROMPT_LENGTH));
    const gen: Generated = { tokens, logp: new Float32Array(states.length * 15), entropy: new Float32Array(states.length * 15).fill(0.5), behavior, responseLength: states.map(() => 2) };
    const m = measureBehavior(task, gen, states, 0.3, 0.01, 4);
    expect(m.scalars['support/behavior_dist/math/direct']).toBe(0.75);
    expect(m.scalars['support/behavior_dist_se/math/direct']).toBeCloseTo(Math.sqrt(0.75 * 0.25 / 4), 12);
    expect(m.scalars['support/behavior_support/math']).toBe(1);
    expect(m.scalars['support/behavior_entropy/math']).toBeCloseTo(entropyOf([0.25, 0.75]), 12);
    expect(m.scalars['support/behavior_dist/code/invalid']).toBe(0.5);
    expect(m.scalars['support/token_entropy']).toBe(0.5);
    expect(m.scalars['support/token_support']).toBe(1);
    // math: good = decompose (1 of 4); code: verify (1 of 2); explain: no samples
    expect(m.passAtK[0]).toBeCloseTo((0.25 + 0.5) / 3, 12);
  });

  it('reward variance and zero-std share', () => {
    const t = (state: number, reward: number, hasNext = true) => ({ state, group: state, reward, hasNext }) as JudgedTurn;
    const r = rewardStats([t(0, 1), t(0, -1), t(1, 1), t(1, 1), t(1, 5, false)], false);
    expect(r.rewardVar).toBe(0.5);
    expect(r.zeroStdFrac).toBe(0.5);
  });

  it('ratio histogram counts masked tokens only', () => {
    expect(ratioHistogram([0.4, 1, 1.3, 5, 1], [1, 1, 1, 1, 0], [0.5, 1.28, 2])).toEqual([1, 1, 1, 1]);
  });
});
