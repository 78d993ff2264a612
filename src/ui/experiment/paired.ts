/**
 * The paired-comparison panel's numbers: the open experiment's frames as a bundle, handed to the
 * core's pairedFromBundle (the same call as the CLI's report: window means per seed over the pairs
 * that cover the window, sign test, bootstrap CI). Nothing is computed here but the inputs. While
 * cells still train, a window left open ends at the step every training cell has reached.
 */
import { errorText } from '../../core/unknown';
import { makeBundle } from '../../core/experiment/bundle';
import { pairedFromBundle, type BundlePairs } from '../../core/experiment/compare';
import { experimentCells, type ExperimentSpec } from '../../core/experiment/spec';
import type { MetricsFrame } from '../../core/metrics';

export interface PairedQuery {
  metric: string;
  a: number;
  b: number;
  from: number;
  /** null: the spec's last step (or, while cells train, the step they have all reached). */
  to: number | null;
  higherIsBetter: boolean;
}

export interface PairedTable {
  pairs: BundlePairs | null;
  /** Why there is no result (same variant twice, an empty window, no data). */
  problem: string;
  /** The window ends where training has got to (cells still train). */
  soFar: boolean;
}

/** `stoppedBy[i]`: why cell i ended ('done', or a stop/divergence message); undefined while it trains. */
export function pairedTable(spec: ExperimentSpec, frames: readonly (readonly MetricsFrame[])[], q: PairedQuery, stoppedBy: readonly (string | undefined)[] = []): PairedTable {
  if (q.a === q.b) return { pairs: null, problem: 'choose two different variants', soFar: false };
  const cells = experimentCells(spec);
  const runs = cells.map((c) => {
    const why = stoppedBy[c.index];
    return { variant: c.variant, seed: c.seed, config: c.config, timeline: [], frames: [...(frames[c.index] ?? [])], ...(why && why !== 'done' ? { stoppedBy: why } : {}) };
  });
  const training = cells.filter((c) => stoppedBy[c.index] === undefined && (frames[c.index]?.at(-1)?.step ?? 0) < spec.steps);
  const reached = Math.min(spec.steps, ...training.map((c) => frames[c.index]?.at(-1)?.step ?? 0));
  const soFar = q.to === null && training.length > 0;
  const to = q.to ?? (soFar ? Math.max(q.from, reached) : spec.steps);
  // at the start every seed lacks frames alike: one waiting line, not "A: has no frames; B: …" per seed
  const furthest = Math.max(0, ...cells.map((c) => frames[c.index]?.at(-1)?.step ?? 0));
  if (training.length > 0 && furthest < q.from) return { pairs: null, problem: `waiting for the cells to reach step ${q.from} (they are at step ${furthest})`, soFar };
  try {
    return { pairs: pairedFromBundle(makeBundle(spec, runs, ''), q.metric, q.a, q.b, { from: q.from, to, higherIsBetter: q.higherIsBetter }), problem: '', soFar };
  } catch (e) {
    return { pairs: null, problem: errorText(e), soFar };
  }
}
