/**
 * The paired-comparison table (pure): over a step window, each seed's window mean of a metric in
 * variant A and in variant B (seed i of A against seed i of B), and the core's paired statistics
 * (sign test, bootstrap CI of the mean difference). No statistics are computed here.
 */
import type { ExperimentSpec } from '../../core/experiment/spec';
import { pairedComparison, windowMean, type PairedComparison } from '../../core/experiment/stats';
import type { MetricsFrame } from '../../core/metrics';
import { cellIndex } from './bands';

export interface PairedRow {
  seed: number;
  a: number;
  b: number;
  diff: number;
}

export interface PairedTable {
  rows: PairedRow[];
  result: PairedComparison | null;
  /** Why there is no result (e.g. seeds without frames in the window). */
  problem: string;
}

export interface PairedQuery {
  metric: string;
  a: number;
  b: number;
  from: number;
  to: number;
  higherIsBetter: boolean;
}

export function pairedTable(spec: ExperimentSpec, frames: readonly (readonly MetricsFrame[])[], q: PairedQuery): PairedTable {
  if (q.a === q.b) return { rows: [], result: null, problem: 'choose two different variants' };
  if (!(q.from <= q.to)) return { rows: [], result: null, problem: `the window's first step (${q.from}) is after its last (${q.to})` };
  const rows = spec.seeds.map((seed, si) => {
    const a = windowMean(frames[cellIndex(spec, q.a, si)] ?? [], q.metric, q.from, q.to);
    const b = windowMean(frames[cellIndex(spec, q.b, si)] ?? [], q.metric, q.from, q.to);
    return { seed, a, b, diff: b - a };
  });
  const missing = rows.filter((r) => !Number.isFinite(r.a) || !Number.isFinite(r.b)).map((r) => r.seed);
  if (missing.length) return { rows, result: null, problem: `no finite ${q.metric} in steps ${q.from}–${q.to} for seed${missing.length > 1 ? 's' : ''} ${missing.join(', ')}` };
  return { rows, result: pairedComparison(rows.map((r) => r.a), rows.map((r) => r.b), { higherIsBetter: q.higherIsBetter }), problem: '' };
}
