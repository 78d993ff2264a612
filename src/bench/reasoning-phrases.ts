// English phrasings of a reasoning trace's filler and seeded choices, shared by the discovery-at-scale
// bench (reasoning-step.ts) and the generated corpora the tests measure discovery on.
import { Rng } from '../core/rng';

export const EN_NOUNS = ['value', 'term', 'step', 'condition', 'result', 'number', 'total', 'part', 'case', 'constraint', 'pattern', 'difference', 'count', 'statement', 'assumption'];
export const EN_VERBS = ['gives', 'means', 'changes', 'depends on', 'matches', 'affects', 'fixes', 'implies', 'leaves', 'determines'];
export const EN_ADJ = ['first', 'remaining', 'total', 'given', 'last', 'whole', 'original', 'final', 'other'];
export const EN_FILLER = [
  'The {adj} {noun} {verb} the {t}.',
  'So the {t} {verb} the {adj} {noun}.',
  'We know the {noun} of the {t}, so the {noun2} {verb} it.',
  'Then I look at the {t} again and the {noun} {verb} the {noun2}.',
  'That {noun} {verb} how the {t} works here.',
  'Now, the {adj} {noun} is {n}, and the {t} {verb} that.',
  'If the {t} {verb} the {noun}, then the {noun2} is {n}.',
];

/** Seeded choices. */
export class Gen {
  private readonly rng: Rng;
  constructor(seed: number) {
    this.rng = new Rng(seed);
  }
  r(): number {
    return this.rng.next();
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.rng.int(xs.length)];
  }
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + this.rng.int(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.rng.next() < p;
  }
  /** A key drawn by weight. */
  weighted<K extends string>(w: Readonly<Record<K, number>>): K {
    const keys = Object.keys(w) as K[];
    return keys[this.rng.categorical(keys.map((k) => w[k]))];
  }
  shuffled<T>(xs: readonly T[]): T[] {
    const out = [...xs];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.rng.int(i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}
