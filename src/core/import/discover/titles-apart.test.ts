// Titles a person can tell apart (issue 45 §5): every name listed beside another (merged ones
// included: the page and `npm run import` list them all) reads differently, by what sets its members
// apart; a group no one opening holds most of says its two leading ones.
import { describe, expect, it } from 'vitest';
import { makeCorpus } from '../../../../tests/support/discover-corpus';
import { BehaviorDiscoverer, StateDiscoverer } from './discoverer';
import { apartTitle, type Sibling } from './names-apart';

const group = (n: number, shape: Record<string, number>): Sibling => ({ n, shape: new Map(Object.entries(shape)) });

describe('titles told apart', () => {
  it('by the shape or length that sets the members apart, a second when the first is taken too', () => {
    const mine = group(10, { len7: 10, bullets: 7 });
    // Claude opens most answers "I need to": this group writes 128–255 words, the other 64–127
    expect(apartTitle(mine, '"I need to…"', [{ title: '"I need to…"', ...group(20, { len6: 18, len7: 2 }) }])).toBe('"I need to…" · 128–255 words');
    // the next difference when the first's title is listed already (bullets: 0.7 against 0.1)
    const taken = [
      { title: '"I need to…"', ...group(20, { len6: 18, len7: 2 }) },
      { title: '"I need to…" · 128–255 words', ...group(13, { len7: 13, bullets: 3 }) },
    ];
    expect(apartTitle(mine, '"I need to…"', taken)).toBe('"I need to…" · bullets');
    // both listed: what sets the members apart from the groups of the longer title is said too
    taken.push({ title: '"I need to…" · bullets', ...group(6, { len6: 6, bullets: 6 }) });
    expect(apartTitle(mine, '"I need to…"', taken)).toBe('"I need to…" · 128–255 words · bullets');
    // lengths spread over buckets: a bound most members keep and none of the other group's
    expect(apartTitle(group(11, { len2: 2, len4: 5, len5: 3, len6: 1 }), 'no tool call', [{ title: 'no tool call', ...group(14, { len3: 14 }) }])).toBe('no tool call · 16+ words');
    // nothing sets them apart: no title made up
    expect(apartTitle(group(5, { code: 5 }), 'code', [{ title: 'code', ...group(9, { code: 9 }) }])).toBeNull();
  });

  it('on a generated run, no two names listed at the end read alike', () => {
    const corpus = makeCorpus({ seed: 3, steps: 9, perStep: 40 });
    const [b, st] = [new BehaviorDiscoverer(), new StateDiscoverer()];
    for (let s = 1; s <= 9; s++) {
      const held = corpus.filter((t) => t.sample.step === s).map((t) => t.sample);
      st.labelStep(s, held);
      b.labelStep(s, held);
    }
    for (const d of [b, st]) {
      const titles = d.behaviors().map((x) => x.title);
      expect(titles.filter((t) => / \(~\d+\)$/.test(t))).toEqual([]);
      expect(new Set(titles).size).toBe(titles.length);
    }
    // a state of two tasks says both openings
    expect(st.behaviors().find((x) => x.name === 'write-a-short')?.title).toBe('"Find the latest…" / "Could you write…"');
  });
});
