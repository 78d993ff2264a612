// Each state of a fitted task: its base mix (behavior counts over the base window, without the
// responses that are no behavior), its judge truth per behavior (P(+1), P(0), P(−1) over the truth
// window from the sign of each judged reward), gold and good (the log has neither: the highest
// expected vote E = P(+1) − P(−1), and GOOD_RULE), and what follows each behavior (fit-sessions.ts).
import type { FitChoice } from './fit-choose';
import { sharesOf } from './fit-dist';
import { fmt, pct, type FitNotes } from './fit-notes';
import { transitionOf, type SessionShape } from './fit-sessions';
import type { StepWindow, WindowSums } from './fit-sums';
import { INVALID_NAME, expectedVote, type StateSpec, type TransitionSpec, type TruthRow } from './spec';

export interface FitWindows {
  all: WindowSums;
  base: WindowSums;
  judged: WindowSums;
  baseSteps: StepWindow;
  truthSteps: StepWindow;
}

export interface StateFitOptions {
  minStateSamples: number;
  minJudged: number;
  unjudgedTruth: TruthRow;
  /** Behaviors the import classified into (to say when left-out ones count as no behavior). */
  importBehaviors: number;
}

const INVALID_TRUTH: TruthRow = [0, 0, 1];

/**
 * Good (pass@k) means "as good as the best, as far as the log can tell": E > 0 alone makes every
 * behavior good under 0/1 rewards (P(−1) = 0, so any success gives E > 0).
 */
export const GOOD_RULE = 'the behaviors with E > 0 within one standard error of the best one\'s E (E ≥ E_best − SE_best, SE from the best one\'s judged count; none with E > 0: the best one)';

/** Standard error of the mean vote of a state × behavior judged c = [pos, zero, neg] times. */
function voteSe(c: readonly number[]): number {
  const m = c[0] + c[1] + c[2];
  if (!m) return 0;
  const e = (c[0] - c[2]) / m;
  const second = (c[0] + c[2]) / m;
  return Math.sqrt(Math.max(0, second - e * e) / m);
}

function baseMixOf(s: string, path: string, w: FitWindows, c: FitChoice, o: StateFitOptions, notes: FitNotes): Record<string, number> {
  const { behaviors } = c;
  const counts = behaviors.map((b) => w.base.count(s, b));
  const valid = counts.reduce((a, x) => a + x, 0);
  const inBase = w.base.samples(s);
  const steps = w.baseSteps.join('..');
  if (inBase < o.minStateSamples) notes.add('few-samples', `${path}.baseMix`, `state "${s}" has ${inBase} samples in steps ${steps}: its base mix has a standard error up to ${(0.5 / Math.sqrt(Math.max(1, inBase))).toFixed(2)} per behavior (widen the base window)`);
  if (inBase > valid && valid > 0) notes.add('mapping', `${path}.baseMix`, `${pct((inBase - valid) / inBase)} of state "${s}"'s samples in the base window are no behavior (invalid${behaviors.length < o.importBehaviors ? ' or a left-out behavior' : ''}): the base mix is over behaviors only, renormalized`);
  const shares = valid ? sharesOf(counts) : sharesOf(counts.map(() => 1));
  const mix = Object.fromEntries(behaviors.map((b, j) => [c.bName(b), shares[j]]));
  if (!valid) notes.add('unsampled', `${path}.baseMix`, `state "${s}" has no behavior sample in steps ${steps}: uniform base mix (say what the base policy does)`, true);
  behaviors.forEach((b, j) => valid && counts[j] === 0 && notes.add('unsampled', `${path}.baseMix.${c.bName(b)}`, `behavior "${b}" was never sampled in state "${s}" in the base window: base mix 0 (the fitted base will not produce it either)`));
  return mix;
}

function truthOf(s: string, b: string, fallback: TruthRow, path: string, w: FitWindows, o: StateFitOptions, notes: FitNotes): TruthRow {
  const c = w.judged.rewards(s, b);
  const m = c[0] + c[1] + c[2];
  if (m === 0) {
    if (b !== INVALID_NAME) notes.add('unjudged', path, `behavior "${b}" was never judged in state "${s}" (${w.all.count(s, b)} samples, none with a reward in steps ${w.truthSteps.join('..')}): no reward estimate; truth set to ${fmt(fallback)}. What does the judge give it?`, true);
    return fallback;
  }
  if (m < o.minJudged && b !== INVALID_NAME) notes.add('few-judged', path, `behavior "${b}" in state "${s}" was judged ${m} times: truth ${fmt(c.map((x) => x / m))} has a standard error up to ${(0.5 / Math.sqrt(m)).toFixed(2)}`);
  const [pos, zero, neg] = sharesOf(c);
  return [pos, zero, neg];
}

/** The spec of the i-th kept state. */
export function stateSpecOf(i: number, w: FitWindows, c: FitChoice, shape: SessionShape, o: StateFitOptions, notes: FitNotes): StateSpec {
  const s = c.states[i];
  const path = `states[${i}]`;
  const { behaviors, bName } = c;
  const baseMix = baseMixOf(s, path, w, c, o, notes);
  const truths = behaviors.map((b) => truthOf(s, b, o.unjudgedTruth, `${path}.act.${bName(b)}.truth`, w, o, notes));
  const value = truths.map(expectedVote);
  const best = value.reduce((bi, x, j) => (x > value[bi] || (x === value[bi] && baseMix[bName(behaviors[j])] > baseMix[bName(behaviors[bi])]) ? j : bi), 0);
  const bar = value[best] - voteSe(w.judged.rewards(s, behaviors[best]));
  const positive = behaviors.filter((_, j) => value[j] > 0 && value[j] >= bar).map(bName);
  const act: Record<string, TransitionSpec> = {};
  behaviors.forEach((b, j) => (act[bName(b)] = transitionOf(shape, w.all, c, s, b, truths[j], `${path}.act.${bName(b)}`, notes)));
  const invalidTruth = truthOf(s, INVALID_NAME, INVALID_TRUTH, `${path}.act.invalid.truth`, w, o, notes);
  act[INVALID_NAME] = transitionOf(shape, w.all, c, s, INVALID_NAME, invalidTruth, `${path}.act.invalid`, notes);
  if (!positive.length) notes.add('invented', `${path}.good`, `no behavior has a positive expected vote in state "${s}": good (pass@k) is its best behavior, "${bName(behaviors[best])}"`, true);
  return { name: c.sName(s), token: c.names.vocabulary.states[i], baseMix, gold: bName(behaviors[best]), good: positive.length ? positive : [bName(behaviors[best])], act };
}
