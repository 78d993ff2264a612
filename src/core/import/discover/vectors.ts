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
 * once); and the distinct `w:` words and `s:` shape terms (prefix dropped, first seen first), which
 * the groups' word counts and names read.
 */
export interface Doc {
  keys: Int32Array;
  x: Float64Array;
  words: string[];
  shape: string[];
}

/** Builds docs with one set of scratch arrays (a step makes hundreds: no per-sample maps). */
export class DocBuilder {
  private readonly tf: Int32Array;
  private readonly w: Float64Array;
  private readonly touched: Int32Array;

  constructor(
    readonly dim: number,
    readonly kinds: KindWeights,
  ) {
    this.tf = new Int32Array(dim);
    this.w = new Float64Array(dim);
    this.touched = new Int32Array(dim);
  }

  /** A kind weighted 0 is no evidence: its terms are left out before hashing. */
  doc(terms: readonly string[]): Doc {
    const { tf, w, touched, kinds, dim } = this;
    let n = 0;
    const words: string[] = [];
    const shape: string[] = [];
    let seenW: Set<string> | null = null;
    let seenS: Set<string> | null = null;
    for (const t of terms) {
      const kind = t.slice(0, t.indexOf(':'));
      const weight = kinds[kind];
      if (weight === 0) continue;
      const b = bucketOf(t, dim);
      const kw = weight ?? 1;
      if (tf[b] === 0) (touched[n++] = b), (w[b] = kw);
      else if (kw > w[b]) w[b] = kw;
      tf[b]++;
      if (kind === 'w') {
        const body = t.slice(2);
        if (!(seenW ??= new Set()).has(body)) (seenW.add(body), words.push(body));
      } else if (kind === 's') {
        const body = t.slice(2);
        if (!(seenS ??= new Set()).has(body)) (seenS.add(body), shape.push(body));
      }
    }
    const keys = touched.slice(0, n).sort();
    const x = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      const b = keys[k];
      x[k] = (1 + Math.log(tf[b])) * w[b];
      tf[b] = 0;
    }
    return { keys, x, words, shape };
  }
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
      for (const b of d.keys) this.df[b]++;
    }
  }

  idf(b: number): number {
    return Math.log((this.n + 1) / (this.df[b] + 1)) + 1;
  }
}

/**
 * The unit vector of a document: per bucket (1 + log tf) × kind weight × idf^idfPower, made in the
 * doc's own weights (a step holds one array a sample, not two): call it once a doc.
 */
export function vectorOf(d: Doc, df: DocFreq, idfPower = 1): Sparse {
  const v = d.x;
  let norm = 0;
  for (let k = 0; k < v.length; k++) {
    v[k] = v[k] * df.idf(d.keys[k]) ** idfPower;
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

export function dotSparse(a: Sparse, b: Sparse): number {
  let s = 0;
  let x = 0;
  let y = 0;
  while (x < a.i.length && y < b.i.length) {
    if (a.i[x] === b.i[y]) s += a.v[x++] * b.v[y++];
    else if (a.i[x] < b.i[y]) x++;
    else y++;
  }
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

export function addInto(dense: Float64Array, a: Sparse, scale = 1): void {
  for (let k = 0; k < a.i.length; k++) dense[a.i[k]] += scale * a.v[k];
}

export function toSparse(dense: ArrayLike<number>): Sparse {
  const i: number[] = [];
  const v: number[] = [];
  for (let k = 0; k < dense.length; k++) if (dense[k] !== 0) (i.push(k), v.push(dense[k]));
  return { i: Int32Array.from(i), v: Float64Array.from(v) };
}
