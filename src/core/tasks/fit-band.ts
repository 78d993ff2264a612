// The seed band of a fitted task beside its log: the fitted task trained as a population of seeds,
// per state × behavior and step the seeds' median share and a quantile band (default 10–90 %, R
// type 7), with the log's share on it and, in words, where the log lies: inside the band, above or
// below it, at which steps.
//   alignment  the lab's frame k measures the policy after k training steps; a log's step holds the
//              samples of the policy before that step's update. So a run started from the log's
//              step a (its base mix fitted there) is compared at frame k with the log's step a + k
//              (counted in imported steps): the log's anchor step itself is the fitted base.
//   the log's  its share at a step is a count over n samples (~20 per state in the shipped examples,
//   own noise  a standard error near 0.1): the log counts as above (below) the band only when its
//              95 % Wilson interval lies wholly above (below) it; otherwise it is inside.
import { quantileSorted } from '../experiment/stats';
import type { ShareTable } from './fit-shares';

export interface BandPoint {
  /** The log's step number this point is compared with. */
  step: number;
  median: number;
  lo: number;
  hi: number;
  /** Seeds with a finite share at this step. */
  seeds: number;
}

export type Place = 'inside' | 'above' | 'below' | 'none';

export interface BandOptions {
  /** Quantiles of the band over seeds (default [0.1, 0.9]). */
  quantiles?: readonly [number, number];
  /** z of the log's Wilson interval (default 1.96). */
  z?: number;
}

export const BAND_DEFAULTS = { quantiles: [0.1, 0.9] as const, z: 1.96 };

/** Log index of simulated frame step k, for a run started from log index `anchor`. */
export const logIndexOf = (anchor: number, simStep: number): number => anchor + simStep;

/**
 * The band of one state × behavior: one point per log step after the anchor that some seed reached
 * (median and quantiles of the seeds' shares there).
 */
export function shareBand(log: ShareTable, anchor: number, runs: readonly ShareTable[], s: number, b: number, o: BandOptions = {}): BandPoint[] {
  const [qLo, qHi] = o.quantiles ?? BAND_DEFAULTS.quantiles;
  const out: BandPoint[] = [];
  for (let i = anchor + 1; i < log.steps.length; i++) {
    const values = runs.flatMap((r) => {
      const k = r.steps.indexOf(i - anchor);
      const v = k < 0 ? NaN : r.share[s][b][k];
      return Number.isFinite(v) ? [v] : [];
    });
    if (!values.length) continue;
    const sorted = values.sort((x, y) => x - y);
    out.push({ step: log.steps[i], median: quantileSorted(sorted, 0.5), lo: quantileSorted(sorted, qLo), hi: quantileSorted(sorted, qHi), seeds: sorted.length });
  }
  return out;
}

/** 95 % (z) Wilson score interval of a share p over n samples. */
export function wilson(p: number, n: number, z = BAND_DEFAULTS.z): [number, number] {
  if (!(n > 0) || !Number.isFinite(p)) return [NaN, NaN];
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // at p = 0 (1) the bound is exactly 0 (1); the rounding of centre − half left 1.4e-17 at 0 of 22,
  // and a log at 0 beside seeds all at 0 counted as above the band
  return [p === 0 ? 0 : Math.max(0, centre - half), p === 1 ? 1 : Math.min(1, centre + half)];
}

/** Where the log's share at one step lies against a band point. */
export function placeOf(p: number, n: number, band: Pick<BandPoint, 'lo' | 'hi'>, z = BAND_DEFAULTS.z): Place {
  const [lo, hi] = wilson(p, n, z);
  if (!Number.isFinite(lo)) return 'none';
  if (lo > band.hi) return 'above';
  if (hi < band.lo) return 'below';
  return 'inside';
}

export interface BehaviorBand {
  behavior: number;
  band: BandPoint[];
  /** The log's place against each band point (same order). */
  places: Place[];
}

export interface StateBand {
  state: number;
  behaviors: BehaviorBand[];
}

/** Every state × behavior's band and the log's place on it. */
export function seedBands(log: ShareTable, anchor: number, runs: readonly ShareTable[], o: BandOptions = {}): StateBand[] {
  const z = o.z ?? BAND_DEFAULTS.z;
  return log.share.map((row, s) => ({
    state: s,
    behaviors: row.map((_, b) => {
      const band = shareBand(log, anchor, runs, s, b, o);
      const places = band.map((p) => {
        const i = log.steps.indexOf(p.step);
        return placeOf(log.share[s][b][i], log.n[s][i], p, z);
      });
      return { behavior: b, band, places };
    }),
  }));
}

/** Steps as ranges: [3, 4, 5, 9] → "3–5, 9". */
export function stepRanges(steps: readonly number[], all: readonly number[]): string {
  const parts: string[] = [];
  let start = -1;
  for (let i = 0; i < steps.length; i++) {
    const next = all.indexOf(steps[i]) + 1;
    if (start < 0) start = steps[i];
    if (i + 1 === steps.length || all[next] !== steps[i + 1]) {
      parts.push(start === steps[i] ? `${start}` : `${start}–${steps[i]}`);
      start = -1;
    }
  }
  return parts.join(', ');
}

/** Per state, one sentence: where the log lies against the band (names: the fit's spec names). */
export function bandWords(bands: readonly StateBand[], names: { states: readonly string[]; behaviors: readonly string[] }): string[] {
  return bands.map(({ state, behaviors }) => {
    const parts: string[] = [];
    let inside = 0;
    let total = 0;
    for (const { behavior, band, places } of behaviors) {
      const steps = band.map((p) => p.step);
      for (const side of ['above', 'below'] as const) {
        const at = steps.filter((_, k) => places[k] === side);
        if (at.length) parts.push(`${names.behaviors[behavior]} ${side} at step${at.length > 1 ? 's' : ''} ${stepRanges(at, steps)}`);
      }
      inside += places.filter((p) => p === 'inside').length;
      total += places.filter((p) => p !== 'none').length;
    }
    const head = `${names.states[state]}: the log is inside the band at ${inside} of ${total} behavior × step points`;
    return parts.length ? `${head}; ${parts.join('; ')}` : `${head} (everywhere)`;
  });
}
