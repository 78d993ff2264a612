// Train one experiment cell from step 0 on an engine that holds the base weights: the same Run as
// the lab and the CLI, stopping at the first non-finite metric (as the worker pauses).
import type { PolicyEngine } from '../engine';
import { Run } from '../loop';
import { nonFinite, type MetricsFrame } from '../metrics';
import type { BundleRun } from './bundle';
import type { ExperimentCell } from './spec';

export interface CellOptions {
  /** Keep each frame's per-sample trace (large; off by default). */
  trace?: boolean;
  onFrame?: (frame: MetricsFrame) => void;
}

export async function runCell(engine: PolicyEngine, cell: ExperimentCell, opts: CellOptions = {}): Promise<BundleRun> {
  const run = await Run.create(engine, cell.config);
  const frames: MetricsFrame[] = [];
  let stoppedBy: string | undefined;
  try {
    for (let s = 0; s < cell.config.steps; s++) {
      const f = await run.step();
      const frame = opts.trace ? f : { ...f, trace: [] };
      frames.push(frame);
      opts.onFrame?.(frame);
      const bad = nonFinite(f);
      if (bad) {
        stoppedBy = `non-finite metric ${bad} at step ${f.step}`;
        break;
      }
    }
  } finally {
    run.dispose();
  }
  const out: BundleRun = { variant: cell.variant, seed: cell.seed, config: cell.config, timeline: run.timeline.map((t) => ({ ...t })), frames, engine: engine.backend };
  if (stoppedBy) out.stoppedBy = stoppedBy;
  return out;
}
