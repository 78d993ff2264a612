// toolchain: long horizon. Episodes of up to T steps of search / read / answer with observations;
// only the final answer has an outcome (correct or not). A per-step PRM votes +1 on the action
// that makes progress from the current observation and −1 otherwise (used for dense shaping).
import type { Env, Task } from './types';
import { LAB_TOKEN_NAMES, hintToken, markerToken as m, stateToken } from './vocab';

const START = 0;
const RESULTS = 1;
const EMPTY = 2;
const DOC = 3;
const SEARCH = 0;
const READ = 1;
const ANSWER = 2;
/** Progress action per observation. */
const PROGRESS = [SEARCH, READ, SEARCH, ANSWER];
/** P(correct) of answering from each observation. */
const P_CORRECT = [0.1, 0.3, 0.1, 0.9];
const P_RESULTS = 0.7;

export const toolchain: Task = {
  name: 'toolchain',
  kind: 'long-horizon',
  tokenNames: LAB_TOKEN_NAMES,
  states: [
    { name: 'start', token: stateToken('toolchain:start') },
    { name: 'results', token: stateToken('toolchain:results') },
    { name: 'empty', token: stateToken('toolchain:empty') },
    { name: 'doc', token: stateToken('toolchain:doc') },
  ],
  behaviors: [
    { name: 'search', markers: [m('SEARCH')], hint: hintToken('toolchain:search') },
    { name: 'read', markers: [m('READ')], hint: hintToken('toolchain:read') },
    { name: 'answer', markers: [m('ANSWER')], hint: hintToken('toolchain:answer') },
  ],
  baseMix: [
    [0.5, 0.2, 0.3],
    [0.3, 0.4, 0.3],
    [0.5, 0.2, 0.3],
    [0.2, 0.2, 0.6],
  ],
  gold: PROGRESS,
  good: PROGRESS.map((b) => [b]),
  longHorizon: true,
  newEnv(_rng, steps): Env {
    let state = START;
    let turn = 0;
    return {
      get state() {
        return state;
      },
      get turn() {
        return turn;
      },
      act(behavior, r) {
        const truth = behavior === PROGRESS[state] ? 1 : -1;
        const hintTarget = behavior === PROGRESS[state] ? null : PROGRESS[state];
        turn++;
        if (behavior === ANSWER) {
          const outcome = r.next() < P_CORRECT[state] ? 1 : 0;
          return { truth, hasNext: true, next: null, hintTarget, done: true, outcome };
        }
        if (behavior === SEARCH) state = r.next() < P_RESULTS ? RESULTS : EMPTY;
        else if (behavior === READ) state = state === RESULTS || state === DOC ? DOC : EMPTY;
        if (turn >= steps) return { truth, hasNext: true, next: null, hintTarget, done: true, outcome: 0 };
        return { truth, hasNext: true, next: state, hintTarget, done: false };
      },
    };
  },
};
