import { describe, expect, it } from 'vitest';
import { packRows, spreadUp, wrapText } from './placement';

describe('label placement', () => {
  it('stacks labels of equal values upwards, leaves far ones alone', () => {
    expect(spreadUp([100, 100, 40], 14)).toEqual([100, 86, 40]);
    expect(spreadUp([50, 95, 100], 14)).toEqual([50, 86, 100]);
  });

  it('packs overlapping spans into rows, reusing a row once the span before has ended', () => {
    expect(packRows([{ x0: 0, x1: 100 }, { x0: 50, x1: 150 }, { x0: 120, x1: 200 }, { x0: 300, x1: 350 }], 3)).toEqual([0, 1, 0, 0]);
    // more overlapping spans than rows: the row that ends first
    expect(packRows([{ x0: 0, x1: 100 }, { x0: 10, x1: 50 }, { x0: 20, x1: 60 }], 2)).toEqual([0, 1, 1]);
  });

  it('wraps a title into lines that fit', () => {
    const lines = wrapText('Metrics over time: reward, pass@k, samples, 503s', 300, 17, true);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join(' ')).toBe('Metrics over time: reward, pass@k, samples, 503s');
    for (const l of lines) expect(l.length * 17 * 0.6).toBeLessThanOrEqual(300);
    expect(wrapText('short', 300, 17)).toEqual(['short']);
  });
});
