// Statistics over seeds, written once for the lab's panels and the CLI: a seed band (median with
// the interquartile range, or min-max when there are too few seeds for quartiles to mean much) and
// a paired comparison (seed i of A against seed i of B: same init, same environment stream).
import { Rng } from '../rng';

export interface SeedBand {
  median: number;
  lo: number;
  hi: number;
  kind: 'iqr' | 'minmax';
  /** Finite values used (non-finite ones, e.g. a diverged seed, are left out). */
  n: number;
}

/** Quantile with linear interpolation between order statistics (R type 7) of sorted values. */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * q;
  const i = Math.floor(h);
  const f = h - i;
  return i + 1 < sorted.length ? sorted[i] + f * (sorted[i + 1] - sorted[i]) : sorted[i];
}

/** Median and band of one metric across seeds: IQR for n >= 5, min-max below. */
export function seedBand(values: readonly number[]): SeedBand {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  const n = v.length;
  if (n === 0) return { median: NaN, lo: NaN, hi: NaN, kind: 'minmax', n };
  const median = quantileSorted(v, 0.5);
  if (n < 5) return { median, lo: v[0], hi: v[n - 1], kind: 'minmax', n };
  return { median, lo: quantileSorted(v, 0.25), hi: quantileSorted(v, 0.75), kind: 'iqr', n };
}

/** Exact two-sided sign test: P(X <= min(k, n-k)) doubled, X ~ Binomial(n, 1/2), capped at 1. */
export function signTestP(k: number, n: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(k) || n < 0 || k < 0 || k > n) throw new RangeError(`sign test needs 0 <= k <= n integers, got k=${k}, n=${n}`);
  if (n === 0) return 1;
  const m = Math.min(k, n - k);
  // C(n, i) by the running product (exact integers while below 2^53, i.e. any seed count in use),
  // in log space past 1000 pairs where 2^n overflows
  let tail = 0;
  if (n <= 1000) {
    let c = 1;
    for (let i = 0; i <= m; i++) {
      tail += c;
      c = (c * (n - i)) / (i + 1);
    }
    tail /= 2 ** n;
  } else {
    let logC = 0;
    for (let i = 0; i <= m; i++) {
      tail += Math.exp(logC - n * Math.LN2);
      logC += Math.log(n - i) - Math.log(i + 1);
    }
  }
  return Math.min(1, 2 * tail);
}

export interface PairedOptions {
  /** Uniform [0, 1) source for the bootstrap; default a fixed seed, so the CI is reproducible. */
  rng?: { next(): number };
  /** Bootstrap resamples (default 10,000). */
  resamples?: number;
  /** Confidence level of the interval (default 0.95). */
  level?: number;
  /** Whether a larger value of the metric is better (default true); decides what "favours B" means. */
  higherIsBetter?: boolean;
}

export interface PairedComparison {
  n: number;
  /** b[i] − a[i]. */
  diffs: number[];
  meanDiff: number;
  /** Pairs where B is better (larger, or smaller when !higherIsBetter). */
  favourB: number;
  ties: number;
  /** Exact two-sided sign test over the untied pairs. */
  signTestP: number;
  /** Bootstrap percentile interval of the mean paired difference; null below MIN_PAIRS_FOR_INTERVAL pairs. */
  ci: [number, number] | null;
  level: number;
}

/**
 * Fewer pairs than this get no interval. The percentile bootstrap of a mean over n values covers the
 * true mean far less often than its level says when n is small: a "95 %" interval covered it in
 * 50 % (n = 2), 76 % (3), 80 % (4), 82 % (5), 85 % (6), 89 % (8), 90 % (10) of 2,000 normal samples
 * (±2 %, 1,000 resamples each). Five is where the seed band switches to quartiles too, and the sign
 * test still cannot reach p < 0.05 there (its smallest two-sided p over n pairs is 2 / 2^n).
 */
export const MIN_PAIRS_FOR_INTERVAL = 5;

/** The interval as text, or why there is none (the pair count is always said). */
export function intervalText(r: Pick<PairedComparison, 'ci' | 'level' | 'n'>, fmt: (v: number) => string): string {
  const pct = Math.round(r.level * 100);
  if (!r.ci) return `n = ${r.n} pair${r.n === 1 ? '' : 's'}: no ${pct} % interval is given below ${MIN_PAIRS_FOR_INTERVAL} pairs (it would cover far less often than ${pct} %)`;
  return `${pct} % bootstrap CI [${fmt(r.ci[0])}, ${fmt(r.ci[1])}] over n = ${r.n} pairs`;
}

export const DEFAULT_BOOTSTRAP_SEED = 0x5eed;

/** Paired comparison of B against A (a[i] and b[i] from the same seed). */
export function pairedComparison(a: readonly number[], b: readonly number[], opts: PairedOptions = {}): PairedComparison {
  if (a.length !== b.length) throw new RangeError(`paired comparison needs as many values in A as in B (${a.length} vs ${b.length})`);
  if (a.length === 0) throw new RangeError('paired comparison needs at least one pair');
  for (let i = 0; i < a.length; i++) {
    if (!Number.isFinite(a[i]) || !Number.isFinite(b[i])) throw new RangeError(`pair ${i} is not finite (A = ${a[i]}, B = ${b[i]})`);
  }
  const level = opts.level ?? 0.95;
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  const resamples = opts.resamples ?? 10_000;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  const sign = opts.higherIsBetter === false ? -1 : 1;
  const n = a.length;
  const diffs = a.map((x, i) => b[i] - x);
  const favourB = diffs.filter((d) => sign * d > 0).length;
  const ties = diffs.filter((d) => d === 0).length;
  const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const ci = n < MIN_PAIRS_FOR_INTERVAL ? null : bootstrapMeanCi(diffs, resamples, level, opts.rng ?? new Rng(DEFAULT_BOOTSTRAP_SEED));
  return { n, diffs, meanDiff: mean(diffs), favourB, ties, signTestP: signTestP(favourB, n - ties), ci, level };
}

/** Percentile bootstrap interval of the mean: resample n values with replacement, `resamples` times. */
export function bootstrapMeanCi(xs: readonly number[], resamples: number, level: number, rng: { next(): number }): [number, number] {
  const n = xs.length;
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += xs[Math.floor(rng.next() * n)];
    means[r] = s / n;
  }
  const sorted = Array.from(means).sort((x, y) => x - y);
  const alpha = (1 - level) / 2;
  return [quantileSorted(sorted, alpha), quantileSorted(sorted, 1 - alpha)];
}

/** Mean of a scalar metric over frames with from <= step <= to; frames lacking it are skipped (NaN if none). */
export function windowMean(frames: readonly { step: number; scalars: Partial<Record<string, number>> }[], metric: string, from: number, to: number): number {
  let s = 0;
  let n = 0;
  for (const f of frames) {
    if (f.step < from || f.step > to) continue;
    const v = Object.hasOwn(f.scalars, metric) ? f.scalars[metric] : undefined;
    if (v === undefined) continue;
    s += v;
    n++;
  }
  return n ? s / n : NaN;
}
