/**
 * The paired-comparison panel's numbers: the open experiment's frames as a bundle, handed to the
 * core's pairedFromBundle (the same call as the CLI's report: window means per seed, sign test,
 * bootstrap CI). Nothing is computed here but the inputs.
 */
import { makeBundle } from '../../core/experiment/bundle';
import { pairedFromBundle, type BundlePairs } from '../../core/experiment/compare';
import { experimentCells, type ExperimentSpec } from '../../core/experiment/spec';
import type { MetricsFrame } from '../../core/metrics';

export interface PairedQuery {
  metric: string;
  a: number;
  b: number;
  from: number;
  to: number;
  higherIsBetter: boolean;
}

export interface PairedTable {
  pairs: BundlePairs | null;
  /** Why there is no result (same variant twice, an empty window, no data). */
  problem: string;
}

export function pairedTable(spec: ExperimentSpec, frames: readonly (readonly MetricsFrame[])[], q: PairedQuery): PairedTable {
  if (q.a === q.b) return { pairs: null, problem: 'choose two different variants' };
  const runs = experimentCells(spec).map((c) => ({ variant: c.variant, seed: c.seed, config: c.config, timeline: [], frames: [...(frames[c.index] ?? [])] }));
  try {
    return { pairs: pairedFromBundle(makeBundle(spec, runs, ''), q.metric, q.a, q.b, { from: q.from, to: q.to, higherIsBetter: q.higherIsBetter }), problem: '' };
  } catch (e) {
    return { pairs: null, problem: e instanceof Error ? e.message : String(e) };
  }
}
