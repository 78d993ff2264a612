// Every task fitted from any histogram of counts passes the spec's own validator: the fit's
// distributions (base mix, judge truth, next-state mix, filler counts) are shares of counts, each in
// [0, 1] and summing to 1 within the validator's tolerance by construction (fit-dist.ts). The
// property runs over random imports (states × behaviors × steps, behavior, reward, length, session
// counts) with fast-check; one fixed case is the verl run whose fitted spec the validator refused
// (`fillers[6]: a probability in [0, 1] (got 1.0000000000000002)`: fractions summed, 9/28 + 18/28 + 1/28).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REWARD_SIGNS, behaviorCountKey, endCountKey, fillerPairsKey, fillerRepeatsKey, lengthCountKey, nextCountKey, noNextCountKey, rewardCountKey, stateSamplesKey } from '../import/measure/fit-keys';
import { TOKEN_CAP } from '../import/measure/measure';
import { sharesOf } from './fit-dist';
import { fitTask } from './fit';
import type { FitSource } from './fit-sums';
import { INVALID_NAME } from './spec';
import { validateTaskSpec } from './validate';

type Frame = FitSource['frames'][number];

interface Cell {
  count: number;
  rewards: number[];
  lengths: [number, number][];
  repeats: number;
  pairs: number;
  next: number[];
  ends: number;
  noNext: number;
}

/** One step's counts per state × behavior (the last behavior is the import's invalid one). */
function frameOf(step: number, states: string[], behaviors: string[], cells: Cell[][], sessions: boolean): Frame {
  const scalars: Record<string, number> = {};
  states.forEach((s, i) => {
    scalars[stateSamplesKey(s)] = cells[i].reduce((a, c) => a + c.count, 0);
    behaviors.forEach((b, j) => {
      const c = cells[i][j];
      scalars[behaviorCountKey(s, b)] = c.count;
      REWARD_SIGNS.forEach((x, k) => (scalars[rewardCountKey(s, b, x)] = c.rewards[k]));
      for (const [L, n] of c.lengths) scalars[lengthCountKey(s, b, L)] = (scalars[lengthCountKey(s, b, L)] ?? 0) + n;
      scalars[fillerRepeatsKey(s, b)] = c.repeats;
      scalars[fillerPairsKey(s, b)] = c.pairs;
      if (!sessions) return;
      states.forEach((t, k) => (scalars[nextCountKey(s, b, t)] = c.next[k % c.next.length]));
      scalars[endCountKey(s, b)] = c.ends;
      scalars[noNextCountKey(s, b)] = c.noNext;
    });
  });
  return { step, scalars } as unknown as Frame;
}

const count = fc.nat({ max: 40 });
const cell: fc.Arbitrary<Cell> = fc.record({
  count,
  rewards: fc.array(count, { minLength: 3, maxLength: 3 }),
  // lengths in clusters (a few neighbours), so that several land on one filler slot when the range is scaled
  lengths: fc
    .tuple(fc.nat({ max: TOKEN_CAP }), fc.array(fc.tuple(fc.nat({ max: 3 }), fc.integer({ min: 1, max: 60 })), { minLength: 2, maxLength: 6 }))
    .map(([base, xs]) => xs.map(([d, n]): [number, number] => [Math.min(TOKEN_CAP, base + d), n])),
  repeats: count,
  pairs: count,
  next: fc.array(count, { minLength: 1, maxLength: 4 }),
  ends: count,
  noNext: count,
});

const source: fc.Arbitrary<FitSource> = fc
  .record({ states: fc.integer({ min: 1, max: 4 }), behaviors: fc.integer({ min: 1, max: 5 }), steps: fc.integer({ min: 1, max: 3 }), sessions: fc.boolean() })
  .chain(({ states, behaviors, steps, sessions }) =>
    fc.array(fc.array(fc.array(cell, { minLength: behaviors + 1, maxLength: behaviors + 1 }), { minLength: states, maxLength: states }), { minLength: steps, maxLength: steps }).map((frames) => {
      const s = Array.from({ length: states }, (_, i) => `state ${i}`);
      const b = [...Array.from({ length: behaviors }, (_, i) => `act_${i}`), INVALID_NAME];
      return { format: sessions ? 'openclaw' : 'verl', states: s, behaviors: b, frames: frames.map((cells, k) => frameOf(k, s, b, cells, sessions)) } as FitSource;
    }),
  );

/** The fit's spec through JSON and the validator, as the CLI writes and reads it. */
const errorsOf = (src: FitSource) => validateTaskSpec(JSON.parse(JSON.stringify(fitTask(src).spec))).errors;
/** An import the fit accepts: some state has a sample of some behavior. */
const fittable = (src: FitSource) => src.frames.some((f) => Object.entries(f.scalars).some(([k, v]) => k.startsWith('support/behavior_count/') && !k.endsWith(`/${INVALID_NAME}`) && (v as number) > 0));

describe('a fitted task is valid for any counts', () => {
  it('the verl case: lengths 9/28 + 18/28 + 1/28 of one cell mapped to one filler slot make exactly 1', () => {
    const zero: Omit<Cell, 'count' | 'lengths'> = { rewards: [1, 0, 0], repeats: 2, pairs: 6, next: [0], ends: 0, noNext: 0 };
    // the lengths span 0..24 tokens: s = 11/24, and lengths 12, 13, 14 (9, 18 and 1 responses: 9/28 + 18/28 + 1/28 = 1.0000000000000002) all land on filler 6
    const cells: Cell[][] = [[{ ...zero, count: 28, lengths: [[12, 9], [13, 18], [14, 1]] }, { ...zero, count: 2, lengths: [[0, 1], [24, 1]] }, { ...zero, count: 0, lengths: [] }]];
    const src = { format: 'verl', states: ['search'], behaviors: ['search_first', 'answer', INVALID_NAME], frames: [frameOf(0, ['search'], ['search_first', 'answer', INVALID_NAME], cells, false)] } as FitSource;
    const spec = fitTask(src).spec;
    expect(spec.states[0].responses?.search_first.fillers[6]).toBe(1);
    expect(errorsOf(src)).toEqual([]);
  });

  it('every spec fitted from random histograms passes the validator', () => {
    fc.assert(
      fc.property(source, (src) => {
        fc.pre(fittable(src));
        expect(errorsOf(src)).toEqual([]);
      }),
      { numRuns: 800, seed: 35 },
    );
  });

  it('shares of counts lie in [0, 1] and sum to 1 within 1e-12', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.nat({ max: 1000 }), fc.double({ min: 0, max: 1e6, noNaN: true })), { minLength: 1, maxLength: 260 }), (counts) => {
        fc.pre(counts.some((c) => c > 0));
        const p = sharesOf(counts);
        expect(p.every((x) => x >= 0 && x <= 1)).toBe(true);
        expect(Math.abs(p.reduce((a, x) => a + x, 0) - 1)).toBeLessThan(1e-12);
      }),
      { numRuns: 500, seed: 35 },
    );
  });
});
