import { describe, expect, it } from 'vitest';
import { growingEnd, growingExtent, liveCharts } from './live-charts';

describe('the growing step axis', () => {
  it('ends at the next nice number past the last step', () => {
    expect([0, 1, 2, 4, 5, 9, 10, 19, 20, 29, 30, 49, 74, 75, 99, 1000].map(growingEnd)).toEqual([1, 2, 3, 5, 7.5, 10, 20, 20, 30, 30, 50, 50, 75, 100, 100, 2000]);
  });
  it('rescales only a few times per decade as steps arrive one by one', () => {
    const ends = new Set<number>();
    for (let s = 1; s <= 1000; s++) ends.add(growingExtent([1, s])[1]);
    expect(ends.size).toBeLessThanOrEqual(16);
    for (let s = 1; s <= 1000; s++) expect(growingExtent([1, s])[1]).toBeGreaterThan(s);
  });
  it("after the follow, the axis is the data's", () => {
    expect(liveCharts([], false).extent([3, 40])).toEqual([3, 40]);
  });
});
