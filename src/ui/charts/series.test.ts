import { describe, expect, it } from 'vitest';
import { PALETTE, contrast, formatValue, inkOn, nearestIndex, stepExtent, textColor, valueExtent, type Series } from './series';

const pts = [0, 2, 4, 10].map((step) => ({ step, value: step * 2 }));

describe('chart series helpers', () => {
  it('nearestIndex finds the closest step', () => {
    expect(nearestIndex([], 3)).toBe(-1);
    expect(nearestIndex(pts, -5)).toBe(0);
    expect(nearestIndex(pts, 2.9)).toBe(1);
    expect(nearestIndex(pts, 3.1)).toBe(2);
    expect(nearestIndex(pts, 8)).toBe(3);
    expect(nearestIndex(pts, 99)).toBe(3);
  });

  it('extents cover every series and ignore non-finite values', () => {
    const s: Series[] = [
      { key: 'a', label: 'a', color: '#000', points: pts },
      { key: 'b', label: 'b', color: '#000', points: [{ step: 12, value: Number.NaN }] },
    ];
    expect(stepExtent(s)).toEqual([0, 12]);
    const [lo, hi] = valueExtent(s, 0);
    expect([lo, hi]).toEqual([0, 20]);
    expect(valueExtent([])).toEqual([0, 1]);
  });

  it('valueExtent: all-zero data gets a 0..1 axis, a constant one an axis from 0', () => {
    const flat = (v: number): Series[] => [{ key: 'k', label: 'k', color: '#000', points: [1, 2, 3].map((step) => ({ step, value: v })) }];
    expect(valueExtent(flat(0))).toEqual([0, 1]);
    expect(valueExtent(flat(2), 0)).toEqual([0, 2]);
    expect(valueExtent(flat(-2), 0)).toEqual([-2, 0]);
  });

  it('formatValue keeps tooltips exact but short', () => {
    expect(formatValue(0.123456789)).toBe('0.12346');
    expect(formatValue(3)).toBe('3');
    expect(formatValue(0.00001234)).toBe('1.234e-5');
  });

  it('coloured small text and chip labels reach WCAG AA (4.5:1)', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21);
    expect(contrast('#CC79A7', '#ffffff')).toBeLessThan(4.5); // the failure this fixes
    for (const c of [...PALETTE, '#CC79A7', '#777777', '#BBBBBB']) {
      expect(contrast(textColor(c), '#ffffff'), c).toBeGreaterThanOrEqual(4.5);
      expect(contrast(inkOn(c), c), c).toBeGreaterThanOrEqual(4.5);
    }
    expect(textColor('#000000')).toBe('#000000');
  });
});
