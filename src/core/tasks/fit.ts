// A task spec fitted from an import (src/core/import): the import's own classification of samples
// into states and behaviors is the task's, read from the per-state counts the import keeps in its
// frames (support/behavior_count, import/reward_count, import/next_count, …; fit-counts.ts), never
// classified again. The rules (docs/tasks.md "Fitted from a log"):
//   states, behaviors  the import's, in its order; at most 10 states (most samples first) and 12
//                      behaviors; one state token, one marker and one hint token each (fit-names.ts)
//   base mix           behavior counts of each state over the base window (default: the first
//                      step), without the responses that are no behavior (the spec has no invalid share)
//   judge truth        P(+1), P(0), P(−1) per state × behavior over the truth window (default: every
//                      step) from the sign of each judged sample's reward (OpenClaw: the PRM's majority
//                      score); never judged → `unjudgedTruth` (default [0, 1, 0]: no signal) and a note
//   gold, good         not in a log: gold = the highest expected vote E = P(+1) − P(−1); good = E > 0
//   sessions           OpenClaw records only: a state × behavior whose sessions went on has next = the
//                      observed next-state mix; one that ended them in at least half its turns, 'end';
//                      nextMessage = false only when none of its turns had a next state
// What the fit cannot know comes back as notes, each with the path of the field it concerns.
import type { MeasureResult } from '../import/analyze';
import { fittedNames } from './fit-names';
import { INVALID_NAME, TASK_FORMAT, TASK_VERSION, type StateSpec, type TaskSpec, type TransitionSpec, type TruthRow } from './spec';
import { HINT_SLOTS, STATE_SLOTS } from './vocab';

/** What the fit reads of an import: its frames and the names it classified into. */
export type FitSource = Pick<MeasureResult, 'format' | 'frames' | 'states' | 'behaviors'>;

export interface FitOptions {
  name?: string;
  /** Steps (inclusive) whose behavior counts give the base mix; default [first step, first step]. */
  baseSteps?: readonly [number, number];
  /** Steps (inclusive) whose judged samples give the judge's truth; default every step. */
  truthSteps?: readonly [number, number];
  /** A state with fewer samples in the base window gets a note (default 30). */
  minStateSamples?: number;
  /** A state × behavior judged fewer times gets a note (default 10). */
  minJudged?: number;
  /** Truth of a state × behavior never judged (default [0, 1, 0]: the judge gives no signal). */
  unjudgedTruth?: TruthRow;
}

export type FitNoteKind = 'mapping' | 'dropped' | 'few-samples' | 'unsampled' | 'unjudged' | 'few-judged' | 'non-ternary' | 'invented' | 'session';

export interface FitNote {
  kind: FitNoteKind;
  /** The spec field the note is about ('' = the spec as a whole). */
  path: string;
  message: string;
  /** The fit put a default where the log says nothing: the user should say what is true. */
  ask: boolean;
}

export interface FitResult {
  spec: TaskSpec;
  notes: FitNote[];
  baseSteps: [number, number];
  truthSteps: [number, number];
  /** Mean turns per session (OpenClaw), for the `sessionTurns` setting; null without sessions. */
  sessionTurns: number | null;
  /** The settings besides the task that a fitted task trains with (the CLI prints them, the FitPanel sets them). */
  settings: FitSettings;
  /** The import's names of spec.states and spec.behaviors, in the spec's order (a view pairs the import's curves with the fitted task's). */
  importNames: { states: string[]; behaviors: string[] };
}

/**
 * judgeNoise 0: the truth is the log's scores, its judge's noise already in them. judgeVotes is
 * left as it is: the lab's judge draws ONE true vote per turn from the truth and casts judgeVotes
 * votes that are each that vote or, with probability judgeNoise, a uniform draw (judge.ts
 * castVotes), so with no noise the majority is the drawn vote for any judgeVotes. sessionTurns:
 * the log's mean session length, within the setting's range (sessions only).
 */
export interface FitSettings {
  judgeNoise: 0;
  sessionTurns?: number;
}

export const FIT_DEFAULTS = { minStateSamples: 30, minJudged: 10, unjudgedTruth: [0, 1, 0] as TruthRow };
const INVALID_TRUTH: TruthRow = [0, 0, 1];

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const fmt = (xs: readonly number[]) => `[${xs.map((x) => x.toFixed(3)).join(', ')}]`;

/** Sum of a scalar over the frames of a step window. */
function summer(source: FitSource, [lo, hi]: readonly [number, number]): (key: string) => number {
  const frames = source.frames.filter((f) => f.step >= lo && f.step <= hi);
  return (key) => frames.reduce((a, f) => a + ((f.scalars as Record<string, number | undefined>)[key] ?? 0), 0);
}

function stepWindow(source: FitSource, w: readonly [number, number] | undefined, fallback: [number, number], what: string): [number, number] {
  const r: [number, number] = w ? [w[0], w[1]] : fallback;
  if (!(r[0] <= r[1]) || !source.frames.some((f) => f.step >= r[0] && f.step <= r[1])) throw new Error(`${what}: no imported step in [${r[0]}, ${r[1]}] (steps ${fallback[0]}..${source.frames.at(-1)?.step})`);
  return r;
}

/** Fit a task spec to an import; the spec passes validateTaskSpec. Throws on an import without samples. */
export function fitTask(source: FitSource, opts: FitOptions = {}): FitResult {
  if (!source.frames.length) throw new Error('fit: the import has no steps');
  const o = { ...FIT_DEFAULTS, ...opts };
  const steps = source.frames.map((f) => f.step);
  const baseSteps = stepWindow(source, opts.baseSteps, [steps[0], steps[0]], 'base window');
  const truthSteps = stepWindow(source, opts.truthSteps, [steps[0], steps.at(-1)!], 'truth window');
  const all = summer(source, [steps[0], steps.at(-1)!]);
  const base = summer(source, baseSteps);
  const judged = summer(source, truthSteps);
  const notes: FitNote[] = [];
  const note = (kind: FitNoteKind, path: string, message: string, ask = false) => notes.push({ kind, path, message, ask });
  const count = (sum: (k: string) => number, s: string, b: string) => sum(`support/behavior_count/${s}/${b}`);

  // states and behaviors: the import's, within the model's slots
  const byCount = (xs: readonly string[], n: (x: string) => number) => [...xs].sort((a, b) => n(b) - n(a) || xs.indexOf(a) - xs.indexOf(b));
  const stateTotal = (s: string) => all(`import/state_samples/${s}`);
  const behaviorTotal = (b: string) => source.states.reduce((a, s) => a + count(all, s, b), 0);
  const sampled = source.behaviors.filter((b) => b !== INVALID_NAME && behaviorTotal(b) > 0);
  for (const b of source.behaviors) if (b !== INVALID_NAME && behaviorTotal(b) === 0) note('dropped', 'behaviors', `behavior "${b}" (a rule's label) matched no sample in any step: left out`);
  const keptStates = new Set(byCount(source.states.filter((s) => stateTotal(s) > 0), stateTotal).slice(0, STATE_SLOTS));
  const keptBehaviors = new Set(byCount(sampled, behaviorTotal).slice(0, HINT_SLOTS));
  const states = source.states.filter((s) => keptStates.has(s));
  const behaviors = sampled.filter((b) => keptBehaviors.has(b));
  for (const s of source.states) if (!keptStates.has(s) && stateTotal(s) > 0) note('dropped', 'states', `state "${s}" (${stateTotal(s)} samples) left out: the model has ${STATE_SLOTS} state tokens, the ${STATE_SLOTS} most sampled are kept`);
  for (const b of sampled) if (!keptBehaviors.has(b)) note('dropped', 'behaviors', `behavior "${b}" (${behaviorTotal(b)} samples) left out: the model has ${HINT_SLOTS} behavior slots; its samples count as no behavior`);
  if (!states.length || !behaviors.length) throw new Error(`fit: the import has no ${states.length ? 'sample of any behavior (every sample is invalid)' : 'state with samples'}`);
  const names = fittedNames(states, behaviors);
  const sName = (s: string) => names.states[states.indexOf(s)];
  const bName = (b: string) => names.behaviors[behaviors.indexOf(b)];
  const v = names.vocabulary;
  note('mapping', 'vocabulary', `states → tokens: ${states.map((s, i) => `${s} → [${v.states[i]}]`).join(', ')}; behaviors → one marker and one hint token each: ${behaviors.map((b, i) => `${b} → ${v.markers[i]} / {${v.hints[i]}}`).join(', ')}. The log's response text is not kept: a fitted behavior is its marker with the lab's filler tokens`);
  states.forEach((s, i) => s !== names.states[i] && note('mapping', `states[${i}].name`, `state "${s}" is named "${names.states[i]}" (spec names: letters, digits, space, _.:-, at most 40)`));
  behaviors.forEach((b, i) => b !== names.behaviors[i] && note('mapping', `behaviors[${i}].name`, `behavior "${b}" is named "${names.behaviors[i]}" (spec names: letters, digits, space, _.:-, at most 40)`));

  // sessions (OpenClaw): transitions within each step's sessions
  const sessionKeys = source.frames.some((f) => Object.keys(f.scalars).some((k) => k.startsWith('import/end_count/')));
  const nextOf = (s: string, b: string) => states.map((t) => all(`import/next_count/${s}/${b}/${t}`));
  const anyNext = sessionKeys && states.some((s) => behaviors.some((b) => nextOf(s, b).some((x) => x > 0)));
  const kind = anyNext ? 'multi-turn' : 'single-turn';
  let sessionTurns: number | null = null;
  if (sessionKeys) {
    const turns = states.reduce((a, s) => a + behaviors.reduce((x, b) => x + count(all, s, b), 0), 0);
    const ends = states.reduce((a, s) => a + behaviors.reduce((x, b) => x + all(`import/end_count/${s}/${b}`), 0), 0);
    sessionTurns = ends ? turns / ends : null;
    note('session', 'kind', anyNext
      ? `sessions go on for ${sessionTurns?.toFixed(2)} turns on average: multi-turn; set sessionTurns near it (a session's last turn has no next message in the lab)`
      : 'every session of the log has one turn: single-turn (every action ends the session)');
  } else note('session', 'kind', `a ${source.format} log has no sessions: single-turn (every action ends the session)`);

  // base mix, judge truth and transitions per state
  const specStates: StateSpec[] = states.map((s, i) => {
    const path = `states[${i}]`;
    const counts = behaviors.map((b) => count(base, s, b));
    const valid = counts.reduce((a, c) => a + c, 0);
    const inBase = base(`import/state_samples/${s}`);
    if (inBase < o.minStateSamples) note('few-samples', `${path}.baseMix`, `state "${s}" has ${inBase} samples in steps ${baseSteps.join('..')}: its base mix has a standard error up to ${(0.5 / Math.sqrt(Math.max(1, inBase))).toFixed(2)} per behavior (widen the base window)`);
    if (inBase > valid && valid > 0) note('mapping', `${path}.baseMix`, `${pct((inBase - valid) / inBase)} of state "${s}"'s samples in the base window are no behavior (invalid${behaviors.length < source.behaviors.length ? ' or a left-out behavior' : ''}): the base mix is over behaviors only, renormalized`);
    const baseMix = Object.fromEntries(behaviors.map((b, j) => [bName(b), valid ? counts[j] / valid : 1 / behaviors.length]));
    if (!valid) note('unsampled', `${path}.baseMix`, `state "${s}" has no behavior sample in steps ${baseSteps.join('..')}: uniform base mix (say what the base policy does)`, true);
    behaviors.forEach((b, j) => valid && counts[j] === 0 && note('unsampled', `${path}.baseMix.${bName(b)}`, `behavior "${b}" was never sampled in state "${s}" in the base window: base mix 0 (the fitted base will not produce it either)`));

    const truthOf = (b: string, fallback: TruthRow, jpath: string): TruthRow => {
      const c = (['pos', 'zero', 'neg'] as const).map((x) => judged(`import/reward_count/${s}/${b}/${x}`));
      const m = c[0] + c[1] + c[2];
      if (m === 0) {
        if (b !== INVALID_NAME) note('unjudged', jpath, `behavior "${b}" was never judged in state "${s}" (${count(all, s, b)} samples, none with a reward in steps ${truthSteps.join('..')}): no reward estimate; truth set to ${fmt(fallback)}. What does the judge give it?`, true);
        return fallback;
      }
      if (m < o.minJudged && b !== INVALID_NAME) note('few-judged', jpath, `behavior "${b}" in state "${s}" was judged ${m} times: truth ${fmt(c.map((x) => x / m))} has a standard error up to ${(0.5 / Math.sqrt(m)).toFixed(2)}`);
      return [c[0] / m, c[1] / m, c[2] / m];
    };
    const truths = behaviors.map((b) => truthOf(b, o.unjudgedTruth, `${path}.act.${bName(b)}.truth`));
    const value = truths.map((t) => t[0] - t[2]);
    const best = value.reduce((bi, x, j) => (x > value[bi] || (x === value[bi] && baseMix[bName(behaviors[j])] > baseMix[bName(behaviors[bi])]) ? j : bi), 0);
    const positive = behaviors.filter((_, j) => value[j] > 0).map(bName);
    const good = positive.length ? positive : [bName(behaviors[best])];
    const transition = (b: string, truth: TruthRow, tpath: string): TransitionSpec => {
      const t: TransitionSpec = { truth, hint: null, next: 'end' };
      if (!sessionKeys) return t;
      const obs = count(all, s, b);
      const noNext = all(`import/no_next_count/${s}/${b}`);
      if (obs > 0 && noNext === obs) t.nextMessage = false;
      else if (noNext > 0) note('session', `${tpath}.nextMessage`, `${pct(noNext / obs)} of "${b}" turns in state "${s}" had no next state; the spec says a next message exists (the lab's last turn of a session never has one)`);
      if (kind === 'single-turn') return t;
      const next = nextOf(s, b);
      const going = next.reduce((a, x) => a + x, 0);
      const ends = all(`import/end_count/${s}/${b}`);
      if (going === 0 || ends >= going) {
        if (going > 0) note('session', `${tpath}.next`, `"${b}" in state "${s}" ended its session in ${pct(ends / (ends + going))} of its turns: next = end (a spec cannot mix ending and going on)`);
        if (going + ends === 0 && b !== INVALID_NAME) note('session', `${tpath}.next`, `"${b}" in state "${s}" was never seen in a session: next = end`, true);
        return t;
      }
      if (ends > 0) note('session', `${tpath}.next`, `"${b}" in state "${s}" ended its session in ${pct(ends / (ends + going))} of its turns: the spec goes on (the session length comes from sessionTurns)`);
      t.next = Object.fromEntries(states.flatMap((x, k) => (next[k] ? [[sName(x), next[k] / going]] : [])));
      return t;
    };
    const act: Record<string, TransitionSpec> = {};
    behaviors.forEach((b, j) => (act[bName(b)] = transition(b, truths[j], `${path}.act.${bName(b)}`)));
    act[INVALID_NAME] = transition(INVALID_NAME, truthOf(INVALID_NAME, INVALID_TRUTH, `${path}.act.invalid.truth`), `${path}.act.invalid`);
    if (!positive.length) note('invented', `${path}.good`, `no behavior has a positive expected vote in state "${s}": good (pass@k) is its best behavior, "${bName(behaviors[best])}"`, true);
    return { name: sName(s), token: v.states[i], baseMix, gold: bName(behaviors[best]), good, act };
  });
  note('invented', 'states[].gold', 'a log has no gold (SFT) data: gold = the behavior with the highest expected vote E = P(+1) − P(−1) in each state; good (pass@k) = the behaviors with E > 0 (none: the best one)', true);
  note('invented', 'states[].act[].hint', 'hints: none (a log\'s hint text does not say which behavior it points to); add them for OPD');

  const nonTernary = states.reduce((a, s) => a + [...behaviors, INVALID_NAME].reduce((x, b) => x + judged(`import/reward_nonternary/${s}/${b}`), 0), 0);
  const judgedAll = states.reduce((a, s) => a + [...behaviors, INVALID_NAME].reduce((x, b) => x + (['pos', 'zero', 'neg'] as const).reduce((y, r) => y + judged(`import/reward_count/${s}/${b}/${r}`), 0), 0), 0);
  if (nonTernary) note('non-ternary', 'states[].act[].truth', `${nonTernary} of ${judgedAll} judged rewards are not −1, 0 or +1: each counts as its sign (r > 0 → +1, r = 0 → 0, r < 0 → −1), the magnitude is lost`, true);
  if (judgedAll) note('mapping', 'states[].act[].truth', 'the truth is the distribution of the log\'s scores, its judge\'s noise included: train with judgeNoise = 0, or the lab\'s judge adds its noise again (judgeVotes then does not matter: each vote is the one true vote drawn from this truth)');
  if (!judgedAll) note('unjudged', 'states[].act[].truth', 'no sample of the log has a reward: every truth is a default', true);
  note('mapping', 'start', 'sessions start in a uniformly drawn state (the lab serves states uniformly; the log\'s state shares are not kept)');

  const spec: TaskSpec = {
    format: TASK_FORMAT, version: TASK_VERSION,
    name: opts.name ?? `fitted ${source.format}`,
    description: `Fitted from a ${source.format} import: base mix from steps ${baseSteps.join('..')}, judge truth from steps ${truthSteps.join('..')} (src/core/tasks/fit.ts).`,
    kind, start: 'uniform', vocabulary: v,
    behaviors: behaviors.map((b, i) => ({ name: bName(b), markers: [v.markers[i]], hint: v.hints[i] })),
    states: specStates,
  };
  const settings: FitSettings = { judgeNoise: 0 };
  if (sessionTurns !== null) settings.sessionTurns = Math.min(8, Math.max(1, Math.round(sessionTurns)));
  return { spec, notes, baseSteps, truthSteps, sessionTurns, settings, importNames: { states, behaviors } };
}
