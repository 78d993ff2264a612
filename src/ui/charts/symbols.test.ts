import { describe, expect, it } from 'vitest';
import { HATCHES, SHAPE_COUNT, markerPoints, shapeIndex, shapePath } from './symbols';

describe('the second channel: marker shapes and hatches', () => {
  it('gives each series label its own shape, and a compare series its run\'s', () => {
    const m = shapeIndex([
      { key: 'a:tok', label: 'token entropy' },
      { key: 'a:beh', label: 'behavior entropy' },
      { key: 'b:tok', label: 'token entropy — compare' },
      { key: 'b:beh', label: 'behavior entropy — compare' },
    ]);
    expect([...m]).toEqual([['a:tok', 0], ['a:beh', 1], ['b:tok', 0], ['b:beh', 1]]);
  });

  it('has as many distinct shapes and hatches as it claims', () => {
    expect(new Set(Array.from({ length: SHAPE_COUNT }, (_, i) => shapePath(i))).size).toBe(SHAPE_COUNT);
    expect(new Set(HATCHES.map((h) => h.path)).size).toBe(HATCHES.length);
  });

  it('puts about one marker per spacing on a line, shifted by the phase, skipping gaps', () => {
    const pts = Array.from({ length: 61 }, (_, step) => ({ step, value: step === 30 ? Number.NaN : 1 }));
    const px = (s: number) => s * 10;
    expect(markerPoints(pts, px, 100, 0).map((p) => p.step)).toEqual([0, 10, 20, 31, 40, 50, 60]);
    expect(markerPoints(pts, px, 100, 0.5).map((p) => p.step)).toEqual([5, 15, 25, 35, 45, 55]);
  });
});
