import { describe, expect, it } from 'vitest';
import { behaviorInfo, requestGap } from './behavior-info';
import { measureBehavior } from '../metrics';
import type { Generated } from '../serve';
import { BUILTIN_TASKS } from '../tasks/builtin';
import { CONTEXT } from '../tasks/vocab';

/** I(S;B) straight from the joint: Σ p(s,b) log(p(s,b) / (p(s) p(b))), uniform p(s). */
function mutualInfoFromJoint(rows: number[][]): number {
  const S = rows.length;
  const pb = rows[0].map((_, b) => rows.reduce((a, r) => a + r[b] / S, 0));
  let i = 0;
  for (const r of rows) r.forEach((p, b) => p > 0 && (i += (p / S) * Math.log(p / pb[b])));
  return i;
}

describe('behaviorInfo', () => {
  it('one template for every state: H(B|S) = 0, I(S;B) = 0; a different behavior per state: I = log S', () => {
    const good = [[0], [3], [0, 2]];
    const lock = behaviorInfo([[1, 0, 0, 0, 0], [1, 0, 0, 0, 0], [1, 0, 0, 0, 0]], good);
    expect(lock).toEqual({ condEntropy: 0, marginalEntropy: 0, mutualInfo: 0, bestMatch: 2 / 3 });
    const per = behaviorInfo([[1, 0, 0, 0, 0], [0, 0, 0, 1, 0], [0, 0, 1, 0, 0]], good);
    expect(per.condEntropy).toBe(0);
    expect(per.mutualInfo).toBeCloseTo(Math.log(3), 12);
    expect(per.bestMatch).toBe(1);
  });

  it('matches the joint-distribution definition on a fixed batch', () => {
    const rows = [
      [0.3, 0.4, 0.2, 0.1, 0],
      [0.05, 0.1, 0.05, 0.7, 0.1],
      [0.5, 0, 0.45, 0.05, 0],
    ];
    const info = behaviorInfo(rows, [[0], [3], [0, 2]]);
    expect(info.mutualInfo).toBeCloseTo(mutualInfoFromJoint(rows), 12);
    const h = (r: number[]) => -r.reduce((a, p) => a + (p > 0 ? p * Math.log(p) : 0), 0);
    expect(info.condEntropy).toBeCloseTo((h(rows[0]) + h(rows[1]) + h(rows[2])) / 3, 12);
    // state 0's mode is direct (not rewarded there); states 1 and 2 match
    expect(info.bestMatch).toBeCloseTo(2 / 3, 12);
  });

  it('an invalid mode never matches; malformed input is a clear error', () => {
    expect(behaviorInfo([[0.1, 0, 0, 0, 0.9]], [[0]]).bestMatch).toBe(0);
    expect(() => behaviorInfo([], [])).toThrow(/no states/);
    expect(() => behaviorInfo([[0.5, 0.4]], [[0]])).toThrow(/state 0 is not a distribution/);
    expect(() => behaviorInfo([[1, 0], [1]], [[0], [0]])).toThrow(/state 1 has 1 outcomes/);
    expect(() => behaviorInfo([[1, 0]], [])).toThrow(/good-behavior lists/);
  });

  it('requestGap: KL(want ‖ smoothed π) per state, mean over states; widens when a state only gets another behavior', () => {
    // state 0 wants behavior 0 and got it 6 of 8 times; state 1 wants 1 or 2 and got only 0
    const counts = [[6, 1, 1, 0], [8, 0, 0, 0]];
    const good = [[0], [1, 2]];
    const pi = (c: number, n: number) => (c + 0.5) / (n + 2);
    const s0 = Math.log(1 / pi(6, 8));
    const s1 = 0.5 * Math.log(0.5 / pi(0, 8)) * 2;
    expect(requestGap(counts, good)).toBeCloseTo((s0 + s1) / 2, 12);
    // more samples of the wrong behavior: the gap widens
    expect(requestGap([[64, 0, 0, 0]], [[1]])).toBeGreaterThan(requestGap([[8, 0, 0, 0]], [[1]]));
    expect(() => requestGap([[1, 0]], [[]])).toThrow(/rewards no behavior/);
    expect(() => requestGap([[1, 0]], [[1]])).toThrow(/out of range/);
    expect(() => requestGap([], [])).toThrow(/count rows/);
  });

  it('measureBehavior reports them under support/ names from the sampled distributions', () => {
    const task = BUILTIN_TASKS.strategies;
    // math: all decompose; code: all decompose; explain: half search-first, half invalid
    const states = [0, 0, 1, 1, 2, 2];
    const behavior = [0, 0, 0, 0, 2, -1];
    const gen: Generated = { tokens: new Int32Array(states.length * CONTEXT), logp: new Float32Array(states.length * 15), entropy: new Float32Array(states.length * 15), behavior, responseLength: states.map(() => 0) };
    const m = measureBehavior(task, gen, states, 0.02, 0.01, 2);
    const rows = [[1, 0, 0, 0, 0], [1, 0, 0, 0, 0], [0, 0, 0.5, 0, 0.5]];
    expect(m.scalars['support/behavior_cond_entropy']).toBeCloseTo(Math.log(2) / 3, 12);
    expect(m.scalars['support/behavior_mutual_info']).toBeCloseTo(mutualInfoFromJoint(rows), 12);
    // math: decompose is rewarded; code: verify is, decompose is not; explain: search-first ties invalid, first wins
    expect(m.scalars['support/best_behavior_match']).toBeCloseTo(2 / 3, 12);
    expect(m.scalars['gap/request_kl']).toBeCloseTo(requestGap([[2, 0, 0, 0, 0], [2, 0, 0, 0, 0], [0, 0, 1, 0, 1]], task.good), 12);
  });
});
