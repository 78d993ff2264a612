// Headless lab runner: the same core loop as the browser worker, on Node.
//   npm run lab -- --preset a-support-collapse --steps 100 --seed 3 --out run.jsonl --set clipHigh=0.2
// Options: --engine wasm|tabular (tabular = the pure-TS reference engine, for quick checks),
// --base FILE (raw little-endian Float32 base weights), else the base is pretrained in process
// (--pretrain-steps N, --pretrain-lr X), --trace (include the per-sample trace in each line).
// --gate FILE (rule lines, or JSON {"rules": [...]}) and repeatable --gate-rule 'EXPR => DECISION # label'
// set the `gate` setting (the --gate-rule rules first, then the file's); bad rules name the file/rule.
// --task-file FILE trains a custom task (a JSON task spec, src/core/tasks/spec.ts); bad fields are named.
import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeValue, makeConfig, parseField, type Config } from '../core/config';
import { Run } from '../core/loop';
import { nonFinite } from '../core/metrics';
import { parsePreset } from '../core/presets';
import { createCliEngine, loadBase } from './engine-setup';
import { gateRuleLines, readGateFile } from './gate-args';
import { readTaskFile } from './task-args';
import { EXIT_ERROR, EXIT_NON_FINITE, EXIT_USAGE } from './exit-codes';

/** A bad command line (exit 2), as opposed to a bad file or a failing run (exit 1). */
class UsageError extends Error {}

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

interface Args {
  preset?: string;
  steps?: number;
  seed?: number;
  out?: string;
  set: string[];
  gate?: string;
  gateRules: string[];
  taskFile?: string;
  engine: 'wasm' | 'tabular';
  base?: string;
  pretrainSteps?: number;
  pretrainLr?: number;
  trace: boolean;
  quiet: boolean;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { set: [], gateRules: [], engine: 'wasm', trace: false, quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    const text = () => {
      const v = next();
      if (v === '') throw new UsageError(`${flag} needs a value, got ""`);
      return v;
    };
    const num = (o: { int?: boolean; min?: number; positive?: boolean } = {}) => {
      const t = next();
      const v = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) ? Number(t) : NaN;
      const want = `${o.int ? 'a whole number' : 'a number'}${o.positive ? ' > 0' : o.min !== undefined ? ` ≥ ${o.min}` : ''}`;
      if (!Number.isFinite(v) || (o.int && !Number.isInteger(v)) || (o.positive && v <= 0) || (o.min !== undefined && v < o.min)) throw new UsageError(`${flag} needs ${want}, got ${describeValue(t)}`);
      return v;
    };
    if (flag === '--preset') a.preset = text();
    else if (flag === '--steps') a.steps = num({ int: true, min: 1 });
    else if (flag === '--seed') a.seed = num({ int: true, min: 0 });
    else if (flag === '--out') a.out = text();
    else if (flag === '--set') a.set.push(next());
    else if (flag === '--gate') a.gate = text();
    else if (flag === '--gate-rule') a.gateRules.push(next());
    else if (flag === '--task-file') a.taskFile = text();
    else if (flag === '--engine') {
      const e = next();
      if (e !== 'wasm' && e !== 'tabular') throw new UsageError('--engine must be wasm or tabular');
      a.engine = e;
    } else if (flag === '--base') a.base = text();
    else if (flag === '--pretrain-steps') a.pretrainSteps = num({ int: true, min: 0 });
    else if (flag === '--pretrain-lr') a.pretrainLr = num({ positive: true });
    else if (flag === '--trace') a.trace = true;
    else if (flag === '--quiet') a.quiet = true;
    else if (flag === '--help' || flag === '-h') {
      console.log(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(0, 7).join('\n'));
      process.exit(0);
    } else throw new UsageError(`unknown option ${flag}`);
  }
  return a;
}

/** A JSON file's content; every failure names the file (missing, a directory, empty, bad JSON). A UTF-8 BOM is skipped. */
function readJsonFile(file: string, what: string): unknown {
  if (!existsSync(file)) throw new Error(`${what} ${file}: no such file`);
  if (statSync(file).isDirectory()) throw new Error(`${what} ${file}: is a directory, expected a JSON file`);
  const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') throw new Error(`${what} ${file}: the file is empty, expected a JSON object`);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`${what} ${file}: not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** Fail before the engine starts when --out cannot be written (truncates it, as the run would). */
function checkWritable(file: string): void {
  try {
    writeFileSync(file, '');
  } catch (e) {
    throw new Error(`--out ${file}: cannot write (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
}

function resolveConfig(a: Args): Config {
  let partial: Record<string, unknown> = {};
  if (a.preset) {
    const file = a.preset.endsWith('.json') ? a.preset : join(root, 'public/presets', `${a.preset}.json`);
    // parsePreset names the preset and the field (config.lr: ...); the path names the file.
    try {
      partial = { ...parsePreset(a.preset, readJsonFile(file, 'preset')).config };
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      throw new Error(msg.includes(file) ? msg : `${msg} (file ${file})`);
    }
  }
  if (a.steps !== undefined) partial.steps = a.steps;
  if (a.seed !== undefined) partial.seed = a.seed;
  for (const kv of a.set) {
    const eq = kv.indexOf('=');
    if (eq < 1) throw new UsageError(`--set expects key=value, got ${describeValue(kv)}`);
    try {
      partial[kv.slice(0, eq)] = parseField(kv.slice(0, eq), kv.slice(eq + 1));
    } catch (e) {
      throw new UsageError(`--set ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  // --gate-rule rules first (first match wins), then the file's; a bad rule is a bad command line, a bad file exit 1
  let rules: string[];
  try {
    rules = gateRuleLines(a.gateRules);
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  if (a.gate !== undefined) rules.push(readGateFile(a.gate));
  if (rules.length) partial.gate = rules.join('\n');
  if (a.taskFile !== undefined) partial.taskSpec = readTaskFile(a.taskFile);
  return makeConfig(partial);
}

function progress(step: number, total: number, rate: number): void {
  const w = 30;
  const done = Math.round((step / total) * w);
  process.stderr.write(`\r[${'#'.repeat(done)}${'.'.repeat(w - done)}] ${step}/${total}  ${rate.toFixed(1)} steps/s `);
}

async function main(): Promise<void> {
  const a = parseArgs(process.argv.slice(2));
  const cfg = resolveConfig(a);
  if (a.out) checkWritable(a.out);
  const engine = await createCliEngine(a.engine, cfg);
  const log = (s: string) => a.quiet || process.stderr.write(s + '\n');
  log(`engine: ${engine.backend} (${engine.backendNote})`);
  log(await loadBase(engine, a.engine, cfg, { base: a.base, pretrainSteps: a.pretrainSteps, pretrainLr: a.pretrainLr }));
  const run = await Run.create(engine, cfg);
  const t0 = performance.now();
  let last: Awaited<ReturnType<Run['step']>> | null = null;
  let stoppedBy: string | null = null;
  for (let s = 0; s < cfg.steps; s++) {
    const f = await run.step();
    last = f;
    const line = { step: f.step, version: f.version, ...f.scalars, ...f.perf, series: f.series, ...(Object.keys(f.changes).length ? { changes: f.changes } : {}), ...(a.trace ? { trace: f.trace } : {}) };
    if (a.out) appendFileSync(a.out, JSON.stringify(line) + '\n');
    const bad = nonFinite(f);
    if (bad) {
      process.stderr.write(`\nstopped at step ${f.step}: non-finite metric ${bad} (the frame is in the output)\n`);
      process.exitCode = EXIT_NON_FINITE;
      stoppedBy = `non-finite ${bad} at step ${f.step}`;
      break;
    }
    if (!a.quiet && process.stderr.isTTY && (f.step % Math.max(1, Math.floor(cfg.steps / 100)) === 0 || f.step === cfg.steps)) progress(f.step, cfg.steps, f.step / ((performance.now() - t0) / 1000));
  }
  if (!a.quiet && process.stderr.isTTY) process.stderr.write('\n');
  const wall = (performance.now() - t0) / 1000;
  const pick = (re: RegExp) => Object.fromEntries(Object.entries(last?.scalars ?? {}).filter(([k]) => re.test(k)));
  const summary = {
    preset: a.preset ?? null,
    engine: engine.backend,
    steps: cfg.steps,
    stepsTaken: last?.step ?? 0,
    stoppedBy,
    wallSeconds: wall,
    stepsPerSecond: (last?.step ?? 0) / wall,
    config: cfg,
    final: pick(/^(support\/(token_entropy|behavior_support|behavior_entropy)|esr\/effective_rate|gap\/clipfrac|train\/loss)/),
  };
  if (a.out) appendFileSync(a.out, JSON.stringify({ summary }) + '\n');
  console.log(JSON.stringify(summary.final, null, 1));
  run.dispose();
  await engine.dispose();
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(e instanceof UsageError ? EXIT_USAGE : EXIT_ERROR);
});
