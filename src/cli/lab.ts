// Headless lab runner: the same core loop as the browser worker, on Node.
//   npm run lab -- --preset a-support-collapse --steps 100 --seed 3 --out run.jsonl --set clipHigh=0.2
// Options: --engine wasm|tabular (tabular = the pure-TS reference engine, for quick checks),
// --base FILE (raw little-endian Float32 base weights), else the base is pretrained in process
// (--pretrain-steps N, --pretrain-lr X), --trace (include the per-sample trace in each line).
// --gate FILE (rule lines, or JSON {"rules": [...]}) and repeatable --gate-rule 'EXPR => DECISION # label'
// set the `gate` setting (the --gate-rule rules first, then the file's); bad rules name the file/rule.
// --task-file FILE trains a custom task (a JSON task spec, src/core/tasks/spec.ts); bad fields are named.
// --stop-at T pauses the run at step T (of --steps); --snapshot FILE writes its exact state where it
// stopped; --resume FILE continues such a file bit for bit (its settings, seed and weights; --steps
// and --set change live settings, recorded on the run's timeline as any patch).
// --fork-at T --fork-out FILE [--fork-set key=value ...]: at step T the run forks; both continue from
// the same state (the lab's Compare), the fork with the changed settings, its lines in FILE.
import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeValue, makeConfig, parseField, runFixingIn, type Config } from '../core/config';
import { parsePreset } from '../core/presets';
import { snapshotFromJson, snapshotToJson } from '../core/run/snapshot-file';
import type { LabSnapshot } from '../core/run/types';
import { runLab, type Written } from './lab-session';
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
  snapshot?: string;
  stopAt?: number;
  resume?: string;
  forkAt?: number;
  forkOut?: string;
  forkSet: string[];
}

function parseArgs(argv: string[]): Args {
  const a: Args = { set: [], gateRules: [], engine: 'wasm', trace: false, quiet: false, forkSet: [] };
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
    else if (flag === '--snapshot') a.snapshot = text();
    else if (flag === '--resume') a.resume = text();
    else if (flag === '--stop-at') a.stopAt = num({ int: true, min: 1 });
    else if (flag === '--fork-at') a.forkAt = num({ int: true, min: 0 });
    else if (flag === '--fork-out') a.forkOut = text();
    else if (flag === '--fork-set') a.forkSet.push(next());
    else if (flag === '--trace') a.trace = true;
    else if (flag === '--quiet') a.quiet = true;
    else if (flag === '--help' || flag === '-h') {
      const head = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n');
      console.log(head.slice(0, head.findIndex((l) => !l.startsWith('//'))).join('\n'));
      process.exit(0);
    } else throw new UsageError(`unknown option ${flag}`);
  }
  if (a.resume !== undefined) {
    const fixed = (['preset', 'seed', 'base', 'pretrainSteps', 'pretrainLr'] as const).filter((k) => a[k] !== undefined);
    if (fixed.length) throw new UsageError(`--resume continues the snapshot's run: its ${fixed.join(', ')} cannot be set (--steps and live --set settings can)`);
  }
  if ((a.forkAt === undefined) !== (a.forkOut === undefined)) throw new UsageError('--fork-at and --fork-out go together');
  if (a.forkSet.length && a.forkAt === undefined) throw new UsageError('--fork-set needs --fork-at and --fork-out');
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

/** key=value flags (--set, --fork-set) as settings; a bad one is a bad command line naming the flag. */
function settingsOf(flag: string, pairs: string[]): Record<string, unknown> {
  const partial: Record<string, unknown> = {};
  for (const kv of pairs) {
    const eq = kv.indexOf('=');
    if (eq < 1) throw new UsageError(`${flag} expects key=value, got ${describeValue(kv)}`);
    try {
      partial[kv.slice(0, eq)] = parseField(kv.slice(0, eq), kv.slice(eq + 1));
    } catch (e) {
      throw new UsageError(`${flag} ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return partial;
}

function resolveConfig(a: Args, start: Record<string, unknown> = {}): Config {
  let partial: Record<string, unknown> = { ...start };
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
  Object.assign(partial, settingsOf('--set', a.set));
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

/** The snapshot in a --resume file; every failure names the file. */
function readSnapshot(file: string): LabSnapshot {
  if (!existsSync(file)) throw new Error(`--resume ${file}: no such file`);
  if (statSync(file).isDirectory()) throw new Error(`--resume ${file}: is a directory, expected a snapshot file`);
  try {
    return snapshotFromJson(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`--resume ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The settings a resumed run changes (those given on the command line that differ from the snapshot's). */
function resumePatch(a: Args, snap: LabSnapshot): Partial<Config> {
  const was = makeConfig({ ...snap.run.config, ...snap.run.pending });
  const now = resolveConfig(a, was);
  const patch = Object.fromEntries(Object.entries(now).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(was[k as keyof Config]))) as Partial<Config>;
  const fixed = runFixingIn(patch);
  if (fixed.length) throw new UsageError(`--resume: ${fixed.join(', ')} fix the run: a resumed run keeps the snapshot's`);
  return patch;
}

async function main(): Promise<void> {
  const a = parseArgs(process.argv.slice(2));
  const snap = a.resume !== undefined ? readSnapshot(a.resume) : undefined;
  const patch = snap ? resumePatch(a, snap) : {};
  const cfg = snap ? makeConfig({ ...snap.run.config, ...snap.run.pending, ...patch }) : resolveConfig(a);
  const forkPatch = settingsOf('--fork-set', a.forkSet);
  const fixed = runFixingIn(forkPatch);
  if (fixed.length) throw new UsageError(`--fork-set: ${fixed.join(', ')} fix the run: a fork keeps its parent's`);
  const end = Math.min(cfg.steps, a.stopAt ?? Infinity);
  if (a.forkAt !== undefined && a.forkAt >= end) throw new UsageError(`--fork-at ${a.forkAt}: the run ${a.stopAt !== undefined ? 'stops' : 'ends'} at step ${end}`);
  makeConfig({ ...cfg, ...forkPatch });
  if (a.out) checkWritable(a.out);
  if (a.forkOut) checkWritable(a.forkOut);
  const log = (s: string) => a.quiet || process.stderr.write(s + '\n');
  const t0 = performance.now();
  const tty = !a.quiet && process.stderr.isTTY;
  const { run, fork } = await runLab({
    engine: a.engine, config: cfg, base: { base: a.base, pretrainSteps: a.pretrainSteps, pretrainLr: a.pretrainLr },
    ...(snap ? { resume: snap, patch } : {}), ...(a.stopAt !== undefined ? { stopAt: a.stopAt } : {}), out: a.out, trace: a.trace, log,
    ...(a.forkAt !== undefined && a.forkOut ? { fork: { at: a.forkAt, patch: forkPatch as Partial<Config>, out: a.forkOut } } : {}),
    progress: (step, total) => {
      if (tty && (step % Math.max(1, Math.floor(total / 100)) === 0 || step === total)) progress(step, total, step / ((performance.now() - t0) / 1000));
    },
  });
  if (tty) process.stderr.write('\n');
  const wall = (performance.now() - t0) / 1000;
  for (const w of [run, fork]) {
    if (!w?.nonFinite) continue;
    process.stderr.write(`stopped ${w === fork ? 'the fork ' : ''}at step ${w.nonFinite.step}: non-finite metric ${w.nonFinite.metric} (the frame is in the output)\n`);
    process.exitCode = EXIT_NON_FINITE;
  }
  const summaryOf = (w: Written) => {
    const status = w.session.status();
    const last = w.last;
    const pick = (re: RegExp) => Object.fromEntries(Object.entries(last?.scalars ?? {}).filter(([k]) => re.test(k)));
    return {
      preset: a.preset ?? null,
      engine: status.backend,
      steps: status.config.steps,
      stepsTaken: last?.step ?? status.step,
      stoppedBy: w.nonFinite ? `non-finite ${w.nonFinite.metric} at step ${w.nonFinite.step}` : null,
      wallSeconds: wall,
      stepsPerSecond: (last?.step ?? 0) / wall,
      config: status.config,
      final: pick(/^(support\/(token_entropy|behavior_support|behavior_entropy)|esr\/effective_rate|gap\/clipfrac|train\/loss)/),
    };
  };
  const summary = summaryOf(run);
  if (a.out) appendFileSync(a.out, JSON.stringify({ summary }) + '\n');
  if (fork && a.forkOut) appendFileSync(a.forkOut, JSON.stringify({ summary: { ...summaryOf(fork), forkedAt: a.forkAt } }) + '\n');
  if (a.snapshot) {
    if (run.nonFinite) log(`--snapshot ${a.snapshot}: not written (the run stopped at a non-finite metric)`);
    else writeFileSync(a.snapshot, snapshotToJson(await run.session.snapshot()));
  }
  console.log(JSON.stringify(summary.final, null, 1));
  await run.session.dispose();
  await fork?.session.dispose();
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(e instanceof UsageError ? EXIT_USAGE : EXIT_ERROR);
});
