import { describe, expect, it } from 'vitest';
import type { MetricsFrame } from '../../core/metrics';
import { overTimePanels, passAtSeries, rulePanel } from './over-time';

const frame = (step: number, scalars: Record<string, number>, pass: number[] = [0.2, 0.5], base: number[] = [0.1, 0.3]): MetricsFrame => ({
  step, version: step, scalars, series: { 'support/pass_at_k': pass, 'support/pass_at_k_base': base }, ratioEdges: [], perf: {}, changes: {}, trace: [],
}) as unknown as MetricsFrame;

describe('overTimePanels', () => {
  it('plots reward, pass@k against the base, counters and shares from the frames', () => {
    const fs = [1, 2].map((s) => frame(s, { 'reward/mean': s / 10, 'esr/dropped': 0, 'esr/masked': 1, 'esr/mask0_compute_share': 0.3, 'esr/effective_rate': 0.5, 'esr/hint_accept_rate': 0, 'gap/requests_503': 0, 'gap/lost_503': 0 }));
    const p = overTimePanels(fs);
    expect(p.map((x) => x.yLabel)).toEqual(['reward', 'pass@k', 'samples', 'share']);
    expect(p[0].series[0].points).toEqual([{ step: 1, value: 0.1 }, { step: 2, value: 0.2 }]);
    expect(p[1].series.map((s) => s.label)).toEqual(['pass@1', 'pass@2']);
    expect(p[1].thresholds).toEqual([{ value: 0.1, label: 'base pass@1 0.10' }, { value: 0.3, label: 'base pass@2 0.30' }]);
    expect(p[2].series.map((s) => s.key)).toEqual(['esr/dropped', 'esr/masked']);
    expect(p[3].series.map((s) => s.key)).toEqual(['esr/mask0_compute_share', 'esr/effective_rate']); // hint rate all 0: not OPD
  });

  it('adds 503s when there were any, the samples each gate rule decided (named from the traces), and the compare run dashed', () => {
    const fs = [frame(1, { 'gap/requests_503': 2, 'gap/lost_503': 1 })];
    fs[0].series['gate/rule_counts'] = [3, 1, 0, 2];
    fs[0].trace = [{ rule: 0, ruleName: 'both' }, { rule: 3, ruleName: 'neither' }] as unknown as MetricsFrame['trace'];
    const p = overTimePanels(fs, fs);
    expect(p.map((x) => x.yLabel)).toEqual(['pass@k', 'requests']);
    const rules = rulePanel(fs, fs)!;
    const own = rules.series.filter((s) => !s.dashed);
    expect(own.map((s) => s.label)).toEqual(['both', 'rule 2', 'neither']);
    expect(own.map((s) => s.points)).toEqual([[{ step: 1, value: 3 }], [{ step: 1, value: 1 }], [{ step: 1, value: 2 }]]);
    expect(rules.series.filter((s) => s.dashed)).toHaveLength(3);
    expect(rulePanel([])).toBeNull();
    expect(overTimePanels([])).toEqual([]);
  });

  it('plots the turns served once a gate has dropped some (it serves more to fill the batch)', () => {
    const none = [1, 2].map((s) => frame(s, { 'esr/served': 64, 'esr/dropped': 0, 'esr/masked': 1 }));
    expect(overTimePanels(none).find((p) => p.yLabel === 'samples')?.series.map((s) => s.key)).toEqual(['esr/dropped', 'esr/masked']);
    const some = [1, 2].map((s) => frame(s, { 'esr/served': 100 + s, 'esr/dropped': 36 + s, 'esr/masked': 1 }));
    expect(overTimePanels(some).find((p) => p.yLabel === 'samples')?.series.map((s) => s.key)).toEqual(['esr/served', 'esr/dropped', 'esr/masked']);
  });

  it('passAtSeries reads index k − 1', () => {
    expect(passAtSeries([frame(3, {}, [0.1, 0.4, 0.9])], 3)).toEqual([{ step: 3, value: 0.9 }]);
  });
});
