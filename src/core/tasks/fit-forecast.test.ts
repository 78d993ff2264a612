// The forecast: its errors on fixed share tables against values worked by hand; its fit sees only
// the log up to step t (the leakage check: a log whose later steps say something else gives the
// same plan, and the check fails when the fit reads the whole log); and a population of seeds
// trained on the tabular engine gives the same band again for the same seeds.
import { describe, expect, it } from 'vitest';
import { runCellsTogether } from '../experiment/run-cell';
import { experimentCells } from '../experiment/spec';
import type { MeasureResult } from '../import/analyze';
import { policyShape, pretrainBase } from '../pretrain';
import { TabularPopulation } from '../../engine/tabular/tabular-population';
import { createTabularEngine } from '../../engine/tabular/tabular-engine';
import { importExample } from '../../../tests/support/example-import';
import { taskFromSpec } from './compile';
import { fitTask } from './fit';
import { seedBands } from './fit-band';
import { expectedVotes, forecastErrors, forecastPlan, noiseFloor, simulationConfig, simulationSpec, sourceUpTo, tv } from './fit-forecast';
import { forecastWords } from './fit-forecast-words';
import { logShares, simShares, type ShareTable } from './fit-shares';

const table = (steps: number[], b0: number[], n: number[] = steps.map(() => NaN)): ShareTable => ({ steps, share: [[b0, b0.map((x) => 1 - x)]], n: [n] });

describe('the forecast’s errors', () => {
  it('total variation and the log’s noise floor', () => {
    expect(tv([0.5, 0.5], [0.6, 0.4])).toBeCloseTo(0.1, 12);
    expect(tv([1, 0, 0], [0, 0.5, 0.5])).toBe(1);
    expect(tv([NaN, 1], [0, 1])).toBeNaN();
    // ½ · 2 · √(2 · 0.24 / (π · 10))
    expect(noiseFloor([0.6, 0.4], 10)).toBeCloseTo(0.123608, 5);
    expect(noiseFloor([1, 0], 10)).toBe(0);
    expect(noiseFloor([0.5, 0.5], 0)).toBeNaN();
  });

  it('per step: naive = step t held, each seed’s error, the seeds’ mean; summed per seed and paired', () => {
    const log = table([1, 2, 3], [0.5, 0.6, 0.8], [10, 10, 10]);
    const runs = [table([1, 2], [0.6, 0.7]), table([1, 2], [0.4, 0.9])];
    const r = forecastErrors({ from: 1, horizon: 2 }, log, runs, [[1, -1]]);
    const [h1, h2] = r.states[0].rows;
    expect([h1.step, h1.h, h2.step, h2.h]).toEqual([2, 1, 3, 2]);
    expect(h1.naive).toBeCloseTo(0.1, 12);
    expect(h1.seeds.map((x) => +x.toFixed(12))).toEqual([0, 0.2]);
    expect(h1.ensemble).toBeCloseTo(0.1, 12);
    expect(h1.floor).toBeCloseTo(0.123608, 5);
    expect(h2.naive).toBeCloseTo(0.3, 12);
    expect(h2.seeds.map((x) => +x.toFixed(12))).toEqual([0.1, 0.1]);
    expect(h2.ensemble).toBeCloseTo(0, 12);
    const s = r.states[0].summary;
    expect(s.naive).toBeCloseTo(0.2, 12);
    expect(s.forecast).toBeCloseTo(0.1, 12); // seeds 0.05 and 0.15
    expect(s.ensemble).toBeCloseTo(0.05, 12);
    expect(s.paired!.favourB).toBe(2);
    expect(s.paired!.ci).toBeNull(); // 2 seeds: no interval
    expect(s.paired!.meanDiff).toBeCloseTo(-0.1, 12);
    // both moved to behavior 0 (+0.2 in the log over the last steps; +0.15 the seeds' median)
    expect(r.states[0].move.log.behavior).toBe(0);
    expect(r.states[0].move.log.gain).toBeCloseTo(0.2, 12);
    expect(r.states[0].move.log.rank).toBe(1);
    expect(r.states[0].move.forecast.gain).toBeCloseTo(0.15, 12);
    expect(forecastWords(r, { states: ['math'], behaviors: ['a', 'b'] })[1]).toMatch(/^math: mean error 0\.100 .* vs naive 0\.200 .* forecast closer in 2 of 2 seeds .* the log gained most on a \(\+0\.20, the fit's best-rewarded behavior\); the forecast on a \(\+0\.15\): the same$/);
  });

  it('a seed that stopped early is left out of the summary, not averaged over the steps it has', () => {
    const log = table([1, 2, 3], [0.5, 0.6, 0.8], [10, 10, 10]);
    const r = forecastErrors({ from: 1, horizon: 2 }, log, [table([1, 2], [0.6, 0.7]), table([1], [0.4])], [[1, -1]]);
    expect(r.states[0].rows[1].seeds[1]).toBeNaN();
    expect(r.states[0].summary.paired!.n).toBe(1);
    expect(r.states[0].summary.forecast).toBeCloseTo(0.05, 12);
  });
});

/** The log with its steps after t rewritten: counts tripled, rewards' signs swapped, a state seen only later. */
function laterChanged(m: MeasureResult, t: number): MeasureResult {
  const swap = (k: string) => k.replace(/\/pos$/, '/@').replace(/\/neg$/, '/pos').replace(/\/@$/, '/neg');
  const frames = m.frames.map((f) => {
    if (f.step <= t) return f;
    const scalars: Record<string, number> = {};
    for (const [k, v] of Object.entries(f.scalars)) if (typeof v === 'number') scalars[swap(k)] = 3 * v;
    Object.assign(scalars, { 'import/state_samples/late': 40, 'support/behavior_count/late/direct': 40, 'import/reward_count/late/direct/pos': 40 });
    return { ...f, scalars };
  });
  return { ...m, frames, states: [...m.states, 'late'] } as MeasureResult;
}

describe('the forecast from step t sees the log up to step t only', () => {
  it('a log whose steps after t say something else gives the same fit and config', async () => {
    const m = await importExample('verl');
    const t = 8;
    const changed = laterChanged(m, t);
    // the change is one a fit would see: over the whole log, with the same windows, it fits another task
    const windows = { baseSteps: [t, t] as [number, number], truthSteps: [1, t] as [number, number] };
    expect(fitTask(changed, windows).spec).not.toEqual(fitTask(m, windows).spec);
    expect(fitTask(changed, { baseSteps: [t, t] }).spec).not.toEqual(fitTask(m, { baseSteps: [t, t] }).spec);
    const a = forecastPlan(m, t, 12, { rolloutBatch: 64 }, '');
    const b = forecastPlan(changed, t, 12, { rolloutBatch: 64 }, '');
    expect(b).toEqual(a);
    expect(a.fit.truthSteps).toEqual([1, t]);
    expect(a.fit.baseSteps).toEqual([t, t]);
    expect(a.config.steps).toBe(12);
    expect(sourceUpTo(m, t).frames.map((f) => f.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(() => forecastPlan(m, 0, 3, {}, '')).toThrow(/no imported step at or before step 0/);
    expect(() => forecastPlan(m, 8, 0, {}, '')).toThrow(/horizon/);
  });
});

describe('the seed band of a population', () => {
  it('the same seeds give the same band; other seeds another (tabular engine, 3 steps)', async () => {
    const m = await importExample('verl');
    const fit = fitTask(m);
    const config = simulationConfig(fit, { rolloutBatch: 16, behaviorSamples: 16, lr: 0.05 }, '', 3);
    const engine = createTabularEngine(policyShape(config));
    await pretrainBase(engine, taskFromSpec(fit.spec), 0, { steps: 60, batch: 32, lr: 0.05, temperature: config.temperature });
    const base = await engine.getWeights();
    const band = async (seeds: number[]) => {
      const cells = experimentCells(simulationSpec(config, seeds, 'band'));
      const pop = new TabularPopulation(policyShape(config), cells.length);
      await pop.setWeights(cells.map(() => base));
      const runs = await runCellsTogether(pop, cells);
      expect(runs.map((r) => r.frames.length)).toEqual(seeds.map(() => 3));
      return seedBands(logShares(fit, m.frames), 0, runs.map((r) => simShares(fit, r.frames)));
    };
    const first = await band([1, 2, 3]);
    expect(first[0].behaviors[0].band.map((p) => p.step)).toEqual([2, 3, 4]);
    expect(await band([1, 2, 3])).toEqual(first);
    expect(await band([4, 5, 6])).not.toEqual(first);
    expect(expectedVotes(fit)[0]).toHaveLength(fit.spec.behaviors.length);
  });
});
