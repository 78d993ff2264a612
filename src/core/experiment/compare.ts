// The paired comparison of two variants of a bundle on one metric over a step window: per seed, the
// window mean of variant A and of variant B (same seed: same init, same environment stream). Only
// pairs whose two runs both cover the whole window count: a run that diverged or stopped early is
// left out with the reason (never averaged over the steps it has as if it were a full pair). The
// lab's panel and the CLI's report both call this.
import type { BundleRun, ExperimentBundle } from './bundle';
import { variantLabel } from './spec';
import { pairedComparison, windowMean, type PairedComparison, type PairedOptions } from './stats';
import { scalarAt } from '../metrics';

export interface BundlePairs extends PairedComparison {
  metric: string;
  variantA: number;
  variantB: number;
  labelA: string;
  labelB: string;
  /** The window every counted pair covers (each of its runs has a frame at every step of it). */
  from: number;
  to: number;
  /** Pairs the spec has (its seeds); `n` of them count. */
  total: number;
  /** Seeds paired, in spec order, with their window means. */
  seeds: number[];
  valuesA: number[];
  valuesB: number[];
  /** Seeds left out: a run is missing, stopped or diverged before the window's end, or has no finite value in it. */
  skipped: { seed: number; reason: string }[];
}

/**
 * Why `run` does not cover steps from..to for `metric` (null: it does): it must have a frame at
 * every step of the window, a finite value wherever the metric is present, and the metric somewhere.
 */
export function windowGap(run: Pick<BundleRun, 'frames' | 'stoppedBy'>, metric: string, from: number, to: number): string | null {
  const inWindow = run.frames.filter((f) => f.step >= from && f.step <= to);
  const last = run.frames.at(-1)?.step ?? 0;
  const why = run.stoppedBy ? ` (${run.stoppedBy})` : '';
  if (last < to) return last ? `its run ends at step ${last}${why}` : `its run has no frames${why}`;
  const have = new Set(inWindow.map((f) => f.step));
  for (let s = from; s <= to; s++) if (!have.has(s)) return `its run has no frame at step ${s}`;
  const bad = inWindow.find((f) => { const v = scalarAt(f.scalars, metric); return v !== undefined && !Number.isFinite(v); });
  if (bad) return `its run diverged: ${metric} = ${scalarAt(bad.scalars, metric)} at step ${bad.step}`;
  if (!inWindow.some((f) => scalarAt(f.scalars, metric) !== undefined)) return `its run has no ${metric} in steps ${from}–${to}`;
  return null;
}

/** Every scalar name some frame of the bundle holds. */
function metricNames(bundle: ExperimentBundle): Set<string> {
  const names = new Set<string>();
  for (const r of bundle.runs) for (const f of r.frames) for (const k of Object.keys(f.scalars)) names.add(k);
  return names;
}

export function pairedFromBundle(bundle: ExperimentBundle, metric: string, a: number, b: number, opts: PairedOptions & { from?: number; to?: number } = {}): BundlePairs {
  const { spec } = bundle;
  for (const v of [a, b]) if (!spec.variants[v]) throw new RangeError(`variant ${v} is outside 0..${spec.variants.length - 1}`);
  const known = metricNames(bundle);
  if (known.size > 0 && !known.has(metric)) {
    const some = [...known].sort().slice(0, 8);
    throw new RangeError(`no metric ${JSON.stringify(metric)} in the bundle's frames (they hold ${some.join(', ')}${known.size > some.length ? `, … ${known.size - some.length} more` : ''})`);
  }
  const from = opts.from ?? 1;
  const to = opts.to ?? spec.steps;
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to > spec.steps || from > to) throw new RangeError(`step window ${from}–${to} is not inside the spec's steps 1–${spec.steps}`);
  const seeds: number[] = [];
  const valuesA: number[] = [];
  const valuesB: number[] = [];
  const skipped: { seed: number; reason: string }[] = [];
  for (const seed of spec.seeds) {
    const runs = [a, b].map((v) => bundle.runs.find((r) => r.variant === v && r.seed === seed));
    const gap = runs.flatMap((r, i) => {
      const why = r ? windowGap(r, metric, from, to) : 'no run';
      return why ? [`${i ? 'B' : 'A'}: ${why.replace(/^its run /, '')}`] : [];
    });
    if (gap.length) {
      skipped.push({ seed, reason: gap.join('; ') });
      continue;
    }
    seeds.push(seed);
    valuesA.push(windowMean(runs[0]!.frames, metric, from, to));
    valuesB.push(windowMean(runs[1]!.frames, metric, from, to));
  }
  if (seeds.length === 0) throw new RangeError(`no pair covers steps ${from}–${to} of ${metric} (${skipped.map((s) => `seed ${s.seed}: ${s.reason}`).join('; ')})`);
  return { ...pairedComparison(valuesA, valuesB, opts), metric, variantA: a, variantB: b, labelA: variantLabel(spec, a), labelB: variantLabel(spec, b), from, to, total: spec.seeds.length, seeds, valuesA, valuesB, skipped };
}

/** "6 of 8 pairs cover steps 1–12 (left out: seed 3: B: ends at step 2 (…))": the reader sees what counts. */
export function pairsText(r: BundlePairs): string {
  const left = r.skipped.length ? ` (left out: ${r.skipped.map((s) => `seed ${s.seed}: ${s.reason}`).join('; ')})` : '';
  return `${r.n} of ${r.total} pair${r.total === 1 ? '' : 's'} cover steps ${r.from}–${r.to}${left}`;
}
