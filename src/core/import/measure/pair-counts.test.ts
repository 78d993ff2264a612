import { describe, expect, it } from 'vitest';
import { Rng } from '../../rng';
import { PairCounts } from './pair-counts';

describe('PairCounts', () => {
  it('counts pairs in order of first appearance, as a Map keyed by the pair does, through growth', () => {
    const rng = new Rng(3);
    const t = new PairCounts();
    const ref = new Map<string, { a: number; b: number; n: number; id: number }>();
    const ids: number[] = [];
    const want: number[] = [];
    for (let i = 0; i < 20000; i++) {
      // a skewed draw: many repeats, many distinct pairs, large ids
      const a = rng.int(50) * 40000;
      const b = rng.int(rng.next() < 0.5 ? 5 : 3000);
      const by = 1 + rng.int(3);
      const key = `${a},${b}`;
      const e = ref.get(key) ?? ref.set(key, { a, b, n: 0, id: ref.size }).get(key)!;
      e.n += by;
      ids.push(t.add(a, b, by));
      want.push(e.id);
    }
    expect(ids).toEqual(want);
    expect(t.size).toBe(ref.size);
    const got = Array.from({ length: t.size }, (_, id) => ({ a: t.first(id), b: t.second(id), n: t.count(id) }));
    expect(got).toEqual([...ref.values()].map(({ a, b, n }) => ({ a, b, n })));
  });
});
