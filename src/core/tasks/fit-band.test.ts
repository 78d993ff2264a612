// The seed band on fixed share tables, against values worked by hand: R type-7 quantiles, the
// alignment of a run's frame k with the log's step anchor + k, the Wilson interval, the log's place
// and the words that say it.
import { describe, expect, it } from 'vitest';
import { bandWords, placeOf, seedBands, shareBand, stepRanges, wilson } from './fit-band';
import type { ShareTable } from './fit-shares';

/** A table of one state and two behaviors; share of behavior 0 given per step, behavior 1 the rest. */
const table = (steps: number[], b0: number[], n: number[] = steps.map(() => NaN)): ShareTable => ({
  steps,
  share: [[b0, b0.map((x) => 1 - x)]],
  n: [n],
});

describe('the seed band', () => {
  // the log: steps 10..13 (10 = the anchor: the fitted base); runs: frames 1..3 = log steps 11..13
  const log = table([10, 11, 12, 13], [0.5, 0.9, 0.3, 0.5], [20, 200, 200, 4]);
  const runs = [0.1, 0.2, 0.3, 0.4, 0.5].map((x) => table([1, 2, 3], [x, x + 0.1, x + 0.2]));

  it('per log step after the anchor: the seeds’ median and 10–90 % quantiles (R type 7)', () => {
    const band = shareBand(log, 0, runs, 0, 0);
    expect(band.map((p) => p.step)).toEqual([11, 12, 13]);
    // values 0.1..0.5: h = 4q → q10 = 0.1 + 0.4·0.1 = 0.14, q90 = 0.4 + 0.6·0.1 = 0.46, median 0.3
    expect(band[0].median).toBeCloseTo(0.3, 12);
    expect(band[0].lo).toBeCloseTo(0.14, 12);
    expect(band[0].hi).toBeCloseTo(0.46, 12);
    expect(band[2].median).toBeCloseTo(0.5, 12);
    expect(band.every((p) => p.seeds === 5)).toBe(true);
    // IQR instead: 0.2 and 0.4
    const iqr = shareBand(log, 0, runs, 0, 0, { quantiles: [0.25, 0.75] });
    expect([iqr[0].lo, iqr[0].hi].map((x) => +x.toFixed(12))).toEqual([0.2, 0.4]);
  });

  it('a run started from a later anchor lines up with the steps after it; seeds without a frame are left out', () => {
    const short = [table([1], [0.7]), table([1, 2], [0.2, 0.6])];
    const band = shareBand(log, 1, short, 0, 0);
    expect(band.map((p) => [p.step, p.seeds, +p.median.toFixed(12)])).toEqual([[12, 2, 0.45], [13, 1, 0.6]]);
  });

  it('the Wilson interval of 5 of 10 is [0.2366, 0.7634]; of 0 of 20 starts at 0', () => {
    const [lo, hi] = wilson(0.5, 10);
    expect(lo).toBeCloseTo(0.2366, 4);
    expect(hi).toBeCloseTo(0.7634, 4);
    expect(wilson(0, 20)[0]).toBe(0);
    expect(wilson(0, 20)[1]).toBeCloseTo(0.1611, 4);
    expect(wilson(0.5, 0)).toEqual([NaN, NaN]);
  });

  it('at 0 and 1 the bound is exactly the end (no rounding puts a log at 0 above seeds at 0)', () => {
    // centre − half rounds to 1.4e-17 at n = 22 and centre + half to 1 − 1e-16 at n = 21
    for (let n = 1; n <= 200; n++) {
      expect(wilson(0, n)[0]).toBe(0);
      expect(wilson(1, n)[1]).toBe(1);
    }
    expect(placeOf(0, 22, { lo: 0, hi: 0 })).toBe('inside');
    expect(placeOf(1, 21, { lo: 1, hi: 1 })).toBe('inside');
  });

  it('the log is above or below only when its own interval clears the band', () => {
    expect(placeOf(0.9, 200, { lo: 0.2, hi: 0.5 })).toBe('above');
    expect(placeOf(0.9, 4, { lo: 0.2, hi: 0.5 })).toBe('inside'); // 4 samples: Wilson [0.42, 0.99] reaches into the band
    expect(placeOf(0.1, 200, { lo: 0.2, hi: 0.5 })).toBe('below');
    expect(placeOf(0.3, 200, { lo: 0.2, hi: 0.5 })).toBe('inside');
    expect(placeOf(NaN, 200, { lo: 0.2, hi: 0.5 })).toBe('none');
  });

  it('places the log at every step and says where, in words', () => {
    const bands = seedBands(log, 0, runs);
    // step 11: 0.9 over 200 (band 0.14–0.46) above; 12: 0.3 inside (0.24–0.56); 13: 0.5 over 4 inside
    expect(bands[0].behaviors[0].places).toEqual(['above', 'inside', 'inside']);
    // behavior 1 mirrors it: 0.1 over 200 against 0.54–0.86
    expect(bands[0].behaviors[1].places).toEqual(['below', 'inside', 'inside']);
    expect(bandWords(bands, { states: ['math'], behaviors: ['decompose', 'direct'] })).toEqual([
      'math: the log is inside the band at 4 of 6 behavior × step points; decompose above at step 11; direct below at step 11',
    ]);
    const inside = seedBands(table([10, 11], [0.5, 0.3], [20, 20]), 0, runs);
    expect(bandWords(inside, { states: ['math'], behaviors: ['a', 'b'] })).toEqual(['math: the log is inside the band at 2 of 2 behavior × step points (everywhere)']);
  });

  it('steps as ranges over the steps compared', () => {
    expect(stepRanges([3, 4, 5, 9], [1, 2, 3, 4, 5, 6, 7, 8, 9])).toBe('3–5, 9');
    expect(stepRanges([2, 4], [2, 4, 6])).toBe('2–4'); // consecutive among the steps compared
    expect(stepRanges([], [1])).toBe('');
  });
});
