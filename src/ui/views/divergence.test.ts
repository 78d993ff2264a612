import { describe, expect, it } from 'vitest';
import { describeMarker, divergenceMarkers, type DivergencePoint } from './divergence';

const series = (support: number[], tokenEntropy: number[]): DivergencePoint[] => support.map((s, i) => ({ step: i + 1, support: s, tokenEntropy: tokenEntropy[i] }));

describe('divergenceMarkers', () => {
  it('marks a drop that persists while token entropy stays high as a divergence', () => {
    const m = divergenceMarkers(series([4, 4, 4, 4, 2, 2, 2, 1, 1], [2, 2, 2, 1.95, 1.9, 1.9, 1.85, 1.8, 1.8]));
    expect(m.map((x) => [x.step, x.from, x.to, x.kind])).toEqual([
      [5, 4, 2, 'divergence'],
      [8, 2, 1, 'divergence'],
    ]);
    expect(m[0].tokenShare).toBeCloseTo(0.95);
  });

  it('calls it a plain collapse when token entropy fell below the high share too', () => {
    const m = divergenceMarkers(series([4, 4, 4, 3, 3, 3], [2, 2, 2, 1.2, 1.1, 1]));
    expect(m).toHaveLength(1);
    expect(m[0]).toMatchObject({ step: 4, from: 4, to: 3, kind: 'collapse' });
    expect(m[0].tokenShare).toBeCloseTo(0.6);
    expect(divergenceMarkers(series([4, 4, 4, 3, 3, 3], [2, 2, 2, 1.2, 1.1, 1]), { highShare: 0.5 })[0].kind).toBe('divergence');
  });

  it('ignores a one-point Monte Carlo dip, and a flicker does not re-mark the same level', () => {
    expect(divergenceMarkers(series([4, 4, 3, 4, 4, 4], [2, 2, 2, 2, 2, 2]))).toEqual([]);
    const m = divergenceMarkers(series([4, 4, 2, 2, 3, 2, 3, 2, 2], [2, 2, 2, 2, 2, 2, 2, 2, 2]));
    expect(m.map((x) => [x.step, x.to])).toEqual([[3, 2]]);
  });

  it('a lasting recovery raises the level, so a later drop is marked again; a short one does not', () => {
    const h = new Array(12).fill(2);
    expect(divergenceMarkers(series([4, 4, 2, 2, 4, 4, 4, 4, 4, 2, 2], h)).map((x) => x.step)).toEqual([3, 10]);
    expect(divergenceMarkers(series([4, 4, 2, 2, 4, 4, 4, 2, 2], h)).map((x) => x.step)).toEqual([3]);
    expect(divergenceMarkers(series([4, 4, 2, 2, 4, 4, 4, 2, 2], h), { recover: 3 }).map((x) => x.step)).toEqual([3, 8]);
  });

  it('handles fractional mean support, NaN points, persist 1 and empty input', () => {
    expect(divergenceMarkers([])).toEqual([]);
    const m = divergenceMarkers(series([4, 3.67, NaN, 3.33], [2, 2, 2, 2]), { persist: 1 });
    expect(m.map((x) => [x.step, x.to])).toEqual([
      [2, 3.67],
      [4, 3.33],
    ]);
  });

  it('does not mark drops from a single behavior (1→0: no valid behavior, not lost diversity)', () => {
    const h = new Array(8).fill(2);
    expect(divergenceMarkers(series([1, 1, 0, 0, 1, 0, 0, 0], h))).toEqual([]);
    expect(divergenceMarkers(series([2, 2, 1, 1, 0, 0, 0, 0], h)).map((x) => [x.from, x.to])).toEqual([[2, 1]]);
    expect(divergenceMarkers(series([1, 1, 0, 0], h), { minFrom: 1 })).toHaveLength(1);
  });

  it('describes markers in plain words', () => {
    expect(describeMarker({ step: 5, from: 4, to: 2, tokenShare: 0.95, kind: 'divergence' }, 'math')).toBe('math: 4→2 behaviors, token entropy still 95 % of start');
    expect(describeMarker({ step: 5, from: 4, to: 3.5, tokenShare: 0.4, kind: 'collapse' }, 'mean')).toBe('mean support: 4→3.50 behaviors, token entropy fell too (40 % of start)');
  });
});
