// Hashed term vectors: a sample's terms (text.ts) weighted by kind and by how rare they are in the
// run so far (inverse document frequency over the hashed buckets), unit length. Groups of samples
// are kept as the SUM of their unit vectors: the average cosine between two groups (average
// linkage) is then exactly sumA · sumB / (nA · nB), with no member kept.
import { hash32 } from '../../rng';

/** A sparse vector: sorted distinct bucket indices and their values. */
export interface Sparse {
  i: Int32Array;
  v: Float64Array;
}

/** Weight of a term by its kind (the prefix before the first ':'). */
export type KindWeights = Readonly<Record<string, number>>;

export function bucketOf(term: string, dim: number): number {
  return hash32(term) % dim;
}

/**
 * What the clustering keeps of a sample's terms (text.ts) for a step, instead of the terms
 * themselves (a few hundred strings a sample): the distinct buckets of the terms that weigh, in
 * ascending order, and per bucket (1 + log of how many terms fell in it) × the largest kind weight
 * among them (what `vectorOf` scales by rarity and normalizes, in place: a doc is made a vector
 * once); and the distinct `w:` words and `s:` / `m:` shape terms and `l:len` length (prefix dropped,
 * first seen first), which the groups' word counts and names read.
 */
export interface Doc {
  keys: Int32Array;
  x: Float64Array;
  /** Per key: 1 when its terms are words (topic may weigh them down: `PromptSpread`), 0 for shape and length. */
  wordy: Uint8Array;
  words: string[];
  shape: string[];
  /** The opening as written (a `q:` term: no weight, for names only); '' when none. */
  opening: string;
  /** A request's last sentence as written (an `e:` term, names only); '' when none. */
  closing: string;
}

/** Kinds of term made of a text's words (the rest are shape and length). */
const WORDY = new Set(['w', 'b', 't', 'o', 'f', 'c']);

/** Builds docs with one set of scratch arrays (a step makes hundreds: no per-sample maps). */
export class DocBuilder {
  private readonly tf: Int32Array;
  private readonly w: Float64Array;
  private readonly touched: Int32Array;
  private readonly shapeAt: Uint8Array;

  constructor(
    readonly dim: number,
    readonly kinds: KindWeights,
  ) {
    this.tf = new Int32Array(dim);
    this.w = new Float64Array(dim);
    this.touched = new Int32Array(dim);
    this.shapeAt = new Uint8Array(dim);
  }

  /** A kind weighted 0 is no evidence: its terms are left out before hashing. */
  doc(terms: readonly string[]): Doc {
    const { tf, w, touched, kinds, dim, shapeAt } = this;
    let n = 0;
    const words: string[] = [];
    const shape: string[] = [];
    let opening = '';
    let closing = '';
    let seenW: Set<string> | null = null;
    let seenS: Set<string> | null = null;
    for (const t of terms) {
      // most kinds are one letter: its string, not a new slice a term
      const colon = t.indexOf(':');
      const kind = colon === 1 ? t[0] : t.slice(0, colon);
      if (kind === 'q') {
        opening ||= t.slice(2);
        continue;
      }
      if (kind === 'e') {
        closing ||= t.slice(2);
        continue;
      }
      const weight = kinds[kind];
      if (weight === 0) continue;
      const b = bucketOf(t, dim);
      const kw = weight ?? 1;
      if (tf[b] === 0) (touched[n++] = b), (w[b] = kw);
      else if (kw > w[b]) w[b] = kw;
      tf[b]++;
      if (!WORDY.has(kind)) shapeAt[b] = 1;
      if (kind === 'w') {
        // a word seen again is not sliced again
        if (!(seenW ??= new Set()).has(t)) (seenW.add(t), words.push(t.slice(2)));
      } else if (kind === 's' || kind === 'm' || (kind === 'l' && t.startsWith('l:len'))) {
        const body = t.slice(2);
        if (!(seenS ??= new Set()).has(body)) (seenS.add(body), shape.push(body));
      }
    }
    const keys = touched.slice(0, n).sort();
    const x = new Float64Array(n);
    const wordy = new Uint8Array(n);
    for (let k = 0; k < n; k++) {
      const b = keys[k];
      x[k] = (1 + Math.log(tf[b])) * w[b];
      wordy[k] = shapeAt[b] ? 0 : 1;
      tf[b] = 0;
      shapeAt[b] = 0;
    }
    return { keys, x, wordy, words, shape, opening, closing };
  }
}

/** A doc's buckets counted (one call a doc: a loop in its own function is compiled early, one over a whole step's docs late). */
function countKeys(df: Float64Array, keys: Int32Array): void {
  for (let k = 0; k < keys.length; k++) df[keys[k]]++;
}

/** Document frequencies over the buckets, counted step by step. */
export class DocFreq {
  readonly df: Float64Array;
  n = 0;
  constructor(readonly dim: number) {
    this.df = new Float64Array(dim);
  }

  /** Count each document's distinct buckets once. */
  add(docs: readonly Doc[]): void {
    for (const d of docs) {
      this.n++;
      countKeys(this.df, d.keys);
    }
  }

  idf(b: number): number {
    return Math.log((this.n + 1) / (this.df[b] + 1)) + 1;
  }
}

/**
 * Topic is not behavior, learned from the run: per bucket, how many distinct prompts had a sample
 * holding it (each step's prompts counted once a step), against how many it would have been had
 * the same number of samples held it independently of their prompt. A word seen in the samples of
 * many different prompts is frame evidence; one concentrated in a few prompts' samples is topic,
 * and weighs less. Two readings (`SpreadParams`):
 * - `ratio` (responses): observed / expected prompts, over `ratio` (at most 1). A frame written in
 *   many phrasings keeps each phrasing's words (rare, but not concentrated); a prompt's topic words
 *   come in all its samples and no other prompt's. With one sample a prompt nothing is concentrated.
 * - `share` (requests, one doc a distinct prompt): the prompts holding it over all prompts, over
 *   `share` (at most 1): a word of 15 % of the requests is a kind's (discoverer.ts `STATE_PARAMS`);
 *   one of a request or two is its topic.
 * Counted only once `MIN_PROMPTS` prompts were seen.
 */
export interface SpreadParams {
  ratio?: number;
  share?: number;
}

export class PromptSpread {
  /** Per bucket: prompts observed with it, and expected (ratio reading). */
  readonly df: Float64Array;
  readonly expected: Float64Array;
  prompts = 0;
  private readonly last: Int32Array;
  private readonly count: Int32Array;

  constructor(
    readonly dim: number,
    readonly p: SpreadParams,
  ) {
    this.df = new Float64Array(dim);
    this.expected = new Float64Array(dim);
    this.last = new Int32Array(dim).fill(-1);
    this.count = new Int32Array(dim);
  }

  get active(): boolean {
    return !!(this.p.ratio || this.p.share);
  }

  /** Count a step's docs, `prompt[k]` the prompt of doc k (any id: equal ids are one prompt). */
  add(docs: readonly Doc[], prompt: readonly string[]): void {
    const byPrompt = new Map<string, number[]>();
    docs.forEach((_, k) => {
      const list = byPrompt.get(prompt[k]);
      if (list) list.push(k);
      else byPrompt.set(prompt[k], [k]);
    });
    const touched: number[] = [];
    let p = 0;
    for (const ks of byPrompt.values()) {
      for (const k of ks) this.count1(docs[k].keys, p, touched);
      p++;
    }
    if (this.p.ratio) {
      // expected prompts: Σ over prompt sizes g of (prompts of that size) × (1 − (1 − k/N)^g)
      const sizes = promptSizes(byPrompt.values());
      const [g, n] = [[...sizes.keys()], [...sizes.values()]];
      for (const b of touched) this.expected[b] += expectedOver(1 - this.count[b] / docs.length, g, n);
    }
    for (const b of touched) (this.count[b] = 0), (this.last[b] = -1);
    this.prompts += byPrompt.size;
  }

  /** One doc of prompt `p` counted (one call a doc: a loop in its own function is compiled early, one over a whole step's docs late). */
  private count1(keys: Int32Array, p: number, touched: number[]): void {
    const { count, last, df } = this;
    for (let j = 0; j < keys.length; j++) {
      const b = keys[j];
      if (count[b] === 0) touched.push(b);
      count[b]++;
      if (last[b] !== p) (last[b] = p), df[b]++;
    }
  }

  weight(b: number): number {
    if (this.prompts < MIN_PROMPTS) return 1;
    if (this.p.ratio) return this.expected[b] < 2 ? 1 : Math.min(1, this.df[b] / this.expected[b] / this.p.ratio);
    if (this.p.share) return Math.min(1, this.df[b] / this.prompts / this.p.share);
    return 1;
  }
}

export const MIN_PROMPTS = 24;

/** How many prompts have each number of samples in a step. */
export function promptSizes(groups: Iterable<{ length: number }>): Map<number, number> {
  const sizes = new Map<number, number>();
  for (const g of groups) sizes.set(g.length, (sizes.get(g.length) ?? 0) + 1);
  return sizes;
}

/**
 * The prompts expected to have a sample holding a term that `held` of a step's `n` samples hold,
 * had they held it independently of their prompt: Σ over prompt sizes g of (prompts of that size) × (1 − (1 − held/n)^g).
 */
export function expectedPrompts(held: number, n: number, sizes: ReadonlyMap<number, number>): number {
  return expectedOver(1 - held / n, [...sizes.keys()], [...sizes.values()]);
}

/**
 * Whether a word of a step is a prompt's topic, not a frame (the judgment `PromptSpread.weight`
 * makes of a hashed term over the run in its `ratio` reading, made here of one word in one step,
 * exactly): held by `prompts` distinct prompts and `held` of the step's `n` samples, under `ratio` of
 * the prompts expected (with two expected or more).
 */
export function concentrated(ratio: number, held: number, prompts: number, n: number, sizes: ReadonlyMap<number, number>): boolean {
  const e = expectedPrompts(held, n, sizes);
  return e >= 2 && prompts / e < ratio;
}

/** Σ over prompt sizes g[j] of n[j] × (1 − q^g[j]), in order (one call a bucket: compiled early). */
function expectedOver(q: number, g: readonly number[], n: readonly number[]): number {
  let e = 0;
  for (let j = 0; j < g.length; j++) e += n[j] * (1 - q ** g[j]);
  return e;
}

/**
 * How much a shape or length term weighs by how common it is, besides its idf: a term held by more
 * than `share` of the run's samples fades linearly to nothing at all of them (every trace of a
 * reasoning run has a think: that it has one tells its behaviors nothing apart, and at a shape
 * weight it would outweigh the words that do).
 */
export function commonShapeFade(df: DocFreq, b: number, share: number): number {
  return share > 0 && share < 1 ? Math.min(1, Math.log((df.n + 1) / (df.df[b] + 1)) / -Math.log(share)) : 1;
}

/**
 * What `vectorOf` scales each bucket's terms by, for the run as counted so far: a word's idf^idfPower
 * × its spread over prompts (`PromptSpread`), a shape or length term's idf^shapeIdf × its fade when
 * nearly every sample has it (`commonShapeFade`). Made once for the buckets, not per term of every
 * doc (a step's docs share them); `current` says whether the counts have moved since.
 */
export class TermWeights {
  /** Per bucket, a word's idf^idfPower and its spread weight; a shape's idf^shapeIdf and its fade (1: none). */
  readonly wordIdf: Float64Array;
  readonly spreadOf: Float64Array;
  readonly shapeIdf: Float64Array;
  readonly fade: Float64Array;
  private readonly n: number;
  private readonly prompts: number;

  constructor(
    private readonly df: DocFreq,
    private readonly spread: PromptSpread,
    idfPower: number,
    shapeIdf = idfPower,
    shapeCommon = 0,
  ) {
    this.n = df.n;
    this.prompts = spread.prompts;
    const dim = df.dim;
    this.wordIdf = new Float64Array(dim);
    this.spreadOf = new Float64Array(dim);
    this.shapeIdf = new Float64Array(dim);
    this.fade = new Float64Array(dim);
    for (let b = 0; b < dim; b++) {
      const idf = df.idf(b);
      this.wordIdf[b] = idf ** idfPower;
      this.spreadOf[b] = spread.weight(b);
      this.shapeIdf[b] = idf ** shapeIdf;
      this.fade[b] = shapeCommon ? commonShapeFade(df, b, shapeCommon) : 1;
    }
  }

  current(): boolean {
    return this.n === this.df.n && this.prompts === this.spread.prompts;
  }
}

/**
 * The unit vector of a document: per bucket (1 + log tf) × kind weight × its bucket's weight
 * (`TermWeights`), made in the doc's own weights (a step holds one array a sample, not two): call it
 * once a doc.
 */
export function vectorOf(d: Doc, w: TermWeights): Sparse {
  const v = d.x;
  let norm = 0;
  for (let k = 0; k < v.length; k++) {
    // two products in turn, as the weights were defined (not their product first: the same bits)
    const b = d.keys[k];
    if (d.wordy[k]) v[k] = v[k] * w.wordIdf[b] * w.spreadOf[b];
    else v[k] = v[k] * w.shapeIdf[b] * w.fade[b];
    norm += v[k] * v[k];
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (let k = 0; k < v.length; k++) v[k] /= norm;
  return { i: d.keys, v };
}

export function dotDense(a: Sparse, dense: ArrayLike<number>): number {
  let s = 0;
  for (let k = 0; k < a.i.length; k++) s += a.v[k] * dense[a.i[k]];
  return s;
}

/** a + b, sparse. */
export function addSparse(a: Sparse, b: Sparse): Sparse {
  const i: number[] = [];
  const v: number[] = [];
  let x = 0;
  let y = 0;
  while (x < a.i.length || y < b.i.length) {
    if (y >= b.i.length || (x < a.i.length && a.i[x] < b.i[y])) (i.push(a.i[x]), v.push(a.v[x++]));
    else if (x >= a.i.length || b.i[y] < a.i[x]) (i.push(b.i[y]), v.push(b.v[y++]));
    else (i.push(a.i[x]), v.push(a.v[x++] + b.v[y++]));
  }
  return { i: Int32Array.from(i), v: Float64Array.from(v) };
}

/** A sparse vector written into a dense row (`clear`: its buckets set back to 0). */
export function spreadInto(dense: Float64Array, a: Sparse, clear = false): void {
  for (let j = 0; j < a.i.length; j++) dense[a.i[j]] = clear ? 0 : a.v[j];
}

export function addInto(dense: Float64Array, a: Sparse, scale = 1): void {
  for (let k = 0; k < a.i.length; k++) dense[a.i[k]] += scale * a.v[k];
}

export function toSparse(dense: ArrayLike<number>): Sparse {
  const i: number[] = [];
  const v: number[] = [];
  for (let k = 0; k < dense.length; k++) if (dense[k] !== 0) (i.push(k), v.push(dense[k]));
  return { i: Int32Array.from(i), v: Float64Array.from(v) };
}
