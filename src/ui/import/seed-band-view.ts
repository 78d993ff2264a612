// The seed band and the forecast of a fitted task as the fit panel draws them (pure): the core's
// shares, band, words and forecast errors (src/core/tasks/fit-shares.ts, fit-band.ts,
// fit-forecast.ts, fit-forecast-words.ts — the rules the CLI's --simulate-seeds prints), arranged
// per state × behavior for the small charts. Nothing here decides where the log lies: it reads it.
import type { Config } from '../../core/config';
import type { MeasureResult } from '../../core/import/index';
import type { FitResult } from '../../core/tasks/fit';
import { bandWords, seedBands, wilson, type BandPoint, type Place, type StateBand } from '../../core/tasks/fit-band';
import { expectedVotes, forecastErrors, forecastPlan, simulationConfig, type ForecastPlan, type ForecastReport } from '../../core/tasks/fit-forecast';
import { forecastWords } from '../../core/tasks/fit-forecast-words';
import { logShares, simShares, type ShareTable, type StepFrame } from '../../core/tasks/fit-shares';

/** The names the words use: the fitted spec's. */
export const fitNames = (fit: Pick<FitResult, 'spec'>) => ({ states: fit.spec.states.map((s) => s.name), behaviors: fit.spec.behaviors.map((b) => b.name) });

/** Log index of the fit's base step (the band's anchor), and how many log steps follow it. */
export function bandHorizon(fit: FitResult, source: Pick<MeasureResult, 'frames'>): { anchor: number; horizon: number } {
  const steps = source.frames.map((f) => f.step);
  const anchor = steps.indexOf(fit.baseSteps[1]);
  if (anchor < 0) throw new Error(`the fit's base step ${fit.baseSteps[1]} is not among the import's steps`);
  return { anchor, horizon: steps.length - 1 - anchor };
}

/** What a band run trains: the fitted task for `steps` steps (≤ the log's horizon) over the lab's settings and the gate. */
export function bandConfig(fit: FitResult, source: Pick<MeasureResult, 'frames'>, base: Config, gate: string, steps: number): Config {
  const { horizon } = bandHorizon(fit, source);
  if (!(Number.isInteger(steps) && steps >= 1 && steps <= horizon)) throw new Error(`steps: expected a whole number 1..${horizon} (the log's steps after its base step), got ${steps}`);
  return simulationConfig(fit, base, gate, steps);
}

/** One point of the log on a small chart: its share, its 95 % Wilson interval, and its place on the band. */
export interface LogPoint {
  step: number;
  share: number;
  lo: number;
  hi: number;
  place: Place;
}

export interface BandCell {
  state: number;
  behavior: number;
  band: BandPoint[];
  log: LogPoint[];
}

export interface BandView {
  anchor: number;
  /** The log's step numbers from the anchor on (the charts' x axis). */
  steps: number[];
  bands: StateBand[];
  /** Per state, the CLI's sentence (fit-band.ts bandWords). */
  words: string[];
  /** cells[state][behavior]. */
  cells: BandCell[][];
  seeds: number;
}

function logPoints(log: ShareTable, anchor: number, s: number, b: number, band: BandPoint[], places: readonly Place[]): LogPoint[] {
  return log.steps.slice(anchor).flatMap((step, k) => {
    const i = anchor + k;
    const share = log.share[s][b][i];
    if (!Number.isFinite(share)) return [];
    const [lo, hi] = wilson(share, log.n[s][i]);
    const j = band.findIndex((p) => p.step === step);
    return [{ step, share, lo, hi, place: j < 0 ? 'none' : places[j] }];
  });
}

/** The band of the seeds' runs (each a run's frames) beside the log, and the words. */
export function bandView(fit: FitResult, source: Pick<MeasureResult, 'frames'>, runs: readonly (readonly StepFrame[])[]): BandView {
  const { anchor } = bandHorizon(fit, source);
  const log = logShares(fit, source.frames);
  const bands = seedBands(log, anchor, runs.map((f) => simShares(fit, f)));
  const cells = bands.map(({ state, behaviors }) => behaviors.map(({ behavior, band, places }) => ({ state, behavior, band, log: logPoints(log, anchor, state, behavior, band, places) })));
  return { anchor, steps: log.steps.slice(anchor), bands, words: bandWords(bands, fitNames(fit)), cells, seeds: runs.length };
}

/** The steps a forecast can start from: every imported step with a later one. */
export const forecastSteps = (source: Pick<MeasureResult, 'frames'>): number[] => source.frames.slice(0, -1).map((f) => f.step);

/** The forecast's plan from step t over the lab's settings (the core's forecastPlan: fit from steps ..t, the log's remaining steps). */
export function pagePlan(source: MeasureResult, t: number, base: Config, gate: string): ForecastPlan {
  const horizon = source.frames.filter((f) => f.step > t).length;
  return forecastPlan(source, t, horizon, base, gate);
}

export interface ForecastView {
  report: ForecastReport;
  words: string[];
}

/** The forecast's errors against the log (the core's forecastErrors) and its words. */
export function forecastView(plan: ForecastPlan, source: Pick<MeasureResult, 'frames'>, runs: readonly (readonly StepFrame[])[]): ForecastView {
  const report = forecastErrors(plan, logShares(plan.fit, source.frames), runs.map((f) => simShares(plan.fit, f)), expectedVotes(plan.fit));
  return { report, words: forecastWords(report, fitNames(plan.fit)) };
}
