import { describe, expect, it } from 'vitest';
import { axisOf, constantOf } from './axis';
import type { Series } from './series';

const series = (values: number[]): Series[] => [{ key: 'k', label: 'k', color: '#000', points: values.map((value, step) => ({ step, value })) }];

describe('axisOf', () => {
  it('a z-scored reward of ±1e-15 is the constant 0, not a ±1e-15 axis', () => {
    const s = series([1e-15, -1e-15, 3e-16, -8e-16]);
    expect(constantOf(s)).toBe(0);
    const a = axisOf(s, 105);
    expect(a.constant).toBe(0);
    // the axis spans a readable range (0..1), so the noise draws as a flat line
    expect(a.y.domain()[1] - a.y.domain()[0]).toBeGreaterThan(0.5);
  });

  it('a float32 log-prob gap of 1e-7 is constant 0 (lesson j)', () => {
    expect(constantOf(series([0, 1.2e-7, 6e-8, 2.4e-7]))).toBe(0);
  });

  it('values equal up to a few ulps are constant at their value, with unique ticks', () => {
    const v = Math.LN2;
    const s = series([v, v + Number.EPSILON, v - Number.EPSILON, v]);
    const a = axisOf(s, 105);
    expect(a.constant).toBeCloseTo(v, 12);
    expect(new Set(a.ticks).size).toBe(a.ticks.length);
    expect(a.ticks.length).toBeGreaterThan(1);
  });

  it('a real variation is not constant: 0.003 → 0.0032 nats, a KL of 1e-4', () => {
    expect(constantOf(series([0.003, 0.0031, 0.0032]))).toBeNull();
    expect(constantOf(series([0, 1e-4, 2e-4]))).toBeNull();
    expect(axisOf(series([0.003, 0.0032]), 105).constant).toBeNull();
  });

  it('ticks stay unique on a sub-resolution domain even when given one', () => {
    const v = 0.6931471805599453;
    const a = axisOf(series([v]), 200, { yDomain: [v, v + 4 * Number.EPSILON] });
    expect(new Set(a.ticks).size).toBe(a.ticks.length);
  });

  it('no data: no constant', () => {
    expect(constantOf(series([]))).toBeNull();
    expect(constantOf(series([NaN]))).toBeNull();
  });
});
