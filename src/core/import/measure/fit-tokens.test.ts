// The token level the import counts for a task fit (fit-tokens.ts): lengths, and the repeats of the
// fillers (the tokens that are not in every response of the state × behavior), counted by hand.
import { describe, expect, it } from 'vitest';
import { ResponseTokens } from './fit-tokens';
import type { ScalarsWith } from '../../measure/names';

const scalarsOf = (t: ResponseTokens) => {
  const out: ScalarsWith = {};
  t.scalars(out);
  return out as Record<string, number>;
};

describe('the token level of a step', () => {
  it('counts lengths, and the repeats of the fillers only (a token in every response is the form)', () => {
    const t = new ResponseTokens();
    t.add('s', 'b', ['A', 'x', 'y', 'x', '.']);
    t.add('s', 'b', ['A', 'y', '.']);
    t.add('s', 'b', ['A', 'z', '.']);
    t.add('s', 'c', ['only']);
    const k = scalarsOf(t);
    // form: A and . (in all three); fillers: x ×2, y ×2, z ×1 → N = 5, Σ c(c − 1) = 2 + 2 = 4
    expect(k['import/length_count/s/b/5']).toBe(1);
    expect(k['import/length_count/s/b/3']).toBe(2);
    expect(k['import/filler_pairs/s/b']).toBe(20);
    expect(k['import/filler_repeats/s/b']).toBe(4);
    // one response: every token is its form, nothing counted
    expect(k['import/length_count/s/c/1']).toBe(1);
    expect('import/filler_pairs/s/c' in k).toBe(false);
    expect(t.entries).toBe(6);
  });

  it('counts a token once per response for the form, however often it repeats there', () => {
    const t = new ResponseTokens();
    t.add('s', 'b', ['w', 'w', 'w']);
    t.add('s', 'b', ['v']);
    const k = scalarsOf(t);
    // w is in one of two responses: a filler (3 of them), v too → N = 4, Σ c(c − 1) = 6
    expect([k['import/filler_pairs/s/b'], k['import/filler_repeats/s/b']]).toEqual([12, 6]);
  });
});
