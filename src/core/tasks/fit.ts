// A task spec fitted from an import (src/core/import): the import's own classification of samples
// into states and behaviors is the task's, read from the per-state counts the import keeps in its
// frames (support/behavior_count, import/reward_count, import/next_count, …; src/core/import/measure/fit-keys.ts),
// never classified again. The rules (docs/tasks.md "Fitted from a log"):
//   states, behaviors  the import's, in its order; at most 10 states (most samples first) and 12
//                      behaviors; one state token, one marker and one hint token each (fit-names.ts)
//   base mix           behavior counts of each state over the base window (default: the first
//                      step), without the responses that are no behavior (the spec has no invalid share)
//   judge truth        P(+1), P(0), P(−1) per state × behavior over the truth window (default: every
//                      step) from the sign of each judged sample's reward (OpenClaw: the PRM's majority
//                      score); never judged → `unjudgedTruth` (default [0, 1, 0]: no signal) and a note
//   gold, good         not in a log: gold = the highest expected vote E = P(+1) − P(−1); good = E > 0
//                      and within one standard error of the best (fit-states.ts GOOD_RULE)
//   responses          per state × behavior, the length distribution and filler diversity of its
//                      responses in the base window, mapped onto the model's slots (fit-responses.ts)
//   sessions           OpenClaw records only: a state × behavior whose sessions went on has next = the
//                      observed next-state mix; one that ended them in at least half its turns, 'end';
//                      nextMessage = false only when none of its turns had a next state
// What the fit cannot know comes back as notes, each with the path of the field it concerns.
// One seam a file: the step windows and their sums (fit-sums.ts), the states and behaviors kept and
// their names (fit-choose.ts, fit-names.ts), sessions (fit-sessions.ts), each state's base mix and
// truth (fit-states.ts), the token level (fit-responses.ts), the notes (fit-notes.ts); this file puts them together.
import { chooseNames, type FitChoice } from './fit-choose';
import { FitNotes, type FitNote } from './fit-notes';
import { fitResponses, type FitTokens } from './fit-responses';
import { sessionShape } from './fit-sessions';
import { GOOD_RULE, stateSpecOf, type FitWindows } from './fit-states';
import { WindowSums, stepWindow, type FitSource } from './fit-sums';
import { INVALID_NAME, TASK_FORMAT, TASK_VERSION, type TaskSpec, type TruthRow } from './spec';

export type { FitNote, FitNoteKind } from './fit-notes';
export type { FitSource } from './fit-sums';

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
  /** The log's token level over the base window, in the model's tokens (fit-responses.ts); null without responses. */
  tokens: FitTokens | null;
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

function windows(source: FitSource, opts: FitOptions): FitWindows {
  const steps = source.frames.map((f) => f.step);
  const run: [number, number] = [steps[0], steps.at(-1)!];
  const baseSteps = stepWindow(source, opts.baseSteps, [steps[0], steps[0]], 'base window');
  const truthSteps = stepWindow(source, opts.truthSteps, run, 'truth window');
  return { all: new WindowSums(source, run), base: new WindowSums(source, baseSteps), judged: new WindowSums(source, truthSteps), baseSteps, truthSteps };
}

/** The notes about the truth of every state at once, and the start state. */
function closingNotes(source: FitSource, w: FitWindows, { states, behaviors }: FitChoice, notes: FitNotes): void {
  if (source.reward) notes.add('mapping', 'states[].act[].truth', `reward read: ${source.reward}`);
  notes.add('invented', 'states[].gold', `a log has no gold (SFT) data: gold = the behavior with the highest expected vote E = P(+1) − P(−1) in each state; good (pass@k) = ${GOOD_RULE}`, true);
  notes.add('invented', 'states[].act[].hint', 'hints: none (a log\'s hint text does not say which behavior it points to); add them for OPD');
  const pairs = states.flatMap((s) => [...behaviors, INVALID_NAME].map((b) => [s, b] as const));
  const nonTernary = pairs.reduce((a, [s, b]) => a + w.judged.nonTernary(s, b), 0);
  const judgedAll = pairs.reduce((a, [s, b]) => a + w.judged.rewards(s, b).reduce((x, y) => x + y, 0), 0);
  if (nonTernary) notes.add('non-ternary', 'states[].act[].truth', `${nonTernary} of ${judgedAll} judged rewards are not −1, 0 or +1: each counts as its sign (r > 0 → +1, r = 0 → 0, r < 0 → −1), the magnitude is lost`, true);
  if (judgedAll) notes.add('mapping', 'states[].act[].truth', 'the truth is the distribution of the log\'s scores, its judge\'s noise included: train with judgeNoise = 0, or the lab\'s judge adds its noise again (judgeVotes then does not matter: each vote is the one true vote drawn from this truth)');
  if (!judgedAll) notes.add('unjudged', 'states[].act[].truth', 'no sample of the log has a reward: every truth is a default', true);
  notes.add('mapping', 'start', 'sessions start in a uniformly drawn state (the lab serves states uniformly; the log\'s state shares are not kept)');
}

/** Fit a task spec to an import; the spec passes validateTaskSpec. Throws on an import without samples. */
export function fitTask(source: FitSource, opts: FitOptions = {}): FitResult {
  if (!source.frames.length) throw new Error('fit: the import has no steps');
  const o = { ...FIT_DEFAULTS, ...opts, importBehaviors: source.behaviors.length };
  const w = windows(source, opts);
  const notes = new FitNotes();
  const choice = chooseNames(source, w.all, notes);
  const shape = sessionShape(source, w.all, choice, notes);
  const states = choice.states.map((_, i) => stateSpecOf(i, w, choice, shape, o, notes));
  const level = fitResponses(w.base, choice, w.baseSteps.join('..'), notes);
  level?.responses.forEach((r, i) => Object.keys(r).length && (states[i].responses = r));
  closingNotes(source, w, choice, notes);
  const v = choice.names.vocabulary;
  const spec: TaskSpec = {
    format: TASK_FORMAT, version: TASK_VERSION,
    name: opts.name ?? `fitted ${source.format}`,
    description: `Fitted from a ${source.format} import: base mix from steps ${w.baseSteps.join('..')}, judge truth from steps ${w.truthSteps.join('..')} (docs/tasks.md).`,
    kind: shape.kind, start: 'uniform', vocabulary: v,
    behaviors: choice.behaviors.map((b, i) => ({ name: choice.bName(b), markers: [v.markers[i]], hint: v.hints[i] })),
    states,
  };
  const settings: FitSettings = { judgeNoise: 0 };
  if (shape.sessionTurns !== null) settings.sessionTurns = Math.min(8, Math.max(1, Math.round(shape.sessionTurns)));
  return { spec, notes: notes.list, baseSteps: w.baseSteps, truthSteps: w.truthSteps, sessionTurns: shape.sessionTurns, settings, importNames: { states: choice.states, behaviors: choice.behaviors }, tokens: level?.tokens ?? null };
}
