// Validation of a task spec: every problem as (path, value, why), so an editor can put the message at
// the field and a CLI or URL can name it. Nothing is repaired silently.
import { isObject } from '../unknown';
import {
  INVALID_NAME, SPEC_NAME, TASK_FORMAT, TASK_VERSION, TOKEN_NAME, type TaskSpec, type VocabularySpec,
} from './spec';
import { depthError } from '../json-depth';
import { FILLER_COUNT, HINT_SLOTS, LAB_TOKEN_NAMES, MARKER_SLOTS, RESPONSE_MAX, STATE_SLOTS } from './vocab';

export interface SpecError {
  /** JSON path of the field, e.g. `states[1].baseMix.direct`. */
  path: string;
  /** The offending value, shortened for display. */
  value: string;
  message: string;
}

/** Longest spec text accepted (a generous bound on what 10 states × 12 behaviors take). */
export const SPEC_TEXT_MAX = 200_000;
const SUM_TOLERANCE = 1e-6;
const MARKER = /^[A-Z]{1,16}$/;

/**
 * `o[k]` when `k` is o's own key, else undefined: a behavior or state may be named like a member of
 * Object.prototype ("constructor", "toString"), and a lookup by `in` or `[]` would find that instead.
 */
export function own<T>(o: Readonly<Record<string, T>>, k: string): T | undefined {
  return Object.hasOwn(o, k) ? o[k] : undefined;
}

function show(v: unknown): string {
  let s: string | undefined;
  try {
    s = v === undefined ? 'missing' : JSON.stringify(v);
  } catch {
    s = undefined;
  }
  s ??= Object.prototype.toString.call(v);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

const isProb = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;

class Checker {
  readonly errors: SpecError[] = [];
  fail(path: string, value: unknown, message: string): false {
    this.errors.push({ path, value: show(value), message });
    return false;
  }
  /** Only the listed keys (a typo is an error, not an ignored field). */
  keys(path: string, o: Record<string, unknown>, required: readonly string[], optional: readonly string[] = []): boolean {
    let ok = true;
    for (const k of required) if (!Object.hasOwn(o, k)) ok = this.fail(`${path}${path ? '.' : ''}${k}`, undefined, 'required');
    for (const k of Object.keys(o)) {
      if (!required.includes(k) && !optional.includes(k)) ok = this.fail(`${path}${path ? '.' : ''}${k}`, o[k], `unknown field (known: ${[...required, ...optional].join(', ')})`);
    }
    return ok;
  }
  name(path: string, v: unknown, pattern: RegExp, what: string): v is string {
    if (typeof v !== 'string' || !pattern.test(v)) return this.fail(path, v, what);
    return true;
  }
  unique(path: string, names: readonly unknown[], what: string): void {
    const seen = new Set<unknown>();
    names.forEach((n, i) => {
      if (seen.has(n)) this.fail(`${path}[${i}]`, n, `${what} ${show(n)} appears twice`);
      seen.add(n);
    });
  }
  list(path: string, v: unknown, min: number, max: number, why: string): v is unknown[] {
    if (!Array.isArray(v)) return this.fail(path, v, 'expected a list');
    if (v.length < min || v.length > max) return this.fail(path, `${v.length} entries`, `${min}..${max} entries (${why})`);
    return true;
  }
  /** A distribution over `names` given as {name: p}; all names present, sums to 1. */
  mix(path: string, v: unknown, names: readonly string[], allowMissing: boolean): boolean {
    if (!isObject(v)) return this.fail(path, v, `expected an object {name: probability} over ${names.join(', ')}`);
    let ok = true;
    let sum = 0;
    for (const [k, p] of Object.entries(v)) {
      if (!names.includes(k)) ok = this.fail(`${path}.${k}`, k, `not one of ${names.join(', ')}`);
      else if (!isProb(p)) ok = this.fail(`${path}.${k}`, p, 'a probability in [0, 1]');
      else sum += p;
    }
    if (!allowMissing) for (const n of names) if (!Object.hasOwn(v, n)) ok = this.fail(`${path}.${n}`, undefined, 'required (0 is allowed)');
    if (ok && Math.abs(sum - 1) > SUM_TOLERANCE) ok = this.fail(path, `sum ${sum}`, 'probabilities must sum to 1');
    return ok;
  }
}

function checkVocabulary(c: Checker, v: unknown): VocabularySpec {
  if (v === undefined) return { states: [...LAB_TOKEN_NAMES.states], markers: [...LAB_TOKEN_NAMES.markers], hints: [...LAB_TOKEN_NAMES.hints] };
  const empty: VocabularySpec = { states: [], markers: [], hints: [] };
  if (!isObject(v)) return c.fail('vocabulary', v, 'expected {states, markers, hints}'), empty;
  c.keys('vocabulary', v, ['states', 'markers', 'hints']);
  const part = (k: keyof VocabularySpec, max: number, pattern: RegExp, what: string): string[] => {
    const xs = v[k];
    if (!c.list(`vocabulary.${k}`, xs, 1, max, `the model has ${max} ${k === 'states' ? 'state' : k === 'markers' ? 'marker' : 'hint'} tokens`)) return [];
    xs.forEach((x, i) => c.name(`vocabulary.${k}[${i}]`, x, pattern, what));
    c.unique(`vocabulary.${k}`, xs, 'token');
    return xs.filter((x): x is string => typeof x === 'string');
  };
  return {
    states: part('states', STATE_SLOTS, TOKEN_NAME, 'a token name: letters, digits, _.:- (at most 40)'),
    markers: part('markers', MARKER_SLOTS, MARKER, 'a marker name: 1–16 capital letters A–Z'),
    hints: part('hints', HINT_SLOTS, TOKEN_NAME, 'a token name: letters, digits, _.:- (at most 40)'),
  };
}

function checkTransition(c: Checker, path: string, t: unknown, kind: string, states: readonly string[], behaviors: readonly string[]): void {
  if (!isObject(t)) return void c.fail(path, t, 'expected {truth, hint, next}');
  c.keys(path, t, ['truth', 'hint', 'next'], ['outcome', 'nextMessage']);
  const truth = t.truth;
  if (!Array.isArray(truth) || truth.length !== 3 || !truth.every(isProb)) c.fail(`${path}.truth`, truth, '[P(+1), P(0), P(−1)]: three probabilities');
  else if (Math.abs(truth[0] + truth[1] + truth[2] - 1) > SUM_TOLERANCE) c.fail(`${path}.truth`, truth, 'P(+1) + P(0) + P(−1) must be 1');
  const h = t.hint;
  if (h !== null && h !== undefined) {
    if (!isObject(h)) c.fail(`${path}.hint`, h, 'null or {to, p, when}');
    else {
      c.keys(`${path}.hint`, h, ['to'], ['p', 'when']);
      if (typeof h.to !== 'string' || !behaviors.includes(h.to)) c.fail(`${path}.hint.to`, h.to, `a behavior: ${behaviors.join(', ')}`);
      if (h.p !== undefined && !(isProb(h.p) && h.p > 0)) c.fail(`${path}.hint.p`, h.p, 'a probability in (0, 1]');
      if (h.when !== undefined && h.when !== 'always' && h.when !== 'not-positive') c.fail(`${path}.hint.when`, h.when, "'always' or 'not-positive'");
    }
  } else if (h === undefined) c.fail(`${path}.hint`, h, 'required (null for no hint)');
  const next = t.next;
  if (kind === 'single-turn' && next !== 'end') c.fail(`${path}.next`, next, "a single-turn task always ends: 'end'");
  else if (typeof next === 'string') {
    if (next !== 'end' && next !== 'uniform' && !states.includes(next)) c.fail(`${path}.next`, next, `'end', 'uniform' or a state: ${states.join(', ')}`);
  } else if (isObject(next)) c.mix(`${path}.next`, next, states, true);
  else c.fail(`${path}.next`, next, "'end', 'uniform', a state name or {state: probability}");
  const ends = next === 'end';
  if (kind === 'long-horizon' && ends && !isProb(t.outcome)) c.fail(`${path}.outcome`, t.outcome, 'P(success) in [0, 1] where a long-horizon episode ends');
  if (t.outcome !== undefined && !(kind === 'long-horizon' && ends)) c.fail(`${path}.outcome`, t.outcome, "only a long-horizon task's ending action has an outcome");
  if (t.nextMessage !== undefined && typeof t.nextMessage !== 'boolean') c.fail(`${path}.nextMessage`, t.nextMessage, 'true or false');
}

/** A state's `responses`: per behavior, P(k fillers) within the response window and the filler tokens drawn from. */
function checkResponses(c: Checker, path: string, r: unknown, markers: ReadonlyMap<string, number>): void {
  if (!isObject(r)) return void c.fail(path, r, `expected {behavior: {fillers, fillerTokens}} over some of ${[...markers.keys()].join(', ')}`);
  for (const [b, v] of Object.entries(r)) {
    const p = `${path}.${b}`;
    const m = markers.get(b);
    if (m === undefined) {
      c.fail(p, b, `not one of ${[...markers.keys()].join(', ')}`);
      continue;
    }
    if (!isObject(v)) {
      c.fail(p, v, 'expected {fillers, fillerTokens}');
      continue;
    }
    c.keys(p, v, ['fillers', 'fillerTokens']);
    const most = RESPONSE_MAX - m;
    if (c.list(`${p}.fillers`, v.fillers, 1, most + 1, `P(0 fillers), P(1), …: a response holds ${RESPONSE_MAX} tokens before EOS and this behavior has ${m} marker${m === 1 ? '' : 's'}, so at most ${most} fillers`)) {
      const bad = v.fillers.findIndex((x) => !isProb(x));
      if (bad >= 0) c.fail(`${p}.fillers[${bad}]`, v.fillers[bad], 'a probability in [0, 1]');
      else {
        const sum = (v.fillers as number[]).reduce((a, x) => a + x, 0);
        if (Math.abs(sum - 1) > SUM_TOLERANCE) c.fail(`${p}.fillers`, `sum ${sum}`, 'probabilities must sum to 1');
      }
    }
    const f = v.fillerTokens;
    if (typeof f !== 'number' || !Number.isInteger(f) || f < 1 || f > FILLER_COUNT) c.fail(`${p}.fillerTokens`, f, `an integer 1..${FILLER_COUNT}: the model has ${FILLER_COUNT} filler tokens`);
  }
}

/** The behaviors' names, and their marker counts (the responses' length bound). */
function checkBehaviors(c: Checker, s: Record<string, unknown>, vocab: VocabularySpec): { behaviors: string[]; markerCounts: Map<string, number> } {
  const behaviors: string[] = [];
  const markerCounts = new Map<string, number>();
  if (c.list('behaviors', s.behaviors, 1, HINT_SLOTS, `each behavior needs its own hint token; the model has ${HINT_SLOTS}`)) {
    const seqs: string[] = [];
    s.behaviors.forEach((b, i) => {
      const p = `behaviors[${i}]`;
      if (!isObject(b)) return void c.fail(p, b, 'expected {name, markers, hint}');
      c.keys(p, b, ['name', 'markers', 'hint']);
      if (c.name(`${p}.name`, b.name, SPEC_NAME, 'a name: 1–40 letters, digits, space, _.:-')) {
        if (b.name === INVALID_NAME) c.fail(`${p}.name`, b.name, `"${INVALID_NAME}" names a response that is no behavior`);
        behaviors.push(b.name);
      }
      if (c.list(`${p}.markers`, b.markers, 1, RESPONSE_MAX, `a behavior is told apart by its markers; a response holds at most ${RESPONSE_MAX} tokens before EOS`)) {
        b.markers.forEach((m, j) => {
          if (typeof m !== 'string' || !vocab.markers.includes(m)) c.fail(`${p}.markers[${j}]`, m, `a marker token: ${vocab.markers.join(', ')}`);
        });
        seqs.push(b.markers.join(' '));
        if (typeof b.name === 'string') markerCounts.set(b.name, b.markers.length);
      } else seqs.push(`#${i}`);
      if (typeof b.hint !== 'string' || !vocab.hints.includes(b.hint)) c.fail(`${p}.hint`, b.hint, `a hint token: ${vocab.hints.join(', ')}`);
    });
    c.unique('behaviors', behaviors, 'behavior name');
    seqs.forEach((q, i) => {
      const j = seqs.indexOf(q);
      if (j < i) c.fail(`behaviors[${i}].markers`, q, `same marker sequence as behaviors[${j}]: the classifier could not tell them apart`);
    });
    c.unique('behaviors.hint', s.behaviors.map((b) => (isObject(b) ? b.hint : undefined)), 'hint token');
  }
  return { behaviors, markerCounts };
}

export type SpecCheck = { ok: true; spec: TaskSpec; errors: [] } | { ok: false; spec: null; errors: SpecError[] };

/** Check a parsed spec; every problem with its path. */
export function validateTaskSpec(input: unknown): SpecCheck {
  const c = new Checker();
  const deep = depthError(input, 'the task spec');
  if (deep) {
    c.fail('', 'nested too deep', deep);
    return { ok: false, spec: null, errors: c.errors };
  }
  if (!isObject(input)) {
    c.fail('', input, 'a task spec is a JSON object');
    return { ok: false, spec: null, errors: c.errors };
  }
  const s = input;
  c.keys('', s, ['format', 'version', 'name', 'kind', 'start', 'behaviors', 'states'], ['description', 'vocabulary']);
  if (s.format !== TASK_FORMAT) c.fail('format', s.format, `must be "${TASK_FORMAT}"`);
  if (s.version !== TASK_VERSION) c.fail('version', s.version, `this lab reads version ${TASK_VERSION}`);
  c.name('name', s.name, SPEC_NAME, 'a name: 1–40 letters, digits, space, _.:- (starting with a letter or digit)');
  if (s.description !== undefined && (typeof s.description !== 'string' || s.description.length > 2000)) c.fail('description', s.description, 'text of at most 2,000 characters');
  const kind = s.kind;
  if (kind !== 'single-turn' && kind !== 'multi-turn' && kind !== 'long-horizon') c.fail('kind', kind, "'single-turn', 'multi-turn' or 'long-horizon'");
  const vocab = checkVocabulary(c, s.vocabulary);

  const { behaviors, markerCounts } = checkBehaviors(c, s, vocab);

  const states: string[] = [];
  if (c.list('states', s.states, 1, STATE_SLOTS, `the model has ${STATE_SLOTS} state tokens`)) {
    for (const [i, st] of s.states.entries()) {
      if (isObject(st) && typeof st.name === 'string') states.push(st.name);
      else states.push(`#${i}`);
    }
    c.unique('states', states, 'state name');
    c.unique('states.token', s.states.map((st) => (isObject(st) ? st.token : undefined)), 'state token');
    s.states.forEach((st, i) => {
      const p = `states[${i}]`;
      if (!isObject(st)) return void c.fail(p, st, 'expected {name, token, baseMix, gold, good, act}');
      c.keys(p, st, ['name', 'token', 'baseMix', 'gold', 'good', 'act'], ['responses']);
      if (st.responses !== undefined) checkResponses(c, `${p}.responses`, st.responses, markerCounts);
      c.name(`${p}.name`, st.name, SPEC_NAME, 'a name: 1–40 letters, digits, space, _.:-');
      if (typeof st.token !== 'string' || !vocab.states.includes(st.token)) c.fail(`${p}.token`, st.token, `a state token: ${vocab.states.join(', ')}`);
      c.mix(`${p}.baseMix`, st.baseMix, behaviors, false);
      if (typeof st.gold !== 'string' || !behaviors.includes(st.gold)) c.fail(`${p}.gold`, st.gold, `a behavior: ${behaviors.join(', ')}`);
      if (c.list(`${p}.good`, st.good, 1, behaviors.length, 'behaviors that pass; pass@k and the request gap need one')) {
        st.good.forEach((g, j) => {
          if (typeof g !== 'string' || !behaviors.includes(g)) c.fail(`${p}.good[${j}]`, g, `a behavior: ${behaviors.join(', ')}`);
        });
        c.unique(`${p}.good`, st.good, 'behavior');
      }
      if (!isObject(st.act)) return void c.fail(`${p}.act`, st.act, `expected {behavior: transition} for ${[...behaviors, INVALID_NAME].join(', ')}`);
      const actions = [...new Set([...behaviors, INVALID_NAME])]; // a name given twice is reported once, above
      c.keys(`${p}.act`, st.act, actions);
      for (const b of actions) if (Object.hasOwn(st.act, b)) checkTransition(c, `${p}.act.${b}`, st.act[b], String(kind), states, behaviors);
    });
  }
  if (typeof s.start !== 'string' || (s.start !== 'uniform' && !states.includes(s.start))) c.fail('start', s.start, `'uniform' or a state: ${states.join(', ')}`);

  return c.errors.length ? { ok: false, spec: null, errors: c.errors } : { ok: true, spec: s as unknown as TaskSpec, errors: [] };
}

/** Parse and check spec text (size-bounded before parsing). */
export function parseTaskSpec(text: string): SpecCheck {
  if (text.length > SPEC_TEXT_MAX) return { ok: false, spec: null, errors: [{ path: '', value: `${text.length} characters`, message: `a task spec is at most ${SPEC_TEXT_MAX} characters` }] };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, spec: null, errors: [{ path: '', value: text.slice(0, 40), message: `not JSON: ${(e as Error).message}` }] };
  }
  return validateTaskSpec(json);
}

/** A readable one-line summary of the first errors, for CLIs and status lines. */
export function describeSpecErrors(errors: readonly SpecError[], max = 3): string {
  const head = errors.slice(0, max).map((e) => `${e.path || '(spec)'}: ${e.message} (got ${e.value})`).join('; ');
  return errors.length > max ? `${head}; and ${errors.length - max} more` : head;
}
