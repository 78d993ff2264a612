// A valid task spec as the runtime Task the loop serves: token names → token ids, names → indices,
// and the environment as a table walk. Random draws follow one rule everywhere: an event that is
// certain (probability 1) draws nothing from the env stream, any other draw takes one uniform and
// compares it with cumulative probabilities; 'uniform' draws an integer. So a deterministic rule
// and a table with a 1 in it consume the stream the same way.
import type { Rng } from '../rng';
import type { Vote } from './judge';
import { INVALID_NAME, type TaskSpec, type TransitionSpec } from './spec';
import type { Env, Task, Transition } from './types';
import { own } from './validate';
import { LAB_TOKEN_NAMES, slotToken, type TokenNames } from './vocab';

interface Step {
  truth: readonly number[];
  hint: { to: number; p: number; notPositive: boolean } | null;
  /** null: the session ends; 'uniform': integer draw; else a distribution over states. */
  next: null | 'uniform' | readonly number[];
  outcome: number;
  nextMessage: boolean;
}

const VOTES: readonly Vote[] = [1, 0, -1];

/** Index drawn from probabilities (see the file comment); a certain index draws nothing. */
function draw(p: readonly number[], r: Rng): number {
  const certain = p.indexOf(1);
  if (certain >= 0) return certain;
  const u = r.next();
  let acc = 0;
  let last = 0;
  for (let i = 0; i < p.length; i++) {
    if (p[i] > 0) last = i;
    acc += p[i];
    if (u < acc) return i;
  }
  return last;
}

function bernoulli(p: number, r: Rng): boolean {
  return p >= 1 ? true : p <= 0 ? false : r.next() < p;
}

function compileStep(t: TransitionSpec, states: readonly string[], behaviors: readonly string[]): Step {
  const next = t.next === 'end' ? null : t.next === 'uniform' ? 'uniform'
    : typeof t.next === 'string' ? states.map((s) => (s === t.next ? 1 : 0))
      : states.map((s) => own(t.next as Record<string, number>, s) ?? 0);
  return {
    truth: t.truth,
    hint: t.hint ? { to: behaviors.indexOf(t.hint.to), p: t.hint.p ?? 1, notPositive: t.hint.when === 'not-positive' } : null,
    next, outcome: t.outcome ?? 0, nextMessage: t.nextMessage ?? true,
  };
}

/** An entry a valid spec holds as its own (never one of Object.prototype's members). */
function ownOf<T>(o: Readonly<Record<string, T>>, k: string): T {
  const v = own(o, k);
  if (v === undefined) throw new Error(`task spec: ${JSON.stringify(k)} is missing (validate the spec first)`);
  return v;
}

/** The runtime task of a spec that `validateTaskSpec` accepted. */
export function taskFromSpec(spec: TaskSpec): Task {
  const names: TokenNames = spec.vocabulary ?? LAB_TOKEN_NAMES;
  const behaviorNames = spec.behaviors.map((b) => b.name);
  const stateNames = spec.states.map((s) => s.name);
  const long = spec.kind === 'long-horizon';
  const table = spec.states.map((s) => [...behaviorNames, INVALID_NAME].map((b) => compileStep(ownOf(s.act, b), stateNames, behaviorNames)));
  const fixedStart = spec.start === 'uniform' ? -1 : stateNames.indexOf(spec.start);
  const n = spec.states.length;

  function newEnv(rng: Rng, turns: number, initial = -1): Env {
    let state: number;
    if (fixedStart >= 0) state = fixedStart;
    else {
      const drawn = rng.int(n); // drawn even when fixed, so streams stay aligned
      state = initial >= 0 ? initial : drawn;
    }
    let turn = 0;
    return {
      get state() {
        return state;
      },
      get turn() {
        return turn;
      },
      act(behavior: number, r: Rng): Transition {
        const step = table[state][behavior < 0 ? behaviorNames.length : behavior];
        const truth = VOTES[draw(step.truth, r)];
        const h = step.hint;
        const hint = h && !(h.notPositive && truth > 0) && bernoulli(h.p, r) ? h.to : null;
        const hintTarget = step.nextMessage ? hint : null;
        turn++;
        if (step.next === null) {
          const ended: Transition = { truth, hasNext: step.nextMessage, next: null, hintTarget, done: true };
          if (long) ended.outcome = bernoulli(step.outcome, r) ? 1 : 0;
          return ended;
        }
        // a conversation's last turn gets no next message; a long-horizon step still happens and
        // the spent budget counts as failure
        if (!long && turn >= turns) return { truth, hasNext: false, next: null, hintTarget: null, done: true };
        state = step.next === 'uniform' ? r.int(n) : draw(step.next, r);
        if (turn >= turns) return { truth, hasNext: step.nextMessage, next: null, hintTarget, done: true, outcome: 0 };
        return { truth, hasNext: step.nextMessage, next: state, hintTarget, done: false };
      },
    };
  }

  const task: Task = {
    name: spec.name,
    kind: spec.kind,
    tokenNames: names,
    states: spec.states.map((s) => ({ name: s.name, token: slotToken('states', names.states.indexOf(s.token)) })),
    behaviors: spec.behaviors.map((b) => ({
      name: b.name,
      markers: b.markers.map((m) => slotToken('markers', names.markers.indexOf(m))),
      hint: slotToken('hints', names.hints.indexOf(b.hint)),
    })),
    baseMix: spec.states.map((s) => behaviorNames.map((b) => ownOf(s.baseMix, b))),
    gold: spec.states.map((s) => behaviorNames.indexOf(s.gold)),
    good: spec.states.map((s) => s.good.map((g) => behaviorNames.indexOf(g)).sort((a, b) => a - b)),
    longHorizon: long,
    newEnv,
  };
  // only a spec that gives a token level gets the field: a task without one is the lab's grammar, as before
  if (spec.states.some((s) => s.responses)) {
    task.responses = spec.states.map((s) => behaviorNames.map((b) => {
      const r = s.responses ? own(s.responses, b) : undefined;
      return r ? { fillers: r.fillers, fillerTokens: r.fillerTokens } : null;
    }));
  }
  return task;
}
