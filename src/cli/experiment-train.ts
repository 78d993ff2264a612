// Training experiment cells in this process (`npm run experiment`, and each of its --jobs worker
// threads, experiment-worker.ts): a cell on an engine in a fresh engine's state (the process's,
// reused from cell to cell: engine-reuse.ts), or a group of cells (a variant's seeds) together on
// one population engine; its JSONL cell log written as it trains, its summary line.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BundleRun } from '../core/experiment/bundle';
import { endLine, frameLine, headerLine } from '../core/experiment/cell-log';
import { runCell, runCellsTogether } from '../core/experiment/run-cell';
import { cellCount, experimentCell, variantLabel, type ExperimentCell, type ExperimentSpec } from '../core/experiment/spec';
import { scalarAt, type MetricsFrame } from '../core/metrics';
import { EngineReuse } from './engine-reuse';
import { createCliPopulation, loadBase, type BaseOptions, type EngineKind } from './engine-setup';
import { appendTextFile, jsonText, writeTextFile } from './files';

/** What every cell of one `npm run experiment` trains with (plain data: it goes to worker threads). */
export interface TrainSettings {
  spec: ExperimentSpec;
  codeVersion: string;
  engine: EngineKind;
  base: BaseOptions;
  trace: boolean;
  quiet: boolean;
  /** Cell logs go to OUT-DIR/cell-0000I.jsonl. */
  outDir?: string;
}

/** Where training reports to: info lines and steps (progress). */
export interface TrainReport {
  info(line: string): void;
  step(cell: number, step: number, steps: number): void;
  /** Awaited after every training step (CellOptions.afterStep). */
  afterStep?: () => Promise<void>;
}

/** A trained cell: its run and its summary line (JSON). */
export interface TrainedCell {
  run: BundleRun;
  summary: string;
}

/** CPU time (user + system) this process has used so far, seconds. */
export const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/**
 * CPU time (user + system) of the calling thread so far, seconds: a worker thread's own share, which
 * process.cpuUsage (the whole process) cannot give on Node 20. Linux only (/proc/thread-self, in
 * clock ticks of 10 ms); NaN elsewhere.
 */
export function threadCpuSeconds(): number {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // after "pid (name) ": state is field 3
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime: fields 14 and 15
  } catch {
    return NaN;
  }
}

export const cellFile = (dir: string, index: number) => join(dir, `cell-${String(index).padStart(5, '0')}.jsonl`);

/** Writes a cell's JSONL as it trains and makes its summary line at the end. */
class CellOutput {
  private readonly t0 = performance.now();
  constructor(
    private readonly s: TrainSettings,
    private readonly cell: ExperimentCell,
    private readonly file: string | undefined,
    engine: string,
    private readonly report: TrainReport,
  ) {
    if (file) writeTextFile(file, headerLine({ codeVersion: s.codeVersion, engine, index: cell.index, variant: cell.variant, seed: cell.seed, spec: s.spec, config: cell.config }) + '\n', 'cell log');
  }

  readonly onFrame = (f: MetricsFrame): void => {
    if (this.file) appendTextFile(this.file, frameLine(f) + '\n', 'cell log');
    this.report.step(this.cell.index, f.step, this.cell.config.steps);
  };

  finish(run: BundleRun): TrainedCell {
    const { s, cell, file } = this;
    const wallSeconds = (performance.now() - this.t0) / 1000;
    if (file) appendTextFile(file, endLine({ stepsTaken: run.frames.length, stoppedBy: run.stoppedBy, timeline: run.timeline, base: run.base, wallSeconds }) + '\n', 'cell log');
    const lastFrame = run.frames.at(-1);
    const metrics = s.spec.metrics ?? Object.keys(lastFrame?.scalars ?? {}).filter((k) => /^(support\/(token_entropy|behavior_support)|esr\/effective_rate|gap\/clipfrac|train\/loss)/.test(k));
    const summary = jsonText({ cell: cell.index, variant: cell.variant, seed: cell.seed, stepsTaken: run.frames.length, stepsPlanned: cell.config.steps, stoppedBy: run.stoppedBy ?? null, wallSeconds: +wallSeconds.toFixed(2), final: Object.fromEntries(metrics.map((m) => [m, (lastFrame && scalarAt(lastFrame.scalars, m)) ?? null])) });
    if (run.stoppedBy) this.report.info(`cell ${cell.index} stopped: ${run.stoppedBy} (${run.frames.length} of ${cell.config.steps} steps taken)`);
    return { run, summary };
  }
}

/**
 * Train one cell on an engine in a fresh engine's state: `engines`' (reused from the process's
 * previous cell) when given, else one of its own; streams its JSONL to `file` when given.
 */
export async function trainCell(s: TrainSettings, cell: ExperimentCell, report: TrainReport, file = s.outDir && cellFile(s.outDir, cell.index), engines?: EngineReuse): Promise<TrainedCell> {
  const own = engines ? null : new EngineReuse();
  const engine = await (engines ?? own!).engine(s.engine, cell.config);
  try {
    const base = await loadBase(engine, s.engine, cell.config, s.base);
    report.info(`cell ${cell.index}/${cellCount(s.spec)}: ${s.spec.variants[cell.variant].name} (${variantLabel(s.spec, cell.variant)}), seed ${cell.seed}; ${engine.backend}; ${base}`);
    const out = new CellOutput(s, cell, file, engine.backend, report);
    return out.finish(await runCell(engine, cell, { trace: s.trace, onFrame: out.onFrame, afterStep: report.afterStep }));
  } finally {
    await own?.dispose();
  }
}

/**
 * `--ensemble`: cells of one variant (its seeds, or some of them) trained together on one population
 * engine. Each member's base weights are loaded as a single cell's would be, so every cell's frames
 * equal trainCell's (bit for bit on the tabular engine, within float32 noise on WASM), and a
 * member's frames do not depend on the other members.
 */
export async function trainTogether(s: TrainSettings, cells: ExperimentCell[], report: TrainReport, engines: EngineReuse): Promise<TrainedCell[]> {
  const bases: Float32Array[] = [];
  for (const cell of cells) {
    const single = await engines.engine(s.engine, cell.config);
    report.info(`cell ${cell.index}/${cellCount(s.spec)}: ${s.spec.variants[cell.variant].name} (${variantLabel(s.spec, cell.variant)}), seed ${cell.seed}; ${await loadBase(single, s.engine, cell.config, s.base)}`);
    bases.push(await single.getWeights());
  }
  const engine = await createCliPopulation(s.engine, cells[0].config, cells.length);
  try {
    report.info(`training cells ${cells.map((c) => c.index).join(', ')} of variant ${s.spec.variants[cells[0].variant].name} together (${engine.backend} population)`);
    await engine.setWeights(bases);
    const outs = cells.map((c) => new CellOutput(s, c, s.outDir && cellFile(s.outDir, c.index), engine.backend, report));
    const runs = await runCellsTogether(engine, cells, (p) => ({ trace: s.trace, onFrame: outs[p].onFrame, afterStep: report.afterStep }));
    return runs.map((r, p) => outs[p].finish(r));
  } finally {
    await engine.dispose();
  }
}

/**
 * A group of cells (indices): together on one population (`--ensemble`), else one after another;
 * single engines come from `engines` (the process's, reused across its groups).
 */
export async function trainGroup(s: TrainSettings, group: readonly number[], together: boolean, report: TrainReport, engines: EngineReuse): Promise<TrainedCell[]> {
  const cells = group.map((i) => experimentCell(s.spec, i));
  if (together) return trainTogether(s, cells, report, engines);
  const out: TrainedCell[] = [];
  for (const c of cells) out.push(await trainCell(s, c, report, undefined, engines));
  return out;
}
