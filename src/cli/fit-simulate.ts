// `npm run import -- … --fit-task spec.json --simulate-seeds N [--forecast-from T,…]`: the fitted
// task trained as a population of seeds (the experiments' engine: experiment-train.ts, one variant,
// seeds 1..N) beside the log, its band and where the log lies against it in words; and forecasts
// from steps T (fit from steps ..T, trained forward, scored against the log's later steps and the
// naive "nothing changes"). The rules are the core's (src/core/tasks/fit-band.ts, fit-forecast.ts).
//   --simulate-preset NAME|FILE, --simulate-set key=value …  the log's settings in the lab's terms
//   --simulate-engine wasm|tabular (default wasm: the lab's transformer)  --simulate-out FILE (JSON)
// The gate: the import's --gate (the log's own, replayed), else the settings' gate. The base: the
// fitted task's, pretrained once (seed 0) for every seed, as in the page.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MeasureResult } from '../core/import/analyze';
import { makeConfig, parseWholeNumber, type Config } from '../core/config';
import { cellCount } from '../core/experiment/spec';
import { BASE_SEED } from '../core/pretrain';
import type { FitResult } from '../core/tasks/fit';
import { bandWords, seedBands, type StateBand } from '../core/tasks/fit-band';
import { expectedVotes, forecastErrors, forecastPlan, simulationConfig, simulationSpec, type ForecastReport } from '../core/tasks/fit-forecast';
import { forecastWords } from '../core/tasks/fit-forecast-words';
import { logShares, simShares, type ShareTable } from '../core/tasks/fit-shares';
import { errorText } from '../core/unknown';
import { codeVersion } from './code-version';
import { EngineReuse } from './engine-reuse';
import { loadBase } from './engine-setup';
import { trainGroup } from './experiment-train';
import { jsonText, writeTextFile } from './files';
import { presetSettings, settingsOf } from './settings-args';

export const SIMULATE_OPTIONS = {
  'simulate-seeds': { type: 'string' },
  'forecast-from': { type: 'string' },
  'simulate-preset': { type: 'string' },
  'simulate-set': { type: 'string', multiple: true },
  'simulate-engine': { type: 'string' },
  'simulate-out': { type: 'string' },
} as const;
export const SIMULATE_USAGE = '[--simulate-seeds N [--forecast-from T[,T…]] [--simulate-preset NAME] [--simulate-set key=value …] [--simulate-engine wasm|tabular] [--simulate-out FILE]]';

export interface SimulateOptions {
  seeds: number[];
  from: number[];
  settings: Partial<Config>;
  engine: 'wasm' | 'tabular';
  out?: string;
}

type Flags = { 'simulate-seeds'?: string; 'forecast-from'?: string; 'simulate-preset'?: string; 'simulate-set'?: string[]; 'simulate-engine'?: string; 'simulate-out'?: string; 'fit-task'?: string };

/** The simulation the flags ask for (undefined: none); each bad flag is pushed to `bad`. */
export function simulateFlags(v: Flags, bad: string[]): SimulateOptions | undefined {
  const others = (['forecast-from', 'simulate-preset', 'simulate-set', 'simulate-engine', 'simulate-out'] as const).filter((k) => v[k] !== undefined);
  if (v['simulate-seeds'] === undefined) {
    if (others.length) bad.push(`--${others.join(', --')} need${others.length === 1 ? 's' : ''} --simulate-seeds N`);
    return undefined;
  }
  if (!v['fit-task']) bad.push('--simulate-seeds needs --fit-task FILE (the task it trains)');
  const n = parseWholeNumber(v['simulate-seeds']) ?? NaN;
  if (!(n >= 1 && n <= 64)) bad.push(`--simulate-seeds: expected a whole number 1..64, got ${v['simulate-seeds']}`);
  const from = (v['forecast-from'] ?? '').split(',').filter((x) => x !== '').map((x) => parseWholeNumber(x.trim()) ?? NaN);
  if (from.some((t) => !Number.isFinite(t))) bad.push(`--forecast-from: expected steps T[,T…] (whole numbers), got ${v['forecast-from']}`);
  const engine = v['simulate-engine'] ?? 'wasm';
  if (engine !== 'wasm' && engine !== 'tabular') bad.push(`--simulate-engine: expected wasm or tabular, got ${engine}`);
  let settings: Partial<Config> = {};
  try {
    settings = { ...(v['simulate-preset'] ? presetSettings(v['simulate-preset']) : {}), ...settingsOf('--simulate-set', v['simulate-set'] ?? []) };
    makeConfig(settings);
  } catch (e) {
    bad.push(errorText(e));
  }
  return { seeds: Array.from({ length: n }, (_, i) => i + 1), from, settings, engine: engine as SimulateOptions['engine'], out: v['simulate-out'] };
}

/**
 * The fitted task's base, pretrained once with seed BASE_SEED (as the page's workers do,
 * workers/base.ts: one base for every run seed), in a temporary file every seed loads.
 */
async function baseFile(config: Config, o: SimulateOptions, dir: string, engines: EngineReuse): Promise<string> {
  const at = { ...config, seed: BASE_SEED };
  const engine = await engines.engine(o.engine, at);
  console.error(`  ${await loadBase(engine, o.engine, at)}`);
  const file = join(dir, 'base.f32');
  const w = await engine.getWeights();
  writeFileSync(file, new Uint8Array(w.buffer, w.byteOffset, w.byteLength));
  return file;
}

/** Train `config` at every seed together (the experiments' engine) from one base; each seed's frames. */
async function trainSeeds(config: Config, o: SimulateOptions, name: string, engines: EngineReuse) {
  const dir = mkdtempSync(join(tmpdir(), 'invlab-fit-'));
  try {
    const spec = simulationSpec(config, o.seeds, name);
    const settings = { spec, codeVersion: codeVersion(), engine: o.engine, base: { base: await baseFile(config, o, dir, engines) }, trace: false, quiet: true };
    const cells = Array.from({ length: cellCount(spec) }, (_, i) => i);
    const trained = await trainGroup(settings, cells, true, { info: () => {}, step: () => {} }, engines);
    return trained.map((t) => t.run.frames);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const names = (fit: FitResult) => ({ states: fit.spec.states.map((s) => s.name), behaviors: fit.spec.behaviors.map((b) => b.name) });

async function band(r: MeasureResult, fit: FitResult, gate: string, o: SimulateOptions, engines: EngineReuse): Promise<{ anchor: number; bands: StateBand[]; words: string[]; runs: ShareTable[] }> {
  const log = logShares(fit, r.frames);
  const anchor = log.steps.indexOf(fit.baseSteps[1]);
  const horizon = log.steps.length - 1 - anchor;
  console.error(`simulating "${fit.spec.name}" from step ${fit.baseSteps[1]} for ${horizon} steps at seeds ${o.seeds.join(', ')} (${o.engine})…`);
  const frames = await trainSeeds(simulationConfig(fit, o.settings, gate, horizon), o, `${fit.spec.name}: seed band`, engines);
  const runs = frames.map((f) => simShares(fit, f));
  const bands = seedBands(log, anchor, runs);
  const words = bandWords(bands, names(fit));
  console.error(`the log against the seeds' 10–90 % band (its 95 % Wilson interval outside the band counts):`);
  for (const w of words) console.error(`  ${w}`);
  return { anchor, bands, words, runs };
}

async function forecast(r: MeasureResult, t: number, gate: string, o: SimulateOptions, engines: EngineReuse): Promise<{ report: ForecastReport; words: string[]; runs: ShareTable[] }> {
  const horizon = r.frames.filter((f) => f.step > t).length;
  const plan = forecastPlan(r, t, horizon, o.settings, gate);
  console.error(`forecast from step ${t}: fitted on steps ${plan.fit.truthSteps.join('..')}, trained ${horizon} steps at ${o.seeds.length} seeds…`);
  const frames = await trainSeeds(plan.config, o, `forecast from step ${t}`, engines);
  const runs = frames.map((f) => simShares(plan.fit, f));
  const report = forecastErrors(plan, logShares(plan.fit, r.frames), runs, expectedVotes(plan.fit));
  const words = forecastWords(report, names(plan.fit));
  for (const w of words) console.error(`  ${w}`);
  return { report, words, runs };
}

/** The band of `fit` (the import's fitted task) and the forecasts the flags ask for, on stderr and (JSON) in --simulate-out. */
export async function simulateFit(r: MeasureResult, fit: FitResult, gate: string | undefined, o: SimulateOptions): Promise<void> {
  const g = gate ?? makeConfig(o.settings).gate;
  const engines = new EngineReuse();
  const forecasts = [];
  let b;
  try {
    b = await band(r, fit, g, o, engines);
    for (const t of o.from) forecasts.push({ from: t, ...(await forecast(r, t, g, o, engines)) });
  } finally {
    await engines.dispose();
  }
  if (o.out) writeTextFile(o.out, `${jsonText({ seeds: o.seeds, engine: o.engine, gate: g, settings: o.settings, band: { anchor: r.frames[b.anchor].step, states: b.bands, words: b.words, runs: b.runs }, forecasts }, 1)}\n`, '--simulate-out');
}
