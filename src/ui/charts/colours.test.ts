import { describe, expect, it } from 'vitest';
import { makeConfig } from '../../core/config';
import type { MetricsFrame } from '../../core/metrics';
import { invariantCards } from '../views/invariants';
import { overTimePanels } from '../views/over-time';
import { QUANTITY_COLOURS, colourOf, meanColourOf } from './colours';
import type { Series } from './series';

// a frame where every metric the views plot is present and non-zero
const scalars: Record<string, number> = Object.fromEntries(Object.keys(QUANTITY_COLOURS).map((k) => [k, 0.5]));
for (const s of ['math', 'code', 'explain']) {
  scalars[`support/behavior_support/${s}`] = 2;
  scalars[`support/behavior_entropy/${s}`] = 0.7;
}
const frame = (step: number): MetricsFrame =>
  ({ step, scalars, series: { 'support/pass_at_k': [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1], 'support/pass_at_k_base': [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1] }, trace: [] }) as unknown as MetricsFrame;
const frames = [frame(1), frame(2)];

/** Every chart's solid series: no two share a colour or a legend label. */
function expectDistinct(name: string, series: Series[]): void {
  const solid = series.filter((s) => !s.dashed);
  expect(new Set(solid.map((s) => s.color)).size, `${name}: ${solid.map((s) => `${s.label} ${s.color}`).join(', ')}`).toBe(solid.length);
  expect(new Set(solid.map((s) => s.label)).size, name).toBe(solid.length);
}

describe('one colour per quantity', () => {
  it('no chart shows two quantities in one colour or two identical legend entries', () => {
    for (const picked of ['mean', 'code']) {
      for (const c of invariantCards(frames, frames, makeConfig({}), picked)) expectDistinct(`${c.title} (${picked})`, c.panels.flatMap((p) => p.series));
    }
    expectDistinct('Metrics over time', overTimePanels(frames, frames).flatMap((p) => p.series));
  });

  it('a quantity has the same colour in every view (token entropy is the headline blue in card ①)', () => {
    const card1 = invariantCards(frames, [], makeConfig({}), 'code')[0].panels.flatMap((p) => p.series);
    expect(card1.find((s) => s.key === 'support/token_entropy')!.color).toBe(colourOf('support/token_entropy'));
    expect(card1.find((s) => s.key === 'support/behavior_support/code')!.color).toBe(colourOf('support/behavior_support'));
    const metrics = overTimePanels(frames).flatMap((p) => p.series);
    const card4 = invariantCards(frames, [], makeConfig({}), 'mean')[3].panels.flatMap((p) => p.series);
    for (const k of ['esr/effective_rate', 'esr/masked', 'esr/dropped', 'esr/hint_accept_rate']) {
      expect(metrics.find((s) => s.key === k)!.color, k).toBe(card4.find((s) => s.key === k)!.color);
    }
  });

  it('the headline\'s means over states are their quantity\'s hue, lighter, and unlike every other headline colour', () => {
    const headline = ['support/token_entropy', 'support/behavior_entropy', 'support/behavior_support'].map((k) => colourOf(k));
    const means = [meanColourOf('support/behavior_entropy'), meanColourOf('support/behavior_support')];
    expect(new Set([...headline, ...means]).size).toBe(5);
    expect(meanColourOf('support/behavior_support')).toBe('#59C0A4');
    expect(() => colourOf('support/no_such_metric')).toThrow(/QUANTITY_COLOURS/);
  });
});
