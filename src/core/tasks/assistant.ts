// assistant: multi-turn sessions. The PRM judges turn t from the user's next message and likes the
// high-score template; on code questions the user answers a template with a complaint and often a
// hint ("just give me the code"). The last turn has no next message, so it cannot be judged.
import { drawTruth } from './strategies';
import type { Env, Task } from './types';
import { LAB_TOKEN_NAMES, hintToken, markerToken as m, stateToken } from './vocab';

const TEMPLATE = 0;
const CODE = 1;
// P(+1), P(0), P(−1) of the judged reaction, per question type × behavior
const TRUTH: number[][][] = [
  [[0.25, 0.35, 0.4], [0.6, 0.35, 0.05], [0.1, 0.7, 0.2], [0.1, 0.5, 0.4], [0.2, 0.5, 0.3]],
  [[0.8, 0.15, 0.05], [0.1, 0.4, 0.5], [0.3, 0.5, 0.2], [0.4, 0.4, 0.2], [0.5, 0.4, 0.1]],
  [[0.7, 0.2, 0.1], [0, 0.3, 0.7], [0.3, 0.5, 0.2], [0.6, 0.3, 0.1], [0.2, 0.5, 0.3]],
];
const BEST = TRUTH.map((row) => row.reduce((bi, p, b) => (p[0] - p[2] > row[bi][0] - row[bi][2] ? b : bi), 0));

export const assistant: Task = {
  name: 'assistant',
  kind: 'multi-turn',
  tokenNames: LAB_TOKEN_NAMES,
  states: [
    { name: 'code', token: stateToken('assistant:code') },
    { name: 'analysis', token: stateToken('assistant:analysis') },
    { name: 'chat', token: stateToken('assistant:chat') },
  ],
  behaviors: [
    { name: 'template', markers: [m('GREET'), m('STEP'), m('SUMMARY')], hint: hintToken('assistant:template') },
    { name: 'direct-code', markers: [m('CODE')], hint: hintToken('assistant:direct-code') },
    { name: 'clarify', markers: [m('ASK')], hint: hintToken('assistant:clarify') },
    { name: 'analogy', markers: [m('LIKE'), m('ANSWER')], hint: hintToken('assistant:analogy') },
    { name: 'formal', markers: [m('FORMAL'), m('ANSWER')], hint: hintToken('assistant:formal') },
  ],
  baseMix: [
    [0.3, 0.35, 0.15, 0.1, 0.1],
    [0.35, 0.1, 0.2, 0.15, 0.2],
    [0.3, 0.05, 0.2, 0.25, 0.2],
  ],
  gold: [TEMPLATE, TEMPLATE, TEMPLATE],
  good: TRUTH.map((row) => row.flatMap((p, b) => (p[0] >= 0.5 ? [b] : []))),
  longHorizon: false,
  newEnv(rng, turns, initial = -1): Env {
    const drawn = rng.int(3);
    let state = initial >= 0 ? initial : drawn;
    let turn = 0;
    return {
      get state() {
        return state;
      },
      get turn() {
        return turn;
      },
      act(behavior, r) {
        const last = turn >= turns - 1;
        const truth = behavior < 0 ? -1 : drawTruth(TRUTH[state][behavior], r.next());
        let hintTarget: number | null = null;
        if (truth <= 0) {
          if (state === 0 && behavior !== CODE) hintTarget = r.next() < 0.7 ? CODE : null;
          else if (behavior !== BEST[state]) hintTarget = r.next() < 0.5 ? BEST[state] : null;
        }
        turn++;
        if (last) return { truth, hasNext: false, next: null, hintTarget: null, done: true };
        state = r.int(3);
        return { truth, hasNext: true, next: state, hintTarget, done: false };
      },
    };
  },
};
