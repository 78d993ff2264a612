// Headless lab runner: the same core loop as the browser worker, on Node.
//   npm run lab -- --preset a-support-collapse --steps 100 --seed 3 --out run.jsonl --set clipHigh=0.2
// Options: --engine wasm|tabular (tabular = the pure-TS reference engine, for quick checks),
// --base FILE (raw little-endian Float32 base weights), else the base is pretrained in process
// (--pretrain-steps N, --pretrain-lr X), --trace (include the per-sample trace in each line).
// --gate FILE (rule lines, or JSON {"rules": [...]}) and repeatable --gate-rule 'EXPR => DECISION # label'
// set the `gate` setting (the --gate-rule rules first, then the file's); bad rules name the file/rule.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeValue, makeConfig, parseField, type Config } from '../core/config';
import { Run } from '../core/loop';
import { nonFinite } from '../core/metrics';
import { parsePreset } from '../core/presets';
import { UsageError, usageOf } from './args';
import { createCliEngine, loadBase } from './engine-setup';
import { appendTextFile, jsonText, parseFile, readJsonFile, writeTextFile } from './files';
import { gateRuleLines, readGateFile } from './gate-args';
import { parseLabArgs, type LabArgs as Args } from './lab-args';
import { EXIT_ERROR, EXIT_NON_FINITE, EXIT_USAGE } from './exit-codes';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

function resolveConfig(a: Args): Config {
  let partial: Record<string, unknown> = {};
  if (a.preset) {
    const file = a.preset.endsWith('.json') ? a.preset : join(root, 'public/presets', `${a.preset}.json`);
    // parsePreset names the preset and the field (config.lr: ...); the path names the file.
    partial = { ...parseFile(file, 'preset', readJsonFile, (x) => parsePreset(a.preset!, x)).config };
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
  return makeConfig(partial);
}

function progress(step: number, total: number, rate: number): void {
  const w = 30;
  const done = Math.round((step / total) * w);
  process.stderr.write(`\r[${'#'.repeat(done)}${'.'.repeat(w - done)}] ${step}/${total}  ${rate.toFixed(1)} steps/s `);
}

async function main(): Promise<void> {
  const a = parseLabArgs(process.argv.slice(2));
  if (a.help) {
    console.log(usageOf(import.meta.url, 7));
    return;
  }
  const cfg = resolveConfig(a);
  if (a.out) writeTextFile(a.out, ''); // fails before the engine starts when --out cannot be written (truncates it, as the run would)
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
    if (a.out) appendTextFile(a.out, jsonText(line) + '\n');
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
  if (a.out) appendTextFile(a.out, jsonText({ summary }) + '\n');
  console.log(jsonText(summary.final, 1));
  run.dispose();
  await engine.dispose();
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(e instanceof UsageError ? EXIT_USAGE : EXIT_ERROR);
});
