import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rng } from '../rng';
import { MIN_PAIRS_FOR_INTERVAL, bootstrapMeanCi, intervalText, pairedComparison, quantileSorted, seedBand, signTestP, windowMean } from './stats';

const finite = fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true });

describe('seedBand', () => {
  it('hand-computed: min-max below 5 seeds, type-7 quartiles from 5', () => {
    expect(seedBand([3, 1, 2])).toEqual({ median: 2, lo: 1, hi: 3, kind: 'minmax', n: 3 });
    expect(seedBand([4, 1])).toEqual({ median: 2.5, lo: 1, hi: 4, kind: 'minmax', n: 2 });
    expect(seedBand([5, 1, 4, 2, 3])).toEqual({ median: 3, lo: 2, hi: 4, kind: 'iqr', n: 5 });
    expect(seedBand([6, 5, 4, 3, 2, 1])).toEqual({ median: 3.5, lo: 2.25, hi: 4.75, kind: 'iqr', n: 6 });
  });
  it('leaves out non-finite values (a diverged seed) and reports how many it used', () => {
    expect(seedBand([1, NaN, 3, Infinity])).toEqual({ median: 2, lo: 1, hi: 3, kind: 'minmax', n: 2 });
    expect(seedBand([]).n).toBe(0);
    expect(seedBand([NaN]).median).toBeNaN();
  });
  it('property: min <= lo <= median <= hi <= max, order-free, kind by n', () => {
    fc.assert(fc.property(fc.array(finite, { minLength: 1, maxLength: 40 }), (xs) => {
      const b = seedBand(xs);
      const r = seedBand([...xs].reverse());
      expect(r).toEqual(b);
      expect(Math.min(...xs)).toBeLessThanOrEqual(b.lo);
      expect(b.lo).toBeLessThanOrEqual(b.median);
      expect(b.median).toBeLessThanOrEqual(b.hi);
      expect(b.hi).toBeLessThanOrEqual(Math.max(...xs));
      expect(b.kind).toBe(xs.length >= 5 ? 'iqr' : 'minmax');
    }));
  });
  it('quantiles hit order statistics at their ranks', () => {
    expect(quantileSorted([10, 20, 30, 40, 50], 0)).toBe(10);
    expect(quantileSorted([10, 20, 30, 40, 50], 1)).toBe(50);
    expect(quantileSorted([10, 20], 0.5)).toBe(15);
  });
});

describe('signTestP', () => {
  it('hand-computed binomial tails', () => {
    expect(signTestP(7, 8)).toBe((2 * (1 + 8)) / 256); // 0.0703125
    expect(signTestP(1, 8)).toBe((2 * (1 + 8)) / 256);
    expect(signTestP(8, 8)).toBe(2 / 256);
    expect(signTestP(2, 10)).toBeCloseTo((2 * (1 + 10 + 45)) / 1024, 15); // 0.109375
    expect(signTestP(4, 8)).toBe(1);
    expect(signTestP(0, 0)).toBe(1);
    expect(signTestP(1, 1)).toBe(1);
  });
  it('rejects impossible counts', () => {
    expect(() => signTestP(3, 2)).toThrow(/0 <= k <= n/);
    expect(() => signTestP(1.5, 2)).toThrow();
  });
  it('property: equals brute-force enumeration of all sign vectors (n <= 12)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 12 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n }))), ([n, k]) => {
      const dev = Math.abs(k - n / 2);
      let extreme = 0;
      for (let m = 0; m < 2 ** n; m++) {
        let plus = 0;
        for (let b = 0; b < n; b++) plus += (m >> b) & 1;
        if (Math.abs(plus - n / 2) >= dev - 1e-12) extreme++;
      }
      expect(signTestP(k, n)).toBeCloseTo(Math.min(1, extreme / 2 ** n), 12);
    }));
  });
  it('property: symmetric in k <-> n-k, within (0, 1]', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 200 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n }))), ([n, k]) => {
      const p = signTestP(k, n);
      expect(p).toBeGreaterThan(0);
      expect(p).toBeLessThanOrEqual(1);
      expect(signTestP(n - k, n)).toBeCloseTo(p, 12);
    }));
  });
});

describe('pairedComparison', () => {
  it('hand-computed pairs, ties and direction', () => {
    const r = pairedComparison([1, 2, 3], [2, 2, 5]);
    expect(r.diffs).toEqual([1, 0, 2]);
    expect(r.meanDiff).toBe(1);
    expect(r.favourB).toBe(2);
    expect(r.ties).toBe(1);
    expect(r.signTestP).toBe(0.5); // 2 of 2 untied: 2 · (1/4)
    expect(pairedComparison([1, 2, 3], [2, 2, 5], { higherIsBetter: false }).favourB).toBe(0);
  });
  it('bootstrap: constant differences give a zero-width interval; 0/1 differences give the resample quantiles', () => {
    expect(pairedComparison([0, 1, 2, 3, 4], [0.5, 1.5, 2.5, 3.5, 4.5]).ci).toEqual([0.5, 0.5]);
    const r = pairedComparison([0, 0, 0, 0, 0], [0, 0, 1, 1, 1], { resamples: 4000 });
    expect(r.ci).toEqual([0.2, 1]); // P(mean <= 0.2) = 0.4^5 + 5·0.6·0.4^4 = 8.7 %, P(mean = 1) = 0.6^5 = 7.8 %
  });
  it(`below ${MIN_PAIRS_FOR_INTERVAL} pairs no interval is given, and the text says so with the count`, () => {
    for (const n of [1, 2, 3, 4]) {
      const r = pairedComparison(Array(n).fill(0), Array.from({ length: n }, (_, i) => i / 10));
      expect(r.ci).toBeNull();
      expect(intervalText(r, String)).toBe(`n = ${n} pair${n === 1 ? '' : 's'}: no 95 % interval is given below 5 pairs (it would cover far less often than 95 %)`);
    }
    const five = pairedComparison([0, 0, 0, 0, 0], [0.1, 0.1, 0.1, 0.1, 0.1]);
    expect(intervalText(five, (v) => v.toFixed(1))).toBe('95 % bootstrap CI [0.1, 0.1] over n = 5 pairs');
  });
  it('bootstrap equals a plain reference loop with the same rng', () => {
    const d = [0.3, -0.1, 0.25, 0.05, 0.4, -0.2, 0.1, 0.15];
    const ref = new Rng(7);
    const means: number[] = [];
    for (let r = 0; r < 2000; r++) {
      let s = 0;
      for (let i = 0; i < 8; i++) s += d[Math.floor(ref.next() * 8)];
      means.push(s / 8);
    }
    means.sort((x, y) => x - y);
    // type-7 quantile by hand: h = 1999 · 0.025 = 49.975, h = 1999 · 0.975 = 1949.025
    const lo = means[49] + 0.975 * (means[50] - means[49]);
    const hi = means[1949] + 0.025 * (means[1950] - means[1949]);
    const ci = bootstrapMeanCi(d, 2000, 0.95, new Rng(7));
    expect(ci[0]).toBeCloseTo(lo, 14);
    expect(ci[1]).toBeCloseTo(hi, 14);
  });
  it('is deterministic from the default seed and rejects bad input with a message', () => {
    const a = [0.1, 0.4, 0.3, 0.2, 0.5];
    const b = [0.2, 0.45, 0.1, 0.3, 0.6];
    expect(pairedComparison(a, b)).toEqual(pairedComparison(a, b));
    expect(() => pairedComparison([1], [1, 2])).toThrow(/as many/);
    expect(() => pairedComparison([], [])).toThrow(/at least one/);
    expect(() => pairedComparison([1, NaN], [1, 2])).toThrow(/pair 1 is not finite/);
    expect(() => pairedComparison([1], [2], { level: 1 })).toThrow(/level/);
  });
  it('property: swapping A and B mirrors the result; CI inside [min, max] of the diffs', () => {
    const pairs = fc.array(fc.tuple(fc.integer({ min: -50, max: 50 }), fc.integer({ min: -50, max: 50 })), { minLength: 1, maxLength: 16 });
    fc.assert(fc.property(pairs, fc.integer({ min: 0, max: 1000 }), (ps, seed) => {
      const a = ps.map((p) => p[0] / 10);
      const b = ps.map((p) => p[1] / 10);
      const ab = pairedComparison(a, b, { resamples: 200, rng: new Rng(seed) });
      const ba = pairedComparison(b, a, { resamples: 200, rng: new Rng(seed) });
      expect(ba.favourB).toBe(ab.n - ab.ties - ab.favourB);
      expect(ba.ties).toBe(ab.ties);
      expect(ba.signTestP).toBeCloseTo(ab.signTestP, 12);
      expect(ba.meanDiff).toBeCloseTo(-ab.meanDiff, 9);
      const lo = Math.min(...ab.diffs);
      const hi = Math.max(...ab.diffs);
      expect(ab.ci === null).toBe(ab.n < MIN_PAIRS_FOR_INTERVAL);
      if (!ab.ci) return;
      expect(ab.ci[0]).toBeGreaterThanOrEqual(lo - 1e-9);
      expect(ab.ci[1]).toBeLessThanOrEqual(hi + 1e-9);
      expect(ab.ci[0]).toBeLessThanOrEqual(ab.ci[1]);
    }));
  });
});

describe('windowMean', () => {
  const frames = [1, 2, 3, 4].map((step) => ({ step, scalars: (step === 3 ? {} : { m: step * 10 }) as Record<string, number> }));
  it('averages the steps inside [from, to], skipping frames without the metric', () => {
    expect(windowMean(frames, 'm', 2, 4)).toBe(30); // (20 + 40) / 2
    expect(windowMean(frames, 'm', 1, 1)).toBe(10);
    expect(windowMean(frames, 'm', 5, 9)).toBeNaN();
    expect(windowMean(frames, 'other', 1, 4)).toBeNaN();
  });
});
