// strategies: single turn. Three prompt types, four behaviors with base mix 30/40/20/10.
// math: one best behavior (decompose) → support collapse; code: the rare behavior (verify, 10 %) is
// best; explain: decompose and search-first tie for best.
import type { Vote } from './judge';
import type { Env, Task } from './types';
import { LAB_TOKEN_NAMES, hintToken, markerToken as m, stateToken } from './vocab';

// P(+1), P(0), P(−1) of the true evaluation, per state × behavior
const TRUTH: number[][][] = [
  [[0.8, 0.2, 0], [0.1, 0.6, 0.3], [0.1, 0.7, 0.2], [0.2, 0.6, 0.2]],
  [[0.2, 0.6, 0.2], [0.1, 0.6, 0.3], [0.2, 0.6, 0.2], [0.8, 0.2, 0]],
  [[0.7, 0.3, 0], [0.1, 0.6, 0.3], [0.7, 0.3, 0], [0.1, 0.7, 0.2]],
];
const BEST = [0, 3, 0];

export function drawTruth(p: readonly number[], u: number): Vote {
  return u < p[0] ? 1 : u < p[0] + p[1] ? 0 : -1;
}

export const strategies: Task = {
  name: 'strategies',
  kind: 'single-turn',
  tokenNames: LAB_TOKEN_NAMES,
  states: [
    { name: 'math', token: stateToken('strategies:math') },
    { name: 'code', token: stateToken('strategies:code') },
    { name: 'explain', token: stateToken('strategies:explain') },
  ],
  behaviors: [
    { name: 'decompose', markers: [m('PLAN'), m('STEP'), m('ANSWER')], hint: hintToken('strategies:decompose') },
    { name: 'direct', markers: [m('ANSWER')], hint: hintToken('strategies:direct') },
    { name: 'search-first', markers: [m('SEARCH'), m('ANSWER')], hint: hintToken('strategies:search-first') },
    { name: 'verify', markers: [m('CHECK'), m('ANSWER')], hint: hintToken('strategies:verify') },
  ],
  baseMix: [0, 1, 2].map(() => [0.3, 0.4, 0.2, 0.1]),
  gold: [1, 1, 1],
  good: TRUTH.map((row) => row.flatMap((p, b) => (p[0] >= 0.5 ? [b] : []))),
  longHorizon: false,
  newEnv(rng, _turns, initial = -1): Env {
    const drawn = rng.int(3);
    const state = initial >= 0 ? initial : drawn;
    return {
      state,
      turn: 0,
      act(behavior, r) {
        const truth: Vote = behavior < 0 ? -1 : drawTruth(TRUTH[state][behavior], r.next());
        const hintTarget = behavior === BEST[state] || (state === 2 && behavior === 2) ? null : BEST[state];
        // the grader's feedback is the next state: single-turn prompts are always judged
        return { truth, hasNext: true, next: null, hintTarget, done: true };
      },
    };
  },
};
