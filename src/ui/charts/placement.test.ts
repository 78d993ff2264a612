import { describe, expect, it } from 'vitest';
import { packRows, spreadUp, thresholdBaselines, wrapText } from './placement';

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

  describe('threshold labels', () => {
    const label = { lineY: 40, x0: 300, x1: 600 };
    const flat = (y: number, x0 = 0, x1 = 640) => [{ x: x0, y }, { x: (x0 + x1) / 2, y }, { x: x1, y }];
    const above = (b: number, lineY = 40) => b < lineY;

    it('sit above the dashed line where the series leave it clear, below where a series runs just above it', () => {
      expect(above(thresholdBaselines([label], [flat(120)], 13, 190)[0])).toBe(true);
      expect(above(thresholdBaselines([label], [flat(48)], 13, 190)[0])).toBe(true); // just below the line: above is clear
      // token entropy running just above ln #behaviors at the right end: the label goes below
      const [b] = thresholdBaselines([label], [flat(120), [{ x: 0, y: 100 }, { x: 280, y: 34 }, { x: 640, y: 32 }]], 13, 190);
      expect(b).toBeGreaterThan(40 + 13 * 0.8);
      expect(b).toBeLessThan(40 + 20);
    });

    it('judges only the label span: a series above the line to the left of the label leaves it above', () => {
      expect(above(thresholdBaselines([label], [flat(32, 0, 250), flat(120, 260, 640)], 13, 190)[0])).toBe(true);
    });

    it('stays above when both sides are crossed alike, or when below would leave the panel', () => {
      expect(above(thresholdBaselines([label], [flat(32), flat(48)], 13, 190)[0])).toBe(true);
      expect(above(thresholdBaselines([{ ...label, lineY: 180 }], [flat(172)], 13, 190)[0], 180)).toBe(true);
    });

    it('reads a step curve as drawn and a break (NaN) as nothing drawn', () => {
      // steps: held at y 34 up to x 640; linear, the segment would fall to 120 and mostly leave the box above clear
      const steps = [{ x: 0, y: 34 }, { x: 640, y: 120 }];
      expect(above(thresholdBaselines([label], [steps], 13, 190, { stepAfter: true })[0])).toBe(false);
      expect(above(thresholdBaselines([label], [steps], 13, 190)[0])).toBe(true);
      expect(above(thresholdBaselines([label], [[{ x: 0, y: 34 }, { x: 320, y: NaN }, { x: 640, y: 34 }]], 13, 190)[0])).toBe(true);
    });

    it('labels of near values on one side stack apart, each side its own way', () => {
      const two = thresholdBaselines([label, { ...label, lineY: 42 }], [flat(120)], 13, 190);
      expect(Math.abs(two[0] - two[1])).toBeGreaterThanOrEqual(13);
      expect(two.every((b) => b < 42)).toBe(true);
      const under = thresholdBaselines([label, { ...label, lineY: 42 }], [flat(33)], 13, 190);
      expect(under.every((b) => b > 42)).toBe(true);
      expect(Math.abs(under[0] - under[1])).toBeGreaterThanOrEqual(13);
    });
  });
});
