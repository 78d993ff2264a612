import { describe, expect, it } from 'vitest';
import type { MetricsFrame } from '../../core/metrics';
import { fitTask } from '../../core/tasks/fit';
import { importExample } from '../../../tests/support/example-import';
import { fitComparison } from './fit-compare';

describe('the fit beside the import', () => {
  it('pairs each imported curve with the fitted task’s, per state, on one step axis', async () => {
    const m = await importExample('verl');
    const fit = fitTask(m);
    expect(fit.importNames.states).toEqual(fit.spec.states.map((s) => s.name)); // the example's names are spec names
    // a simulated run: frames whose behavior_dist keys use the fitted task's names
    const sim: MetricsFrame[] = [1, 2].map((step) => ({ ...m.frames[0], step, scalars: { ...m.frames[step - 1].scalars } }));
    const cmp = fitComparison(fit, m.frames, sim);
    expect(cmp.map((c) => c.state)).toEqual(fit.spec.states.map((s) => s.name));
    const first = cmp[0];
    const b = fit.spec.behaviors[0].name;
    const imported = first.series.find((x) => x.key === `imported/${b}`)!;
    const simulated = first.series.find((x) => x.key === `simulated/${b}`)!;
    expect(imported.points.map((p) => p.step)).toEqual(m.frames.map((_, i) => i + 1));
    expect(imported.points[0].value).toBe(m.frames[0].scalars[`support/behavior_dist/${first.importState}/${b}`]);
    expect(simulated.dashed).toBe(true);
    expect(simulated.points.map((p) => p.step)).toEqual([1, 2]);
    expect(simulated.color).toBe(imported.color);
    // and the share that is no behavior, in both runs
    expect(first.series.filter((x) => x.key.endsWith('/invalid')).map((x) => x.points.length)).toEqual([m.frames.length, 2]);
    expect(first.series).toHaveLength(2 * (fit.spec.behaviors.length + 1));
    // the fitted base mix is the imported first step's distribution over behaviors
    const mix = fit.spec.states[0].baseMix[b];
    const valid = fit.spec.behaviors.reduce((a, x) => a + (m.frames[0].scalars[`support/behavior_count/${first.importState}/${x.name}`] ?? 0), 0);
    expect(mix).toBeCloseTo((m.frames[0].scalars[`support/behavior_count/${first.importState}/${b}`] ?? 0) / valid, 12);
  });
});
