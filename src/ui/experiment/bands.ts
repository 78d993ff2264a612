/**
 * Seed bands for the experiment charts (pure): per variant and step, the median over seeds and a
 * band (core `seedBand`: IQR for ≥ 5 seeds, min-max below), plus each seed's own curve for hover
 * and selection. Colours are fixed per variant index.
 */
import type { ExperimentSpec } from '../../core/experiment/spec';
import { variantLabel } from '../../core/experiment/spec';
import { seedBand } from '../../core/experiment/stats';
import { scalarAt, type MetricsFrame } from '../../core/metrics';

/** Distinct, colour-blind-safe hues (Okabe–Ito order, darkened for a projector). */
export const VARIANT_COLORS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#8a6d00', '#56b4e9', '#6a3d9a', '#444444'];
export const variantColor = (v: number) => VARIANT_COLORS[v % VARIANT_COLORS.length];

export interface BandPoint {
  step: number;
  median: number;
  lo: number;
  hi: number;
  n: number;
}

export interface SeedCurve {
  cell: number;
  seed: number;
  points: { step: number; value: number }[];
}

export interface VariantBand {
  variant: number;
  name: string;
  /** The settings that differ from the other variants, e.g. "clipHigh = 0.2". */
  label: string;
  color: string;
  kind: 'iqr' | 'minmax';
  seeds: number;
  points: BandPoint[];
  curves: SeedCurve[];
}

/** Cell index of (variant, seed index): the spec's contract. */
export const cellIndex = (spec: ExperimentSpec, variant: number, seedIndex: number) => variant * spec.seeds.length + seedIndex;

export function variantBands(spec: ExperimentSpec, frames: readonly (readonly MetricsFrame[])[], metric: string): VariantBand[] {
  return spec.variants.map((v, vi) => {
    const curves: SeedCurve[] = spec.seeds.map((seed, si) => {
      const cell = cellIndex(spec, vi, si);
      const points = (frames[cell] ?? []).flatMap((f) => (scalarAt(f.scalars, metric) === undefined ? [] : [{ step: f.step, value: scalarAt(f.scalars, metric)! }]));
      return { cell, seed, points };
    });
    const bySteps = new Map<number, number[]>();
    for (const c of curves) for (const p of c.points) bySteps.set(p.step, [...(bySteps.get(p.step) ?? []), p.value]);
    const points = [...bySteps.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([step, values]) => {
        const b = seedBand(values);
        return { step, median: b.median, lo: b.lo, hi: b.hi, n: b.n };
      })
      .filter((p) => Number.isFinite(p.median));
    const kind = seedBand(spec.seeds.map(() => 0)).kind;
    return { variant: vi, name: v.name, label: variantLabel(spec, vi), color: variantColor(vi), kind, seeds: spec.seeds.length, points, curves };
  });
}

/** Scalar metric names present in the frames (sorted), for the metric pickers. */
export function scalarNames(frames: readonly (readonly MetricsFrame[])[]): string[] {
  const names = new Set<string>();
  for (const fs of frames) {
    const f = fs[fs.length - 1];
    if (f) for (const k of Object.keys(f.scalars)) names.add(k);
  }
  return [...names].sort();
}
