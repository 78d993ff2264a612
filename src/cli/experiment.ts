// Experiments on the command line and on array schedulers (one cell per task):
//   npm run experiment -- --spec exp.json --list [--json]          cell count (or the JSON array of indices)
//   npm run experiment -- --spec exp.json --index I [--out-dir D]  train cell I → D/cell-0000I.jsonl
//     (--index defaults to $SLURM_ARRAY_TASK_ID or $JOB_COMPLETION_INDEX)
//   npm run experiment -- --spec exp.json --all --out bundle.json  every cell → bundle, on --jobs N jobs:
//     this thread and N − 1 worker threads (default: every core; the same frames bit for bit for any N)
//     (--ensemble: each variant's seeds trained together as one ensemble, one graph call per phase)
//   npm run experiment -- merge DIR --out bundle.json [--partial]  cell logs → bundle (the lab imports it)
//   npm run experiment -- record DIR --out public/experiments/results/NAME.json [--base F]  cell logs → the record the
//     lessons' numbers over seeds are derived from (only the metrics their rules read; docs/experiments.md)
//   npm run experiment -- report bundle.json --metric M [--a 0 --b 1 --from S --to S --lower-is-better]
//   npm run experiment -- reproduce bundle.json [--index I] [--jobs N]  re-train cells, compare bit for bit
// Options: --task-file SPEC.json (a custom task for every cell), --engine wasm|tabular, --pretrain-steps N, --pretrain-lr X, --base FILE, --trace, --quiet.
// Exit codes (src/cli/exit-codes.ts): 0 ok, 1 error, 2 usage, 3 a cell stopped at a non-finite metric.
import { errorText } from '../core/unknown';
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { bundleToJson, mergeCells, parseBundle, runIndex, type BundleRun } from '../core/experiment/bundle';
import type { FrameDifference } from '../core/experiment/frame-difference';
import { reproduceCheck } from '../core/experiment/reproduce';
import { pairedFromBundle, pairsText } from '../core/experiment/compare';
import { intervalText } from '../core/experiment/stats';
import { cellGroups, workerCount } from '../core/experiment/jobs';
import { cellCount, experimentCell, parseExperimentSpec, type ExperimentSpec } from '../core/experiment/spec';
import { UsageError, arrayIndex, baseFlags, parseCommandLine, usageOf, wholeNumber } from './args';
import { codeVersion } from './code-version';
import type { EngineKind } from './engine-setup';
import { readCellLogs } from './cell-logs';
import { trainOnJobs } from './experiment-jobs';
import { recordCells } from './experiment-record';
import { cellFile, trainCell, type TrainReport, type TrainSettings } from './experiment-train';
import { EXIT_ERROR, EXIT_NON_FINITE, EXIT_USAGE } from './exit-codes';
import { jsonText, parseFile, readJsonFile, writeTextFile } from './files';
import { readTaskFile } from './task-args';

const parsed = parseCommandLine(
  {
    spec: { type: 'string' }, index: { type: 'string' }, list: { type: 'boolean' }, json: { type: 'boolean' }, all: { type: 'boolean' }, ensemble: { type: 'boolean' },
    out: { type: 'string' }, 'out-dir': { type: 'string' }, partial: { type: 'boolean' },
    metric: { type: 'string' }, a: { type: 'string' }, b: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, 'lower-is-better': { type: 'boolean' },
    'task-file': { type: 'string' }, engine: { type: 'string', default: 'wasm' }, 'pretrain-steps': { type: 'string' }, 'pretrain-lr': { type: 'string' }, base: { type: 'string' },
    jobs: { type: 'string' }, trace: { type: 'boolean' }, quiet: { type: 'boolean' },
  },
  usageOf(import.meta.url, 16),
);
if ('exit' in parsed) process.exit(parsed.exit);
const { values: opt, positionals } = parsed;

const info = (s: string) => opt.quiet || process.stderr.write(s + '\n');

const int = (name: string, text: string | undefined) => wholeNumber(`--${name}`, text);

function engineKind(): EngineKind {
  if (opt.engine !== 'wasm' && opt.engine !== 'tabular') throw new UsageError('--engine must be wasm or tabular');
  return opt.engine;
}

function readSpec(): ExperimentSpec {
  if (!opt.spec) throw new UsageError('--spec FILE is required');
  // --task-file: every cell trains that custom task (the spec's base gets its text)
  const withTask = (x: unknown) => (opt['task-file'] !== undefined && x !== null && typeof x === 'object' ? { ...x, base: { ...(x as { base?: object }).base, taskSpec: readTaskFile(opt['task-file']) } } : x);
  return parseFile(opt.spec, '--spec', readJsonFile, (x) => parseExperimentSpec(withTask(x)));
}

/** Progress of the cells in training (one line on a terminal: every active cell's step). */
class Progress {
  private readonly active = new Map<number, { step: number; steps: number }>();
  private readonly t0 = performance.now();
  private steps = 0;
  readonly tty = !opt.quiet && process.stderr.isTTY; // no progress lines in scheduler logs

  readonly report: TrainReport = {
    info: (line) => {
      if (opt.quiet) return;
      if (this.tty && this.active.size) process.stderr.write('\n');
      process.stderr.write(line + '\n');
    },
    step: (cell, step, steps) => {
      this.steps++;
      if (step >= steps) this.active.delete(cell);
      else this.active.set(cell, { step, steps });
      this.draw();
    },
  };

  private draw(): void {
    if (!this.tty) return;
    const rate = this.steps / ((performance.now() - this.t0) / 1000);
    const cells = [...this.active].map(([c, p]) => `cell ${c} ${p.step}/${p.steps}`).join(' · ');
    process.stderr.write(`\r\x1b[K${cells}${cells ? '  ' : ''}${rate.toFixed(2)} steps/s`);
  }

  end(): void {
    if (this.tty) process.stderr.write('\n');
  }
}

const baseOptions = () => baseFlags(opt);

/** What every cell trains with (the worker threads get it too). */
function settings(spec: ExperimentSpec, codeVersion: string, outDir?: string): TrainSettings {
  return { spec, codeVersion, engine: engineKind(), base: baseOptions(), trace: opt.trace === true, quiet: opt.quiet === true, ...(outDir ? { outDir } : {}) };
}

/**
 * Train `cells` on --jobs jobs (default: every core; this thread and worker threads) and print each cell's summary line
 * in cell order. --ensemble: a variant's seeds train together, split in halves while there are fewer
 * groups than workers (a member's frames do not depend on its population: src/core/experiment/jobs.ts).
 */
async function trainCells(s: TrainSettings, cells: number[], together: boolean): Promise<BundleRun[]> {
  const planned = cells.map((i) => experimentCell(s.spec, i));
  const requested = int('jobs', opt.jobs);
  if (requested === 0) throw new UsageError('--jobs must be at least 1');
  const wanted = workerCount(requested, availableParallelism(), cells.length);
  const groups = together ? cellGroups(planned, wanted) : cells.map((i) => [i]);
  const jobs = workerCount(wanted, wanted, groups.length);
  const progress = new Progress();
  info(`training ${cells.length} cell(s) in ${groups.length} group(s) on ${jobs} job${jobs > 1 ? `s (this thread and ${jobs - 1} worker thread${jobs > 2 ? 's' : ''})` : ' (this thread)'}`);
  const t0 = performance.now();
  const out = await trainOnJobs(s, groups, together, jobs, progress.report, (done) => {
    for (const c of done) console.log(c.summary);
  });
  progress.end();
  const list = (xs: number[], unit: string, digits: number) => xs.map((x) => `${x.toFixed(digits)} ${unit}`).join(', ');
  // CPU: each job's own thread (the first: this one), and the whole process (V8's compile threads, which the jobs share, too)
  const idle = jobs > 1 ? `; idle at the end per worker ${list(out.idleAtEndSeconds, 's', 1)}` : '';
  info(`${cells.length} cell(s) in ${((performance.now() - t0) / 1000).toFixed(1)} s on ${jobs} worker(s); peak RSS ${out.peakRssMb.toFixed(0)} MB; CPU per worker ${list(out.cpuSeconds, 's', 1)} (their own threads; this process ${out.processCpuSeconds.toFixed(1)} s in all)${idle}`);
  return out.cells.map((c) => c.run);
}

async function main(): Promise<number> {
  const [command, target] = positionals;
  if (command === 'merge') return merge(target);
  if (command === 'record') return record(target);
  if (command === 'report') return report(target);
  if (command === 'reproduce') return reproduce(target);
  if (command !== undefined) throw new UsageError(`unknown command ${command} (merge, record, report, reproduce, or options only)`);

  const spec = readSpec();
  if (opt.list) {
    console.log(opt.json ? JSON.stringify(Array.from({ length: cellCount(spec) }, (_, i) => i)) : String(cellCount(spec)));
    return 0;
  }
  const version = codeVersion();
  if (opt.ensemble && !opt.all) throw new UsageError('--ensemble trains each variant\'s seeds together: use it with --all');
  if (opt.jobs !== undefined && !opt.all) throw new UsageError('--jobs trains several cells at once: use it with --all (or reproduce)');
  if (opt.all) {
    if (opt['out-dir']) mkdirSync(opt['out-dir'], { recursive: true });
    const runs = await trainCells(settings(spec, version, opt['out-dir']), Array.from({ length: cellCount(spec) }, (_, i) => i), opt.ensemble === true);
    if (opt.out) writeTextFile(opt.out, bundleToJson(mergeCells(spec, runs, version)));
    return runs.some((r) => r.stoppedBy) ? EXIT_NON_FINITE : 0;
  }
  const cell = experimentCell(spec, arrayIndex(opt.index, process.env));
  const dir = opt['out-dir'] ?? 'cells';
  const file = opt.out ?? cellFile(dir, cell.index);
  if (!opt.out) mkdirSync(dir, { recursive: true });
  const progress = new Progress();
  const { run, summary } = await trainCell(settings(spec, version), cell, progress.report, file);
  progress.end();
  console.log(summary);
  return run.stoppedBy ? EXIT_NON_FINITE : 0;
}

function merge(dir: string | undefined): number {
  if (!dir || !opt.out) throw new UsageError('merge DIR --out bundle.json');
  const cells = readCellLogs(dir, 'merge');
  const spec = cells[0].spec;
  const versions = [...new Set(cells.map((c) => c.codeVersion))];
  if (versions.length > 1) info(`merge: warning: cells come from several code versions (${versions.join(', ')})`);
  const bundle = mergeCells(spec, cells.map((c) => c.run), versions.join(' + '), { partial: opt.partial });
  writeTextFile(opt.out, bundleToJson(bundle));
  info(`merged ${cells.length} cell(s) of ${cellCount(spec)} into ${opt.out}`);
  return 0;
}

function record(dir: string | undefined): number {
  if (!dir || !opt.out) throw new UsageError('record DIR --out public/experiments/results/NAME.json [--base FILE: the base the cells trained from]');
  const r = recordCells(readCellLogs(dir, 'record'), opt.out, opt.base);
  writeTextFile(opt.out, r.text);
  info(`recorded ${r.metrics.length} metric(s) of ${r.runs} run(s) of ${r.spec} into ${opt.out}`);
  return 0;
}

function report(file: string | undefined): number {
  if (!file || !opt.metric) throw new UsageError('report BUNDLE --metric NAME [--a V --b V --from S --to S --lower-is-better]');
  const bundle = parseFile(file, 'file', readJsonFile, parseBundle);
  const a = int('a', opt.a) ?? 0;
  const b = int('b', opt.b) ?? 1;
  const r = pairedFromBundle(bundle, opt.metric, a, b, { from: int('from', opt.from), to: int('to', opt.to), higherIsBetter: !opt['lower-is-better'] });
  console.log(JSON.stringify(r, null, 1));
  info(`${opt.metric}, steps ${r.from}–${r.to}: ${pairsText(r)}. B (${r.labelB}) vs A (${r.labelA}): ${r.favourB}/${r.n} pairs favour B (ties ${r.ties}), sign test p = ${r.signTestP.toPrecision(3)}, mean paired difference ${r.meanDiff.toFixed(4)}, ${intervalText(r, (v) => v.toFixed(4))}`);
  return 0;
}

/** A value of a frame for a one-line message (a long series cut). */
const shown = (v: unknown): string => {
  const s = jsonText(v);
  return s.length > 120 ? `${s.slice(0, 117)}…` : s;
};

/** What differs, where: the cell (its variant and seed), the step, the metric, both values. */
function notReproducedText(spec: ExperimentSpec, d: FrameDifference & { cell: number }, why?: string): string {
  const cell = experimentCell(spec, d.cell);
  return `NOT reproduced: cell ${d.cell} (variant ${spec.variants[cell.variant].name}, seed ${cell.seed}), step ${d.step}, ${d.key}: the bundle has ${shown(d.expected)}, the re-run gave ${shown(d.got)}`
    + (why ? ` (the bundle says why: ${why})` : ' (the bundle\'s frame is not what this code trains from its seed: an edited file, or another code version)');
}

async function reproduce(file: string | undefined): Promise<number> {
  if (!file) throw new UsageError('reproduce BUNDLE [--index I]');
  const bundle = parseFile(file, 'file', readJsonFile, parseBundle);
  const only = int('index', opt.index);
  const stored = new Set(bundle.runs.map((r) => runIndex(bundle.spec, r)));
  const cells = Array.from({ length: cellCount(bundle.spec) }, (_, i) => i).filter((i) => (only === undefined || i === only) && stored.has(i));
  if (cells.length === 0) throw new Error(`reproduce: ${only === undefined ? 'the bundle stores no cell' : `cell ${only} is not stored in the bundle (stored: ${[...stored].sort((x, y) => x - y).join(', ') || 'none'})`}`);
  const reruns = await trainCells(settings(bundle.spec, codeVersion()), cells, false);
  const r = reproduceCheck(bundle, reruns);
  console.log(JSON.stringify(r));
  if (r.identical) info(`reproduced: ${r.cells} cell(s) identical bit for bit`);
  else process.stderr.write(`${notReproducedText(bundle.spec, r.first!, r.why)}\n`); // the verdict of exit 1: said even with --quiet
  if (r.otherEngine.length) info(`cells ${r.otherEngine.join(', ')} ran on another engine than stored: bit-for-bit equality is not expected there`);
  return r.identical ? 0 : EXIT_ERROR;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`${errorText(e)}\n`);
    process.exitCode = e instanceof UsageError ? EXIT_USAGE : EXIT_ERROR;
  },
);
