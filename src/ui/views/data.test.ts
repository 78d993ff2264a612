import { describe, expect, it } from 'vitest';
import type { SampleRecord } from '../../core/gates/sample';
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import { behaviorsOf } from '../../core/measure/state-markers';
import { behaviorSampling, clipShares, funnelStages, ratioBins, scalarSeries, stateSeries, statesOf, supportAt, supportSeries } from './data';

const frame = (step: number, scalars: Record<string, number>, trace: SampleTrace[] = [], ruleCounts: number[] = []): MetricsFrame => ({
  step, version: step, scalars, series: { 'support/pass_at_k': [], 'support/pass_at_k_base': [], 'gap/ratio_hist': [], 'gate/rule_counts': ruleCounts },
  ratioEdges: [], perf: { 'perf/steps_per_s': 0, 'perf/tokens_per_s': 0 }, changes: {}, trace,
});
const dist = (state: string, p: number[]) => ({
  [`support/behavior_entropy/${state}`]: 0,
  [`support/behavior_dist/${state}/a`]: p[0],
  [`support/behavior_dist_se/${state}/a`]: 0.01,
  [`support/behavior_dist/${state}/b`]: p[1],
  [`support/behavior_dist/${state}/invalid`]: p[2],
});

describe('views/data', () => {
  const frames = [frame(1, { ...dist('x', [0.5, 0.45, 0.05]), ...dist('y', [0.97, 0.01, 0.02]), 'support/token_entropy': 2 }), frame(2, { ...dist('x', [0.9, 0.1, 0]), ...dist('y', [1, 0, 0]) })];

  it('reads states, behaviors (invalid last, no standard errors) and scalar series', () => {
    expect(statesOf(frames)).toEqual(['x', 'y']);
    expect(behaviorsOf(frames, 'x')).toEqual(['a', 'b', 'invalid']);
    expect(scalarSeries(frames, 'support/token_entropy')).toEqual([{ step: 1, value: 2 }]);
  });

  it('recomputes support at any ε from the recorded distribution, per state and as a mean', () => {
    expect(supportAt(frames[0], 'x', ['a', 'b', 'invalid'], 0.02)).toBe(2);
    expect(supportAt(frames[0], 'y', ['a', 'b', 'invalid'], 0.02)).toBe(1);
    expect(supportAt(frames[0], 'x', ['a', 'b', 'invalid'], 0.5)).toBe(0);
    expect(supportSeries(frames, 'mean', 0.02)).toEqual([{ step: 1, value: 1.5 }, { step: 2, value: 1.5 }]);
    expect(supportSeries(frames, 'x', 0.2)).toEqual([{ step: 1, value: 2 }, { step: 2, value: 1 }]);
    expect(stateSeries(frames, 'support/behavior_dist/x/a' as 'support/behavior_entropy', 'mean')).toEqual([]);
    expect(stateSeries([frame(1, { 'm/x': 1, 'm/y': 3, 'support/behavior_entropy/x': 0, 'support/behavior_entropy/y': 0 })], 'm' as 'support/behavior_entropy', 'mean')).toEqual([{ step: 1, value: 2 }]);
  });

  it('bins the ratio histogram with open ends and splits the clipped share by side', () => {
    const edges = [0.8, 0.9, 1.1, 1.2, 1.28];
    const bins = ratioBins([1, 2, 10, 3, 1, 3], edges);
    expect(bins[0]).toMatchObject({ hi: 0.8, count: 1, open: true });
    expect(bins[0].lo).toBeCloseTo(0.7);
    expect(bins[5].lo).toBe(1.28);
    expect(bins[5].hi).toBeCloseTo(1.36);
    const s = clipShares(bins, 0.2, 0.28);
    expect(s.total).toBe(20);
    expect(s.low).toBeCloseTo(1 / 20);
    expect(s.high).toBeCloseTo(3 / 20);
    expect(s.straddle).toBe(0);
    expect(clipShares(bins, 0.15, 0.28).straddle).toBeCloseTo(2 / 20);
    expect(ratioBins([1, 2], [1, 2])).toEqual([]);
  });

  it('builds the funnel from scalars and traces', () => {
    const t = (rule: number, ruleName: string, queued: boolean, lossMask: number, adv: number, votes = [1]): SampleTrace => ({
      session: 0, turn: 0, state: 'x', response: '', behavior: 'a', votes, score: 0, reward: 0, hint: null, hintVotes: [],
      queued, lossMask, rule, ruleName, fields: {} as SampleRecord, advMean: adv, advMin: adv, advMax: adv, advantages: [adv],
    });
    const f = frame(3, { 'esr/served': 4, 'esr/queued': 3, 'esr/masked': 2, 'esr/dropped': 1, 'esr/overflow': 0, 'esr/effective_rate': 0.33 }, [
      t(3, 'effective', true, 1, 1), t(1, 'at-least-one', true, 1, 0), t(0, 'no next state', true, 0, 0, []), t(2, 'score zero', false, 0, 0),
    ], [1, 1, 1, 1, 0]);
    const st = funnelStages(f);
    expect(st.map((s) => [s.key, s.count])).toEqual([['served', 4], ['judged', 3], ['gated', 4], ['queued', 3], ['effective', 1]]);
    expect(st[2].parts.find((p) => p.label === 'at-least-one')).toEqual({ label: 'at-least-one', count: 1, kind: 'mask1' });
    expect(st[2].parts.find((p) => p.label === 'score zero')?.kind).toBe('drop');
    expect(st[2].parts.reduce((a, p) => a + p.count, 0)).toBe(4);
    // exact per-rule counts from the frame, names from the gate when given
    const g = funnelStages(frame(1, { 'esr/served': 10 }, [], [7, 0, 3]), [], [{ name: 'a', decision: 'mask0' }, { name: 'b', decision: 'mask1' }, { name: 'none', decision: 'drop' }]);
    expect(g[2].parts).toEqual([{ label: 'a', count: 7, kind: 'mask0' }, { label: 'none', count: 3, kind: 'drop' }]);
    expect(st.every((s) => !s.estimated)).toBe(true);
    expect(funnelStages(frame(1, { 'esr/served': 16, 'esr/queued': 16, 'esr/effective_rate': 0.5 }), [])[4]).toMatchObject({ count: 8, estimated: true });
  });
});

describe('behaviorSampling', () => {
  it('an imported run says how many of its samples were counted per state and step, a trained run its Monte Carlo samples', () => {
    const imported = [frame(1, { 'import/state_samples/math': 32, 'import/state_samples/code': 32 }), frame(2, { 'import/state_samples/math': 32, 'import/state_samples/code': 32 })];
    expect(behaviorSampling(imported, ['math', 'code'], '64')).toBe('counted from the imported log: 32 samples per state per step');
    expect(behaviorSampling([frame(1, { 'import/state_samples/a': 12 }), frame(2, { 'import/state_samples/a': 40 })], ['a'], '64')).toBe('counted from the imported log: 12–40 samples per state per step');
    expect(behaviorSampling([frame(1, { 'support/behavior_entropy/a': 1 })], ['a'], '64')).toBe('Monte Carlo, 64 samples per state');
  });
});
