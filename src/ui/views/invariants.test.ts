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
});
