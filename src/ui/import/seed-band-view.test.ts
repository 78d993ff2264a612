// The fit panel's band and forecast views on the shipped verl example: what the panel draws is the
// core's band (its words are the CLI's, bandWords of seedBands), the log's points carry their
// Wilson interval and place, the configs are the core's simulationConfig / forecastPlan.
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/config';
import type { MeasureResult } from '../../core/import/analyze';
import { fitTask, type FitResult } from '../../core/tasks/fit';
import { bandWords, seedBands, wilson } from '../../core/tasks/fit-band';
import { forecastPlan, simulationConfig } from '../../core/tasks/fit-forecast';
import { logShares, simShares, type StepFrame } from '../../core/tasks/fit-shares';
import { importExample } from '../../../tests/support/example-import';
import { bandConfig, bandHorizon, bandView, fitNames, forecastSteps, forecastView, pagePlan } from './seed-band-view';

let r: MeasureResult;
let fit: FitResult;
beforeAll(async () => {
  r = await importExample('verl');
  fit = fitTask(r, { name: 'fitted verl' });
});

/** A simulated run whose frame k has, in every state, the shares `at(k)` (spec names). */
function run(fitted: FitResult, steps: number, at: (s: number, k: number) => number[]): StepFrame[] {
  return Array.from({ length: steps }, (_, i) => {
    const scalars: Record<string, number> = {};
    fitted.spec.states.forEach((st, s) => at(s, i + 1).forEach((v, b) => (scalars[`support/behavior_dist/${st.name}/${fitted.spec.behaviors[b].name}`] = v)));
    return { step: i + 1, scalars } as StepFrame;
  });
}

describe('the seed band the panel draws', () => {
  it('trains the core’s simulation config for 1..the log’s steps after its base step', () => {
    expect(bandHorizon(fit, r)).toEqual({ anchor: 0, horizon: 19 });
    const base = defaultConfig();
    expect(bandConfig(fit, r, base, '', 3)).toEqual(simulationConfig(fit, base, '', 3));
    expect(bandConfig(fit, r, base, '', 3)).toMatchObject({ steps: 3, judgeNoise: 0 });
    expect(() => bandConfig(fit, r, base, '', 20)).toThrow(/steps: expected a whole number 1\.\.19/);
    expect(() => bandConfig(fit, r, base, '', 0)).toThrow(/1\.\.19/);
  });

  it('is the core’s band, with the CLI’s words; the log inside when the seeds are the log', () => {
    const log = logShares(fit, r.frames);
    const states = fit.spec.states.length;
    const behaviors = fit.spec.behaviors.length;
    const same = [0, 1].map(() => run(fit, 19, (s, k) => Array.from({ length: behaviors }, (_, b) => log.share[s][b][k])));
    const v = bandView(fit, r, same);
    expect(v.words).toEqual(bandWords(seedBands(log, 0, same.map((f) => simShares(fit, f))), fitNames(fit)));
    expect(v.words.map((w) => w.split(':')[0])).toEqual(['code', 'explain', 'math']);
    expect(v.words.every((w) => w.endsWith('(everywhere)'))).toBe(true);
    expect(v.cells).toHaveLength(states);
    expect(v.cells[0]).toHaveLength(behaviors);
    expect(v.steps).toEqual(r.frames.map((f) => f.step));
    // the log's points: every step from the anchor, its Wilson interval, the place where a band is
    const p = v.cells[2][1].log;
    expect(p.map((x) => x.step)).toEqual(v.steps);
    expect(p[0].place).toBe('none');
    expect(p.slice(1).every((x) => x.place === 'inside')).toBe(true);
    expect([p[3].lo, p[3].hi]).toEqual(wilson(log.share[2][1][3], log.n[2][3]));
  });

  it('says where the log lies above and below seeds that went all on one behavior', () => {
    const onDirect = [0, 1, 2].map(() => run(fit, 5, () => [0, 1, 0, 0]));
    const v = bandView(fit, r, onDirect);
    // five frames: log steps 2..6 only
    expect(v.cells[0][0].band.map((b) => b.step)).toEqual([2, 3, 4, 5, 6]);
    expect(v.words[0]).toMatch(/^code: the log is inside the band at \d+ of 20 behavior × step points; decompose above at steps 2–6; direct below at steps/);
    expect(v.cells[0][0].log.filter((x) => x.place === 'above').map((x) => x.step)).toEqual([2, 3, 4, 5, 6]);
  });
});

describe('the forecast the panel shows', () => {
  it('starts from any step with a later one, and is the core’s plan and errors', () => {
    expect(forecastSteps(r)).toEqual(r.frames.slice(0, -1).map((f) => f.step));
    const base = defaultConfig();
    const plan = pagePlan(r, 15, base, '');
    const core = forecastPlan(r, 15, 5, base, '');
    expect(plan.horizon).toBe(5);
    expect(plan.config).toEqual(core.config);
    // seeds that hold step 15's shares forecast exactly what the naive forecast does
    const log = logShares(plan.fit, r.frames);
    const held = [0, 1].map(() => run(plan.fit, 5, (s) => log.share[s].map((row) => row[14])));
    const v = forecastView(plan, r, held);
    for (const s of v.report.states) expect(s.summary.forecast).toBeCloseTo(s.summary.naive, 12);
    expect(v.words[0]).toBe('forecast from step 15, steps 16–20, 2 seeds; error = total variation distance of the behavior shares');
    expect(v.words.at(-1)).toMatch(/^every state: mean error/);
  });
});
