// The paired comparison of two variants of a bundle on one metric over a step window: per seed, the
// window mean of variant A and of variant B (same seed: same init, same environment stream). The
// lab's panel and the CLI's report both call this.
import type { ExperimentBundle } from './bundle';
import { variantLabel } from './spec';
import { pairedComparison, windowMean, type PairedComparison, type PairedOptions } from './stats';

export interface BundlePairs extends PairedComparison {
  metric: string;
  variantA: number;
  variantB: number;
  labelA: string;
  labelB: string;
  from: number;
  to: number;
  /** Seeds paired, in spec order, with their window means. */
  seeds: number[];
  valuesA: number[];
  valuesB: number[];
  /** Seeds left out: a run is missing, or has no finite value in the window. */
  skipped: { seed: number; reason: string }[];
}

export function pairedFromBundle(bundle: ExperimentBundle, metric: string, a: number, b: number, opts: PairedOptions & { from?: number; to?: number } = {}): BundlePairs {
  const { spec } = bundle;
  for (const v of [a, b]) if (!spec.variants[v]) throw new RangeError(`variant ${v} is outside 0..${spec.variants.length - 1}`);
  const from = opts.from ?? 1;
  const to = opts.to ?? spec.steps;
  if (from > to) throw new RangeError(`empty step window ${from}..${to}`);
  const seeds: number[] = [];
  const valuesA: number[] = [];
  const valuesB: number[] = [];
  const skipped: { seed: number; reason: string }[] = [];
  for (const seed of spec.seeds) {
    const ra = bundle.runs.find((r) => r.variant === a && r.seed === seed);
    const rb = bundle.runs.find((r) => r.variant === b && r.seed === seed);
    if (!ra || !rb) {
      skipped.push({ seed, reason: `no run of variant ${!ra ? a : b}` });
      continue;
    }
    const x = windowMean(ra.frames, metric, from, to);
    const y = windowMean(rb.frames, metric, from, to);
    if (!Number.isFinite(x) || !Number.isFinite(y)) {
      skipped.push({ seed, reason: `no finite ${metric} in steps ${from}..${to} (A ${x}, B ${y})` });
      continue;
    }
    seeds.push(seed);
    valuesA.push(x);
    valuesB.push(y);
  }
  if (seeds.length === 0) throw new RangeError(`no seed has ${metric} in steps ${from}..${to} for both variants (${skipped.map((s) => `seed ${s.seed}: ${s.reason}`).join('; ')})`);
  return { ...pairedComparison(valuesA, valuesB, opts), metric, variantA: a, variantB: b, labelA: variantLabel(spec, a), labelB: variantLabel(spec, b), from, to, seeds, valuesA, valuesB, skipped };
}
