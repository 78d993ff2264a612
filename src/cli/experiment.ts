// Experiments on the command line and on array schedulers (one cell per task):
//   npm run experiment -- --spec exp.json --list [--json]          cell count (or the JSON array of indices)
//   npm run experiment -- --spec exp.json --index I [--out-dir D]  train cell I → D/cell-0000I.jsonl
//     (--index defaults to $SLURM_ARRAY_TASK_ID or $JOB_COMPLETION_INDEX)
//   npm run experiment -- --spec exp.json --all --out bundle.json  every cell in this process → bundle
//     (--ensemble: each variant's seeds trained together as one ensemble, one graph call per phase)
//   npm run experiment -- merge DIR --out bundle.json [--partial]  cell logs → bundle (the lab imports it)
//   npm run experiment -- report bundle.json --metric M [--a 0 --b 1 --from S --to S --lower-is-better]
//   npm run experiment -- reproduce bundle.json [--index I]        re-train cells, compare bit for bit
// Options: --task-file SPEC.json (a custom task for every cell), --engine wasm|tabular, --pretrain-steps N, --pretrain-lr X, --base FILE, --trace, --quiet.
// Exit codes (src/cli/exit-codes.ts): 0 ok, 1 error, 2 usage, 3 a cell stopped at a non-finite metric.
import { scalarAt, type MetricsFrame } from '../core/metrics';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { bundleToJson, mergeCells, parseBundle, reproduceCheck, runIndex, type BundleRun, type FrameDifference } from '../core/experiment/bundle';
import { endLine, frameLine, headerLine, parseCellLog } from '../core/experiment/cell-log';
import { pairedFromBundle, pairsText } from '../core/experiment/compare';
import { intervalText } from '../core/experiment/stats';
import { runCell, runCellsTogether } from '../core/experiment/run-cell';
import { cellCount, experimentCell, parseExperimentSpec, variantLabel, type ExperimentCell, type ExperimentSpec } from '../core/experiment/spec';
import { UsageError, arrayIndex, baseFlags, parseFlags, usageOf, wholeNumber } from './args';
import { codeVersion } from './code-version';
import { createCliEngine, createCliPopulation, loadBase, type EngineKind } from './engine-setup';
import { EXIT_ERROR, EXIT_NON_FINITE, EXIT_USAGE } from './exit-codes';
import { appendTextFile, jsonText, parseFile, readJsonFile, readTextFile, writeTextFile } from './files';
import { readTaskFile } from './task-args';

const { values: opt, positionals } = (() => {
  try {
    return parseFlags(process.argv.slice(2), {
      spec: { type: 'string' }, index: { type: 'string' }, list: { type: 'boolean' }, json: { type: 'boolean' }, all: { type: 'boolean' }, ensemble: { type: 'boolean' },
      out: { type: 'string' }, 'out-dir': { type: 'string' }, partial: { type: 'boolean' },
      metric: { type: 'string' }, a: { type: 'string' }, b: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, 'lower-is-better': { type: 'boolean' },
      'task-file': { type: 'string' }, engine: { type: 'string', default: 'wasm' }, 'pretrain-steps': { type: 'string' }, 'pretrain-lr': { type: 'string' }, base: { type: 'string' },
      trace: { type: 'boolean' }, quiet: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
    }, true);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(EXIT_USAGE);
  }
})();

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

function progress(cell: ExperimentCell, step: number, t0: number): void {
  if (opt.quiet || !process.stderr.isTTY) return; // no progress lines in scheduler logs
  const w = 30;
  const done = Math.round((step / cell.config.steps) * w);
  const rate = step / ((performance.now() - t0) / 1000);
  process.stderr.write(`\rcell ${cell.index} [${'#'.repeat(done)}${'.'.repeat(w - done)}] ${step}/${cell.config.steps}  ${rate.toFixed(2)} steps/s `);
}

const baseOptions = () => baseFlags(opt);

/** Writes a cell's JSONL as it trains and prints its summary line at the end. */
class CellOutput {
  private readonly t0 = performance.now();
  constructor(
    private readonly spec: ExperimentSpec,
    private readonly cell: ExperimentCell,
    private readonly file: string | undefined,
    version: string,
    engine: string,
  ) {
    if (file) writeTextFile(file, headerLine({ codeVersion: version, engine, index: cell.index, variant: cell.variant, seed: cell.seed, spec, config: cell.config }) + '\n', 'cell log');
  }

  readonly onFrame = (f: MetricsFrame): void => {
    if (this.file) appendTextFile(this.file, frameLine(f) + '\n', 'cell log');
    progress(this.cell, f.step, this.t0);
  };

  finish(run: BundleRun): BundleRun {
    const { spec, cell, file } = this;
    const wallSeconds = (performance.now() - this.t0) / 1000;
    if (!opt.quiet && process.stderr.isTTY) process.stderr.write('\n');
    if (file) appendTextFile(file, endLine({ stepsTaken: run.frames.length, stoppedBy: run.stoppedBy, timeline: run.timeline, wallSeconds }) + '\n', 'cell log');
    const lastFrame = run.frames.at(-1);
    const metrics = spec.metrics ?? Object.keys(lastFrame?.scalars ?? {}).filter((k) => /^(support\/(token_entropy|behavior_support)|esr\/effective_rate|gap\/clipfrac|train\/loss)/.test(k));
    console.log(jsonText({ cell: cell.index, variant: cell.variant, seed: cell.seed, stepsTaken: run.frames.length, stepsPlanned: cell.config.steps, stoppedBy: run.stoppedBy ?? null, wallSeconds: +wallSeconds.toFixed(2), final: Object.fromEntries(metrics.map((m) => [m, (lastFrame && scalarAt(lastFrame.scalars, m)) ?? null])) }));
    if (run.stoppedBy) process.stderr.write(`cell ${cell.index} stopped: ${run.stoppedBy} (${run.frames.length} of ${cell.config.steps} steps taken)\n`);
    return run;
  }
}

/** Train one cell on a fresh engine; streams its JSONL to `file` when given. */
async function trainCell(spec: ExperimentSpec, cell: ExperimentCell, version: string, file?: string): Promise<BundleRun> {
  const kind = engineKind();
  const engine = await createCliEngine(kind, cell.config);
  try {
    const base = await loadBase(engine, kind, cell.config, baseOptions());
    info(`cell ${cell.index}/${cellCount(spec)}: ${spec.variants[cell.variant].name} (${variantLabel(spec, cell.variant)}), seed ${cell.seed}; ${engine.backend}; ${base}`);
    const out = new CellOutput(spec, cell, file, version, engine.backend);
    return out.finish(await runCell(engine, cell, { trace: opt.trace, onFrame: out.onFrame }));
  } finally {
    await engine.dispose();
  }
}

/**
 * `--ensemble`: the cells of one variant (its seeds) trained together on one population engine.
 * Each member's base weights are loaded as a single cell's would be, so every cell's frames equal
 * trainCell's (bit for bit on the tabular engine, within float32 noise on WASM).
 */
async function trainTogether(spec: ExperimentSpec, cells: ExperimentCell[], version: string, dir?: string): Promise<BundleRun[]> {
  const kind = engineKind();
  const bases: Float32Array[] = [];
  for (const cell of cells) {
    const single = await createCliEngine(kind, cell.config);
    try {
      info(`cell ${cell.index}/${cellCount(spec)}: ${spec.variants[cell.variant].name} (${variantLabel(spec, cell.variant)}), seed ${cell.seed}; ${await loadBase(single, kind, cell.config, baseOptions())}`);
      bases.push(await single.getWeights());
    } finally {
      await single.dispose();
    }
  }
  const engine = await createCliPopulation(kind, cells[0].config, cells.length);
  try {
    info(`training ${cells.length} seeds of variant ${spec.variants[cells[0].variant].name} together (${engine.backend} population)`);
    await engine.setWeights(bases);
    const outs = cells.map((c) => new CellOutput(spec, c, dir && cellFile(dir, c.index), version, engine.backend));
    const runs = await runCellsTogether(engine, cells, (p) => ({ trace: opt.trace, onFrame: outs[p].onFrame }));
    return runs.map((r, p) => outs[p].finish(r));
  } finally {
    await engine.dispose();
  }
}

const cellFile = (dir: string, index: number) => join(dir, `cell-${String(index).padStart(5, '0')}.jsonl`);

async function main(): Promise<number> {
  if (opt.help) {
    console.log(usageOf(import.meta.url, 12));
    return 0;
  }
  const [command, target] = positionals;
  if (command === 'merge') return merge(target);
  if (command === 'report') return report(target);
  if (command === 'reproduce') return reproduce(target);
  if (command !== undefined) throw new UsageError(`unknown command ${command} (merge, report, reproduce, or options only)`);

  const spec = readSpec();
  if (opt.list) {
    console.log(opt.json ? JSON.stringify(Array.from({ length: cellCount(spec) }, (_, i) => i)) : String(cellCount(spec)));
    return 0;
  }
  const version = codeVersion();
  if (opt.ensemble && !opt.all) throw new UsageError('--ensemble trains each variant\'s seeds together: use it with --all');
  if (opt.all) {
    if (opt['out-dir']) mkdirSync(opt['out-dir'], { recursive: true });
    const runs: BundleRun[] = [];
    if (opt.ensemble) {
      for (let v = 0; v < spec.variants.length; v++) runs.push(...(await trainTogether(spec, spec.seeds.map((_, i) => experimentCell(spec, v * spec.seeds.length + i)), version, opt['out-dir'])));
    } else {
      for (let i = 0; i < cellCount(spec); i++) runs.push(await trainCell(spec, experimentCell(spec, i), version, opt['out-dir'] && cellFile(opt['out-dir'], i)));
    }
    if (opt.out) writeTextFile(opt.out, bundleToJson(mergeCells(spec, runs, version)));
    return runs.some((r) => r.stoppedBy) ? EXIT_NON_FINITE : 0;
  }
  const cell = experimentCell(spec, arrayIndex(opt.index, process.env));
  const dir = opt['out-dir'] ?? 'cells';
  const file = opt.out ?? cellFile(dir, cell.index);
  if (!opt.out) mkdirSync(dir, { recursive: true });
  const run = await trainCell(spec, cell, version, file);
  return run.stoppedBy ? EXIT_NON_FINITE : 0;
}

function merge(dir: string | undefined): number {
  if (!dir || !opt.out) throw new UsageError('merge DIR --out bundle.json');
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl')).sort();
  if (files.length === 0) throw new Error(`merge: no .jsonl cell logs under ${dir}`);
  const cells = files.map((f) => parseCellLog(readTextFile(join(dir, f), 'cell log'), f));
  const spec = cells[0].spec;
  const specText = JSON.stringify(spec);
  for (const c of cells) if (JSON.stringify(c.spec) !== specText) throw new Error(`merge: ${files[cells.indexOf(c)]} belongs to another spec (${c.spec.name}) than ${files[0]} (${spec.name})`);
  const versions = [...new Set(cells.map((c) => c.codeVersion))];
  if (versions.length > 1) info(`merge: warning: cells come from several code versions (${versions.join(', ')})`);
  const bundle = mergeCells(spec, cells.map((c) => c.run), versions.join(' + '), { partial: opt.partial });
  writeTextFile(opt.out, bundleToJson(bundle));
  info(`merged ${cells.length} cell(s) of ${cellCount(spec)} into ${opt.out}`);
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
  const reruns: BundleRun[] = [];
  for (const i of cells) reruns.push(await trainCell(bundle.spec, experimentCell(bundle.spec, i), codeVersion()));
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
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = e instanceof UsageError ? EXIT_USAGE : EXIT_ERROR;
  },
);
