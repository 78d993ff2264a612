import { describe, expect, it } from 'vitest';
import { onsetStep, type Point } from './onset';

const series = (values: number[], first = 1): Point[] => values.map((value, i) => ({ step: first + i, value }));

describe('onsetStep', () => {
  it('finds where the trailing mean covers a quarter of the way from baseline to end level', () => {
    // 4 for 10 steps, then 1 from step 11: baseline 4, end 1, threshold 3.25;
    // trailing 5-mean at step 11 = (4·4 + 1)/5 = 3.4, at step 12 = (3·4 + 2)/5 = 2.8 → 12
    const s = series([...new Array(10).fill(4), ...new Array(10).fill(1)]);
    expect(onsetStep(s, 'fall')).toBe(12);
    expect(onsetStep(s.map((p) => ({ ...p, value: -p.value })), 'rise')).toBe(12);
  });

  it('one noisy step does not trigger it; no change, the wrong direction or too short a run gives null', () => {
    // a single value at 0.1 is past the threshold 0.8, its trailing mean 0.82 is not
    const spike = series([...new Array(10).fill(1), 0.1, ...new Array(9).fill(1), ...new Array(10).fill(0.2)]);
    expect(onsetStep(spike, 'fall')).toBe(22);
    expect(onsetStep(series(new Array(20).fill(2)), 'fall')).toBeNull();
    expect(onsetStep(series([...new Array(10).fill(1), ...new Array(10).fill(2)]), 'fall')).toBeNull();
    expect(onsetStep(series([1, 0]), 'fall')).toBeNull();
    expect(onsetStep(series([...new Array(10).fill(1), ...new Array(10).fill(0.95)]), 'fall', 0.1)).toBeNull();
  });

  it('uses the steps of the points (a fork starts later) and rejects bad input', () => {
    expect(onsetStep(series([...new Array(10).fill(4), ...new Array(10).fill(1)], 101), 'fall')).toBe(112);
    expect(() => onsetStep(series([1, NaN, 1, 1]), 'fall')).toThrow(/non-finite/);
    expect(() => onsetStep(series([1, 1]), 'fall', 0, { window: 0, fraction: 0.5 })).toThrow(/window/);
    expect(() => onsetStep(series([1, 1]), 'fall', 0, { window: 2, fraction: 2 })).toThrow(/fraction/);
  });
});
