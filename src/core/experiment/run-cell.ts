// Train one experiment cell from step 0 on an engine that holds the base weights: the same Run as
// the lab and the CLI, stopping at the first non-finite metric (as the worker pauses). Or train
// several cells together as one ensemble on a population engine (one graph call per phase for all
// members): member p's run is exactly runCell's for cells[p].
import { Ensemble } from '../ensemble';
import type { PolicyEngine } from '../engine';
import { Run } from '../loop';
import type { PopulationEngine } from '../population';
import { nonFinite, type MetricsFrame } from '../metrics';
import type { BundleRun } from './bundle';
import type { ExperimentCell } from './spec';

export interface CellOptions {
  /** Keep each frame's per-sample trace (large; off by default). */
  trace?: boolean;
  onFrame?: (frame: MetricsFrame) => void;
  /**
   * Awaited after every step: a caller whose thread must also serve events while it trains (the
   * `--jobs` main thread: its worker threads' progress and results) yields to them here; a step's
   * own awaits are microtasks only, so without it no event is handled until the run ends.
   */
  afterStep?: () => Promise<void>;
}

/** The frames of one cell as they come; `stoppedBy` once a metric is non-finite. */
class CellRecord {
  readonly frames: MetricsFrame[] = [];
  stoppedBy: string | undefined;
  constructor(
    readonly cell: ExperimentCell,
    private readonly opts: CellOptions,
  ) {}

  get running(): boolean {
    return !this.stoppedBy && this.frames.length < this.cell.config.steps;
  }

  add(f: MetricsFrame): void {
    const frame = this.opts.trace ? f : { ...f, trace: [] };
    this.frames.push(frame);
    this.opts.onFrame?.(frame);
    const bad = nonFinite(f);
    if (bad) this.stoppedBy = `non-finite metric ${bad} at step ${f.step}`;
  }

  result(run: Run, backend: string): BundleRun {
    const c = this.cell;
    const out: BundleRun = { variant: c.variant, seed: c.seed, config: c.config, timeline: run.timeline.map((t) => ({ ...t })), frames: this.frames, base: { ...run.baseScalars } as Record<string, number>, engine: backend };
    if (this.stoppedBy) out.stoppedBy = this.stoppedBy;
    return out;
  }
}

export async function runCell(engine: PolicyEngine, cell: ExperimentCell, opts: CellOptions = {}): Promise<BundleRun> {
  const run = await Run.create(engine, cell.config);
  const rec = new CellRecord(cell, opts);
  try {
    while (rec.running) {
      rec.add(await run.step());
      await opts.afterStep?.();
    }
  } finally {
    run.dispose();
  }
  return rec.result(run, engine.backend);
}

/**
 * Train cells together on a population engine of cells.length members that holds each member's
 * base weights. A member stops alone (its steps done, or a non-finite metric); the others go on.
 */
export async function runCellsTogether(engine: PopulationEngine, cells: readonly ExperimentCell[], opts: (member: number) => CellOptions = () => ({})): Promise<BundleRun[]> {
  const ensemble = await Ensemble.create(engine, cells.map((c) => c.config));
  const recs = cells.map((c, p) => new CellRecord(c, opts(p)));
  const afterStep = opts(0).afterStep; // once per population step: member 0's hook
  try {
    for (;;) {
      const active = recs.flatMap((r, p) => (r.running ? [p] : []));
      if (active.length === 0) break;
      const frames = await ensemble.step(active);
      for (const p of active) recs[p].add(frames[p]!);
      await afterStep?.();
    }
  } finally {
    for (const r of ensemble.members) r.dispose();
  }
  return recs.map((r, p) => r.result(ensemble.members[p], engine.backend));
}
