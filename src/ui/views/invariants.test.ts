import { describe, expect, it } from 'vitest';
import { makeConfig } from '../../core/config';
import type { MetricsFrame } from '../../core/metrics';
import { invariantCards } from './invariants';

const frame = (scalars: Record<string, number>): MetricsFrame => ({ step: 1, version: 1, scalars, series: {}, ratioEdges: [], perf: {}, changes: {}, trace: [] }) as unknown as MetricsFrame;

describe('invariant cards', () => {
  it('a metric the run does not have reads "not in this run", never NaN (imported logs have no grad/norm)', () => {
    const imported = invariantCards([frame({ 'grad/reward_var': 0.45 })], undefined, makeConfig({}), 'mean');
    expect(imported[1].line).toMatch(/grad\/norm not in this run/);
    expect(imported.map((c) => c.line).join(' ')).not.toMatch(/NaN/);
    const trained = invariantCards([frame({ 'grad/norm': 0.25 })], undefined, makeConfig({}), 'mean');
    expect(trained[1].line).toMatch(/grad\/norm 0\.25/);
  });

  it('panel ① lists only the series the run has (an import has no I(S;B) or best-behavior match); before the first frame every series is listed', () => {
    const imported = invariantCards([frame({ 'support/behavior_support/all': 2, 'support/behavior_entropy/all': 0.9, 'support/token_entropy': 1.5, 'support/behavior_cond_entropy': 0.9 })], undefined, makeConfig({}), 'mean');
    const labels = imported[0].panels.flatMap((p) => p.series.map((x) => x.key));
    expect(labels).toEqual(['support/behavior_support/all', 'support/token_entropy', 'support/behavior_cond_entropy']);
    expect(imported[0].panels.every((p) => p.series.every((x) => x.points.length > 0))).toBe(true);
    const empty = invariantCards([], undefined, makeConfig({}), 'mean');
    expect(empty[0].panels.flatMap((p) => p.series.map((x) => x.key))).toContain('support/behavior_mutual_info');
  });
});
