import { describe, expect, it } from 'vitest';
import type { Vote } from '../tasks/judge';
import { CONTEXT } from '../tasks/vocab';
import { creditRewards } from './credit';
import type { JudgedTurn } from './types';

function turn(session: number, t: number, score: Vote, hasNext = true, group = session): JudgedTurn {
  return {
    session, group, turn: t, state: 0, tokens: new Int32Array(CONTEXT), responseLength: 3, behavior: 0,
    rolloutLogp: new Float32Array(CONTEXT - 1), hasNext, votes: [score, score, score], score: hasNext ? score : 0,
    reward: hasNext ? score : 0, hintVotes: [],
  };
}

describe('long-horizon credit', () => {
  const ep = (s: number, outcome: 0 | 1, prm: Vote[], group = 0) =>
    prm.map((p, t) => ({ ...turn(s, t, p, true, group), outcome: t === prm.length - 1 ? outcome : undefined }));
  it('discounts the terminal outcome and adds PRM shaping', () => {
    const r = creditRewards(ep(0, 1, [1, -1, 1]), { gamma: 0.5, prmStepCoef: 0.1, stepwiseZ: false });
    expect(r[0]).toBeCloseTo(0.25 + 0.1);
    expect(r[1]).toBeCloseTo(0.5 - 0.1);
    expect(r[2]).toBeCloseTo(1 + 0.1);
    expect(creditRewards(ep(0, 0, [1, 1]), { gamma: 1, prmStepCoef: 0, stepwiseZ: false })).toEqual([-1, -1]);
  });
  it('step-wise z-score within (group, step)', () => {
    const turns = [...ep(0, 1, [1, 1]), ...ep(1, 0, [1, 1])];
    const r = creditRewards(turns, { gamma: 1, prmStepCoef: 0, stepwiseZ: true });
    expect(r.map((x) => Math.round(x * 1e6) / 1e6)).toEqual([1, 1, -1, -1]);
  });
});
