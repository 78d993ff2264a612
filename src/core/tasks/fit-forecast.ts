// A forecast from a log: fit the task from the log's steps up to t only (its base mix from step t,
// its judge's truth from the steps up to t), train it forward as a population of seeds under the
// log's gate and settings for the steps the log has after t, and compare it with those steps per
// state, against the naive forecast "nothing changes" (step t's shares held). The error of a
// forecast at a step is the total variation distance ½ Σ_b |p̂_b − p_b| between its behavior shares
// and the log's (fit-shares.ts: over the fitted behaviors); over seeds: each seed's mean error over
// the steps, paired with the naive one's (stats.ts pairedComparison: seeds where the forecast is
// closer, sign test, bootstrap interval of the mean difference from 5 seeds on).
import { makeConfig, type Config } from '../config';
import { pairedComparison, quantileSorted, type PairedComparison } from '../experiment/stats';
import type { ExperimentSpec } from '../experiment/spec';
import { fitTask, type FitOptions, type FitResult, type FitSource } from './fit';
import { BAND_DEFAULTS, logIndexOf } from './fit-band';
import type { ShareTable } from './fit-shares';
import { specText } from './registry';
import { expectedVote } from './spec';

/** The log as it was at step t: its frames up to step t, nothing after. */
export function sourceUpTo(source: FitSource, t: number): FitSource {
  const frames = source.frames.filter((f) => f.step <= t);
  if (!frames.length) throw new Error(`forecast: no imported step at or before step ${t} (the log starts at step ${source.frames[0]?.step})`);
  return { ...source, frames };
}

export interface ForecastPlan {
  /** The log step the forecast starts from. */
  from: number;
  /** Imported steps after `from` to forecast. */
  horizon: number;
  fit: FitResult;
  /** What each seed trains with (seed and steps set per run). */
  config: Config;
}

/**
 * The fit and the config of a forecast from step t: fitTask on the steps up to t (base mix: step t;
 * truth: every step up to t), trained for `horizon` steps with the fit's settings over `base` and the
 * gate. The horizon is how many steps to forecast (the log's count after t, or less), not their content.
 */
export function forecastPlan(source: FitSource, t: number, horizon: number, base: Partial<Config>, gate: string, opts: Omit<FitOptions, 'baseSteps' | 'truthSteps'> = {}): ForecastPlan {
  if (!Number.isInteger(horizon) || horizon < 1) throw new Error(`forecast: the horizon must be a whole number of steps ≥ 1, got ${horizon}`);
  const past = sourceUpTo(source, t);
  const last = past.frames.at(-1)!.step;
  if (last !== t) throw new Error(`forecast: the log has no step ${t} (the last one before it is ${last})`);
  const fit = fitTask(past, { ...opts, name: opts.name ?? `forecast from step ${t}`, baseSteps: [t, t], truthSteps: [past.frames[0].step, t] });
  return { from: t, horizon, fit, config: simulationConfig(fit, base, gate, horizon) };
}

/** A run of a fitted task: `base`, the fit's settings, its spec as the taskSpec, the gate, `steps` steps. */
export function simulationConfig(fit: FitResult, base: Partial<Config>, gate: string, steps: number): Config {
  return makeConfig({ ...base, ...fit.settings, taskSpec: specText(fit.spec), gate, steps });
}

/** The seeds of a fitted task as an experiment (one variant): what the experiments' engine trains. */
export function simulationSpec(config: Config, seeds: readonly number[], name: string): ExperimentSpec {
  const { seed: _seed, steps, ...base } = config;
  return { version: 1, name, base, variants: [{ name: 'fitted task', patch: {} }], seeds: [...seeds], steps };
}

/** Total variation distance between two share vectors; NaN when either has a NaN. */
export function tv(p: readonly number[], q: readonly number[]): number {
  let d = 0;
  for (let b = 0; b < p.length; b++) d += Math.abs(p[b] - q[b]);
  return d / 2;
}

const at = (t: ShareTable, s: number, i: number): number[] => t.share[s].map((row) => row[i]);
const simAt = (r: ShareTable, s: number, h: number): number[] => {
  const k = r.steps.indexOf(h);
  return k < 0 ? r.share[s].map(() => NaN) : at(r, s, k);
};
const mean = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;

/**
 * The error a forecast that knew π exactly would still have against a step of n samples of it:
 * E[½ Σ_b |p̂_b − p_b|] ≈ ½ Σ_b √(2 p_b (1 − p_b) / (π n)) (each count normal, E|Z| = σ √(2/π)),
 * with p the step's own shares. About 0.15 for four behaviors and n = 21.
 */
export function noiseFloor(p: readonly number[], n: number): number {
  if (!(n > 0)) return NaN;
  return p.reduce((a, x) => a + Math.sqrt((2 * x * (1 - x)) / (Math.PI * n)), 0) / 2;
}

export interface HorizonError {
  /** The log step compared, and how many steps after t it is. */
  step: number;
  h: number;
  /** Error of "nothing changes": step t's shares against this step's. */
  naive: number;
  /** Each seed's error (NaN where the seed has no frame or the log no sample). */
  seeds: number[];
  /** Median and 10–90 % quantiles of the seeds' errors. */
  median: number;
  lo: number;
  hi: number;
  /** Error of the seeds' mean shares. */
  ensemble: number;
  /** The log's own noise: the expected error of a perfect forecast of π against n samples of it (noiseFloor). */
  floor: number;
}

export interface ErrorSummary {
  /** Mean errors over the steps compared (and the states, overall). */
  naive: number;
  /** The mean over seeds of each seed's mean error. */
  forecast: number;
  ensemble: number;
  floor: number;
  /** Per seed: naive (A) against forecast (B) mean error, lower is better; null without two finite means. */
  paired: PairedComparison | null;
  /** Steps compared (state × step pairs, overall). */
  points: number;
}

/** Where a state's shares moved from step t to the end of the horizon (mean of its last ≤ 3 steps). */
export interface Move {
  /** The behavior that gained most in the log, its gain, and its expected vote's rank in the fit (1 = best). */
  log: { behavior: number; gain: number; rank: number };
  /** The behavior that gained most in the forecast (the seeds' median gain), and its gain. */
  forecast: { behavior: number; gain: number };
}

export interface StateForecast {
  state: number;
  rows: HorizonError[];
  summary: ErrorSummary;
  move: Move;
}

export interface ForecastReport {
  from: number;
  seeds: number;
  states: StateForecast[];
  overall: ErrorSummary;
}

function horizonRows(log: ShareTable, anchor: number, runs: readonly ShareTable[], s: number, horizon: number): HorizonError[] {
  const [qLo, qHi] = BAND_DEFAULTS.quantiles;
  const rows: HorizonError[] = [];
  for (let h = 1; h <= horizon && logIndexOf(anchor, h) < log.steps.length; h++) {
    const truth = at(log, s, logIndexOf(anchor, h));
    const sims = runs.map((r) => simAt(r, s, h));
    const seeds = sims.map((p) => tv(p, truth));
    const finite = seeds.filter(Number.isFinite).sort((a, b) => a - b);
    const live = sims.filter((p) => p.every(Number.isFinite));
    const ensemble = live.length ? tv(truth.map((_, b) => mean(live.map((p) => p[b]))), truth) : NaN;
    const floor = noiseFloor(truth, log.n[s][logIndexOf(anchor, h)]);
    rows.push({ step: log.steps[logIndexOf(anchor, h)], h, naive: tv(at(log, s, anchor), truth), seeds, median: quantileSorted(finite, 0.5), lo: quantileSorted(finite, qLo), hi: quantileSorted(finite, qHi), ensemble, floor });
  }
  return rows;
}

function summary(rows: readonly HorizonError[], seeds: number): ErrorSummary {
  const used = rows.filter((r) => Number.isFinite(r.naive));
  const perSeed = Array.from({ length: seeds }, (_, k) => mean(used.map((r) => r.seeds[k])));
  const ok = perSeed.map((_, k) => k).filter((k) => Number.isFinite(perSeed[k]));
  const naive = mean(used.map((r) => r.naive));
  const paired = ok.length && Number.isFinite(naive) ? pairedComparison(ok.map(() => naive), ok.map((k) => perSeed[k]), { higherIsBetter: false }) : null;
  return { naive, forecast: mean(ok.map((k) => perSeed[k])), ensemble: mean(used.map((r) => r.ensemble)), floor: mean(used.map((r) => r.floor)), paired, points: used.length };
}

function moveOf(log: ShareTable, anchor: number, runs: readonly ShareTable[], s: number, rows: readonly HorizonError[], value: readonly number[]): Move {
  const tail = rows.slice(-3).map((r) => r.h);
  const start = at(log, s, anchor);
  const endLog = start.map((_, b) => mean(tail.map((h) => log.share[s][b][logIndexOf(anchor, h)])));
  const gainsSim = start.map((x, b) => {
    const g = runs.map((r) => mean(tail.map((h) => simAt(r, s, h)[b])) - x).filter(Number.isFinite).sort((a, c) => a - c);
    return quantileSorted(g, 0.5);
  });
  const argmax = (xs: readonly number[]) => xs.reduce((bi, x, b) => (x > xs[bi] || !Number.isFinite(xs[bi]) ? b : bi), 0);
  const lb = argmax(endLog.map((x, b) => x - start[b]));
  const fb = argmax(gainsSim);
  const rank = 1 + value.filter((v) => v > value[lb]).length;
  return { log: { behavior: lb, gain: endLog[lb] - start[lb], rank }, forecast: { behavior: fb, gain: gainsSim[fb] } };
}

/**
 * The forecast's errors against the log's steps after the anchor (log index of step t), per state
 * and step, and summed up. `runs`: each seed's shares (fit-shares.ts simShares); `value[s][b]`: the
 * fit's expected vote E = P(+1) − P(−1) (what the forecast's policy is pushed by).
 */
export function forecastErrors(plan: { from: number; horizon: number }, log: ShareTable, runs: readonly ShareTable[], value: readonly (readonly number[])[]): ForecastReport {
  const anchor = log.steps.indexOf(plan.from);
  if (anchor < 0) throw new Error(`forecast: the log has no step ${plan.from}`);
  const states = log.share.map((_, s) => {
    const rows = horizonRows(log, anchor, runs, s, plan.horizon);
    return { state: s, rows, summary: summary(rows, runs.length), move: moveOf(log, anchor, runs, s, rows, value[s]) };
  });
  return { from: plan.from, seeds: runs.length, states, overall: summary(states.flatMap((x) => x.rows), runs.length) };
}

/** The fit's expected vote per state × behavior (spec order): what a forecast's policy is pushed by. */
export function expectedVotes(fit: Pick<FitResult, 'spec'>): number[][] {
  return fit.spec.states.map((st) => fit.spec.behaviors.map((b) => expectedVote(st.act[b.name].truth)));
}
