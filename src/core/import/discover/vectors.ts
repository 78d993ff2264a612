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

/** Document frequencies over the buckets, counted step by step. */
export class DocFreq {
  readonly df: Float64Array;
  n = 0;
  constructor(readonly dim: number) {
    this.df = new Float64Array(dim);
  }

  /** Count each document's distinct buckets once. */
  add(docs: readonly (readonly number[])[]): void {
    for (const d of docs) {
      this.n++;
      for (const b of new Set(d)) this.df[b]++;
    }
  }

  idf(b: number): number {
    return Math.log((this.n + 1) / (this.df[b] + 1)) + 1;
  }
}

/** Buckets of a term list (one per term, repeats kept: they are the term frequencies). */
export function bucketsOf(terms: readonly string[], dim: number): number[] {
  return terms.map((t) => bucketOf(t, dim));
}

/** The unit vector of a document: per bucket (1 + log tf) × kind weight × idf^idfPower. */
export function vectorOf(terms: readonly string[], buckets: readonly number[], df: DocFreq, kinds: KindWeights, idfPower = 1): Sparse {
  const acc = new Map<number, { tf: number; w: number }>();
  terms.forEach((t, k) => {
    const w = kinds[t.slice(0, t.indexOf(':'))] ?? 1;
    const b = buckets[k];
    const e = acc.get(b);
    if (e) {
      e.tf++;
      e.w = Math.max(e.w, w);
    } else acc.set(b, { tf: 1, w });
  });
  const keys = [...acc.keys()].sort((a, b) => a - b);
  const i = Int32Array.from(keys);
  const v = new Float64Array(keys.length);
  let norm = 0;
  keys.forEach((b, k) => {
    const e = acc.get(b)!;
    v[k] = (1 + Math.log(e.tf)) * e.w * df.idf(b) ** idfPower;
    norm += v[k] * v[k];
  });
  norm = Math.sqrt(norm);
  if (norm > 0) for (let k = 0; k < v.length; k++) v[k] /= norm;
  return { i, v };
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
