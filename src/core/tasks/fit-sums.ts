// The counts a task fit reads, summed over step windows of an import's frames (the whole run, the
// base window, the truth window), under the import's typed keys (src/core/import/measure/fit-keys.ts).
import type { MeasureResult } from '../import/analyze';
import { REWARD_SIGNS, behaviorCountKey, endCountKey, fillerPairsKey, fillerRepeatsKey, isEndCountKey, lengthCountKey, nextCountKey, noNextCountKey, rewardCountKey, rewardNonternaryKey, stateSamplesKey } from '../import/measure/fit-keys';
import { TOKEN_CAP } from '../import/measure/measure';
import type { ScalarName } from '../measure/names';

/** What the fit reads of an import: its frames and the names it classified into. */
export type FitSource = Pick<MeasureResult, 'format' | 'frames' | 'states' | 'behaviors'> & Partial<Pick<MeasureResult, 'reward'>>;

export type StepWindow = [number, number];

/** A window of steps, checked to hold an imported step. */
export function stepWindow(source: FitSource, w: readonly [number, number] | undefined, fallback: StepWindow, what: string): StepWindow {
  const r: StepWindow = w ? [w[0], w[1]] : fallback;
  if (!(r[0] <= r[1]) || !source.frames.some((f) => f.step >= r[0] && f.step <= r[1])) throw new Error(`${what}: no imported step in [${r[0]}, ${r[1]}] (steps ${fallback[0]}..${source.frames.at(-1)?.step})`);
  return r;
}

/** The counts of one window of steps. */
export class WindowSums {
  private readonly frames: FitSource['frames'];

  constructor(source: FitSource, [lo, hi]: readonly [number, number]) {
    this.frames = source.frames.filter((f) => f.step >= lo && f.step <= hi);
  }

  /** Sum of a scalar over the window (absent = 0). */
  sum(key: ScalarName): number {
    return this.frames.reduce((a, f) => a + (f.scalars[key] ?? 0), 0);
  }

  samples = (s: string) => this.sum(stateSamplesKey(s));
  count = (s: string, b: string) => this.sum(behaviorCountKey(s, b));
  /** Judged samples of s × b by reward sign: [pos, zero, neg]. */
  rewards = (s: string, b: string) => REWARD_SIGNS.map((x) => this.sum(rewardCountKey(s, b, x)));
  nonTernary = (s: string, b: string) => this.sum(rewardNonternaryKey(s, b));
  next = (s: string, b: string, t: string) => this.sum(nextCountKey(s, b, t));
  ends = (s: string, b: string) => this.sum(endCountKey(s, b));
  noNext = (s: string, b: string) => this.sum(noNextCountKey(s, b));
  /** Responses of s × b by length in tokens: index L = 0 … TOKEN_CAP. */
  lengths = (s: string, b: string) => Array.from({ length: TOKEN_CAP + 1 }, (_, L) => this.sum(lengthCountKey(s, b, L)));
  /** Σ c(c − 1) and N(N − 1) of s × b's filler tokens, summed over the window's steps (fit-tokens.ts). */
  fillerRepeats = (s: string, b: string) => this.sum(fillerRepeatsKey(s, b));
  fillerPairs = (s: string, b: string) => this.sum(fillerPairsKey(s, b));
}

/** The import has OpenClaw sessions (its frames carry end counts). */
export function hasSessions(source: FitSource): boolean {
  return source.frames.some((f) => Object.keys(f.scalars).some(isEndCountKey));
}
