/**
 * The task editor's structural edits (pure): add or remove a state or a behavior, keeping every
 * table that names them consistent (base mixes, judge truths, gold / good, hints, next states,
 * the start state and the vocabulary's token slots), so that a valid spec stays valid and a new
 * task needs no hand-written JSON. Each edit changes the spec it is given (the editor passes a copy)
 * and returns '' or why it cannot be done (the model's token slots are full: spec.ts).
 */
import type { BehaviorSpec, StateSpec, TaskSpec, TransitionSpec } from '../../core/tasks/spec';
import { HINT_NAMES, MARKER_NAMES, STATE_NAMES } from '../../core/tasks/vocab';

/** The most states and behaviors the model's vocabulary has slots for (spec.ts). */
export const MAX_STATES = STATE_NAMES.length;
export const MAX_BEHAVIORS = HINT_NAMES.length;

/** `base`, or `base 2`, `base 3`, … : the first not in `taken`. */
function fresh(base: string, taken: readonly string[]): string {
  if (!taken.includes(base)) return base;
  for (let k = 2; ; k++) if (!taken.includes(`${base} ${k}`)) return `${base} ${k}`;
}

/** A token slot of `kind` no one uses: from the spec's own vocabulary (grown by one when it has room), else the lab's. */
function freeToken(spec: TaskSpec, kind: 'states' | 'markers' | 'hints', used: readonly string[], prefix: string): string | null {
  const lab: readonly string[] = { states: STATE_NAMES, markers: MARKER_NAMES, hints: HINT_NAMES }[kind];
  const vocab = spec.vocabulary?.[kind];
  const pool = vocab ?? lab;
  const unused = pool.find((t) => !used.includes(t));
  if (unused !== undefined) return unused;
  if (!vocab || vocab.length >= lab.length) return null;
  const name = fresh(prefix, vocab).replace(/ /g, '-');
  vocab.push(name);
  return name;
}

const neutral = (next: TransitionSpec['next']): TransitionSpec => ({ truth: [0, 1, 0], hint: null, next: typeof next === 'object' ? { ...next } : next });

export function addBehavior(spec: TaskSpec): string {
  if (spec.behaviors.length >= MAX_BEHAVIORS) return `the model has ${MAX_BEHAVIORS} hint tokens: at most ${MAX_BEHAVIORS} behaviors`;
  const hint = freeToken(spec, 'hints', spec.behaviors.map((b) => b.hint), 'hint');
  const usedMarkers = spec.behaviors.flatMap((b) => b.markers);
  const marker = freeToken(spec, 'markers', usedMarkers, 'MARK') ?? usedMarkers[0];
  if (hint === null || marker === undefined) return 'no free hint or marker token for another behavior';
  const name = fresh('new behavior', spec.behaviors.map((b) => b.name));
  spec.behaviors.push({ name, markers: [marker], hint } satisfies BehaviorSpec);
  // the base never picks it and the judge is neutral until edited; after it, the session goes where the state's first behavior goes
  for (const st of spec.states) {
    st.baseMix[name] = 0;
    const first = Object.values(st.act)[0];
    st.act[name] = neutral(first?.next ?? 'end');
  }
  return '';
}

export function removeBehavior(spec: TaskSpec, i: number): string {
  if (spec.behaviors.length <= 1) return 'a task needs at least one behavior';
  const [gone] = spec.behaviors.splice(i, 1);
  const left = spec.behaviors.map((b) => b.name);
  for (const st of spec.states) {
    delete st.baseMix[gone.name];
    delete st.act[gone.name];
    if (st.responses) {
      delete st.responses[gone.name];
      if (!Object.keys(st.responses).length) delete st.responses;
    }
    // its base share goes to the others in proportion, so the mix still sums to 1 (own entries only: a
    // behavior may be named like an Object.prototype member)
    const share = (b: string) => (Object.hasOwn(st.baseMix, b) && typeof st.baseMix[b] === 'number' ? st.baseMix[b] : 0);
    const rest = left.reduce((a, b) => a + share(b), 0);
    for (const b of left) st.baseMix[b] = rest > 0 ? share(b) / rest : 1 / left.length;
    if (st.gold === gone.name) st.gold = left[0];
    st.good = (st.good ?? []).filter((g) => g !== gone.name);
    if (!st.good.length) st.good = [st.gold]; // pass@k needs a passing behavior: the gold one
    for (const t of Object.values(st.act)) if (t?.hint?.to === gone.name) t.hint = null;
  }
  return '';
}

export function addState(spec: TaskSpec): string {
  if (spec.states.length >= MAX_STATES) return `the model has ${MAX_STATES} state tokens: at most ${MAX_STATES} states`;
  const token = freeToken(spec, 'states', spec.states.map((s) => s.token), 'state');
  if (token === null) return 'no free state token';
  const model = spec.states[spec.states.length - 1];
  const name = fresh('new state', spec.states.map((s) => s.name));
  // a copy of the last state (its mix, judge and transitions), under a new name and token
  const st: StateSpec = model ? { ...structuredClone(model), name, token } : { name, token, baseMix: {}, gold: spec.behaviors[0]?.name ?? '', good: [], act: {} };
  spec.states.push(st);
  return '';
}

export function removeState(spec: TaskSpec, s: number): string {
  if (spec.states.length <= 1) return 'a task needs at least one state';
  const [gone] = spec.states.splice(s, 1);
  const left = spec.states.map((x) => x.name);
  if (spec.start === gone.name) spec.start = left[0];
  if (spec.vocabulary) spec.vocabulary.states = spec.vocabulary.states.filter((t) => t !== gone.token || spec.states.some((x) => x.token === t));
  for (const st of spec.states)
    for (const t of Object.values(st.act)) {
      if (!t) continue;
      if (t.next === gone.name) t.next = 'end';
      else if (typeof t.next === 'object' && t.next !== null && Object.hasOwn(t.next, gone.name)) {
        const { [gone.name]: share, ...rest } = t.next;
        const sum = Object.values(rest).reduce((a, b) => a + b, 0);
        t.next = sum > 0 ? Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, v / sum])) : 'end';
        void share;
      }
    }
  return '';
}
