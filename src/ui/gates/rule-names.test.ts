import { describe, expect, it } from 'vitest';
import { makeConfig } from '../../core/config';
import type { MetricsFrame } from '../../core/metrics';
import { rulePanel as rulesOf } from '../views/over-time';
import { ruleNamerOf } from './rule-names';

const GATE = 'votes_neg > 0 => drop # any no\ntrue => mask1 rl # rest';
const frame = (step: number, counts: number[]) => ({ step, scalars: {}, series: { 'gate/rule_counts': counts }, trace: [] }) as unknown as MetricsFrame;
const rulePanel = (...args: Parameters<typeof rulesOf>) => rulesOf(...args)!;

describe('rule names over a run', () => {
  it('names each step\'s rules from the gate in use then (a change after step s acts from s + 1)', () => {
    const at = ruleNamerOf([
      { step: 0, patch: makeConfig({ method: 'binary-rl' }) },
      { step: 3, patch: { gate: GATE } },
      { step: 5, patch: { clipHigh: 0.3 } },
      { step: 7, patch: { gate: '' } },
    ]);
    expect([1, 3].map((s) => at(s, 1)?.name)).toEqual(['at-least-one', 'at-least-one']);
    expect([4, 6, 7].map((s) => at(s, 0)?.name)).toEqual(['any no', 'any no', 'any no']);
    expect(at(4, 0)?.text).toBe('votes_neg > 0 => drop');
    expect(at(4, 2)?.name).toBe('no rule matched (dropped)');
    expect(at(8, 3)?.name).toBe('effective');
    expect(ruleNamerOf([])(1, 0)).toBeUndefined();
  });

  it('tracks the per-rule counts by rule, not by index, across a gate change', () => {
    // built-in Binary RL (no next state, at-least-one, score zero, effective), then GATE from step 2
    const at = ruleNamerOf([{ step: 0, patch: makeConfig({}) }, { step: 1, patch: { gate: GATE } }]);
    const panel = rulePanel([frame(1, [1, 2, 0, 7, 0]), frame(2, [2, 6, 0])], [], { a: at });
    expect(panel.series.map((s) => s.label)).toEqual(['no next state', 'at-least-one', 'effective', 'any no', 'rest']);
    expect(panel.series.map((s) => s.points.map((p) => p.value))).toEqual([[1, 0], [2, 0], [7, 0], [0, 2], [0, 6]]);
    expect(new Set(panel.series.map((s) => s.color)).size).toBe(5);
  });

  it('keeps each rule\'s colour when a gate applied later adds rules before it', () => {
    const at = ruleNamerOf([{ step: 0, patch: makeConfig({}) }, { step: 1, patch: { atLeastOne: false } }]);
    const before = rulePanel([frame(1, [1, 0, 3, 7, 0])], [], { a: at }).series;
    const after = rulePanel([frame(1, [1, 0, 3, 7, 0]), frame(2, [1, 4, 6, 0])], [], { a: at }).series;
    const colour = (ss: typeof before, l: string) => ss.find((s) => s.label === l)?.color;
    for (const l of ['no next state', 'score zero', 'effective']) expect(colour(after, l)).toBe(colour(before, l));
    // without at-least-one, "score zero" moved from index 2 to 1 and "effective" from 3 to 2: same series
    expect(after.find((s) => s.label === 'effective')!.points).toEqual([{ step: 1, value: 7 }, { step: 2, value: 6 }]);
    expect(after.map((s) => s.label)).toHaveLength(3);
  });

  it('a method switch lists each method\'s rules once, each under its own name', () => {
    const at = ruleNamerOf([{ step: 0, patch: makeConfig({ method: 'combine' }) }, { step: 1, patch: { method: 'opd' } }]);
    const labels = rulePanel([frame(1, [1, 2, 3, 4, 0]), frame(2, [5, 6, 7, 0])], [], { a: at }).series.map((s) => s.label);
    expect(labels).toEqual(['both', 'hint only', 'eval only', 'neither', 'no next state', 'hint rejected', 'hint accepted']);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('two rules with one label are told apart by their text; the compare run shares colours by rule', () => {
    const g = 'reward > 0 => mask1 rl # keep\ntrue => mask0 # keep';
    const at = ruleNamerOf([{ step: 0, patch: makeConfig({ gate: g }) }]);
    const series = rulePanel([frame(1, [2, 3, 0])], [frame(1, [0, 5, 0])], { a: at, b: at }).series;
    expect(series.filter((s) => !s.dashed).map((s) => s.label)).toEqual(['keep (reward > 0 => mask1 rl)', 'keep (true => mask0)']);
    const dashed = series.filter((s) => s.dashed);
    expect(dashed.map((s) => s.color)).toEqual(series.filter((s) => !s.dashed).map((s) => s.color));
  });
});
