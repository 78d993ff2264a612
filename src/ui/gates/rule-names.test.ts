import { describe, expect, it } from 'vitest';
import { makeConfig } from '../../core/config';
import type { MetricsFrame } from '../../core/metrics';
import { overTimePanels } from '../views/over-time';
import { ruleNamerOf } from './rule-names';

const GATE = 'votes_neg > 0 => drop # any no\ntrue => mask1 rl # rest';

describe('rule names over a run', () => {
  it('names each step\'s rules from the gate in use then (a change after step s acts from s + 1)', () => {
    const at = ruleNamerOf([
      { step: 0, patch: makeConfig({ method: 'binary-rl' }) },
      { step: 3, patch: { gate: GATE } },
      { step: 5, patch: { clipHigh: 0.3 } },
      { step: 7, patch: { gate: '' } },
    ]);
    expect([1, 3].map((s) => at(s, 1))).toEqual(['at-least-one', 'at-least-one']);
    expect([4, 6, 7].map((s) => at(s, 0))).toEqual(['any no', 'any no', 'any no']);
    expect(at(4, 2)).toBe('no rule matched (dropped)');
    expect(at(8, 3)).toBe('effective');
    expect(ruleNamerOf([])(1, 0)).toBeUndefined();
  });

  it('labels the per-rule counts with every rule an index stood for', () => {
    const frame = (step: number, counts: number[]) => ({ step, scalars: {}, series: { 'gate/rule_counts': counts }, trace: [] }) as unknown as MetricsFrame;
    const at = ruleNamerOf([{ step: 0, patch: makeConfig({}) }, { step: 1, patch: { gate: GATE } }]);
    const panel = overTimePanels([frame(1, [1, 0, 0, 7, 0]), frame(2, [2, 6, 0])], [], at).find((p) => p.yLabel === 'samples by gate rule')!;
    expect(panel.series.map((s) => s.label)).toEqual(['rule 1: no next state / any no', 'rule 2: rest', 'rule 4: effective']);
  });
});
