import { describe, expect, it } from 'vitest';
import { makeConfig } from '../../core/config';
import type { MetricsFrame } from '../../core/metrics';
import { invariantCards } from '../views/invariants';
import { overTimePanels } from '../views/over-time';
import { QUANTITY_COLOURS, colourOf, meanColourOf } from './colours';
import { deltaE, simulate, type Vision } from './vision';
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
    expect(() => colourOf('support/no_such_metric')).toThrow(/QUANTITY_COLOURS/);
  });

  it('the headline\'s five series look different to normal vision and with deuteranopia or protanopia (ΔE ≥ 20 between every pair)', () => {
    const drawn = [
      colourOf('support/token_entropy'),
      colourOf('support/behavior_entropy'),
      meanColourOf('support/behavior_entropy'),
      colourOf('support/behavior_support'),
      meanColourOf('support/behavior_support'),
    ];
    const close: string[] = [];
    for (const vision of ['normal', 'deuteranopia', 'protanopia'] as Vision[]) {
      for (let i = 0; i < drawn.length; i++)
        for (let j = i + 1; j < drawn.length; j++) {
          const d = deltaE(simulate(drawn[i], vision), simulate(drawn[j], vision));
          if (d < 20) close.push(`${vision}: ${drawn[i]} ~ ${drawn[j]} (ΔE ${d.toFixed(1)})`);
        }
    }
    expect(close).toEqual([]);
  });

  it('the simulation and ΔE are the published ones on known colours', () => {
    expect(deltaE('#ffffff', '#000000')).toBeCloseTo(100, 1);
    // red and green collapse for a deuteranope and a protanope, not for normal vision
    expect(deltaE(simulate('#D55E00', 'normal'), simulate('#009E73', 'normal'))).toBeGreaterThan(60);
    expect(deltaE(simulate('#ff0000', 'deuteranopia'), simulate('#00a000', 'deuteranopia'))).toBeLessThan(deltaE('#ff0000', '#00a000') / 3);
    expect(simulate('#0072B2', 'normal')).toBe('#0072b2');
  });
});
