// Online clustering of term vectors, one step at a time, under average linkage (vectors.ts):
//   1. each sample joins the named group it is closest to on average, if that is ≥ `join`;
//   2. the rest, with the small groups kept from earlier steps (candidates), are merged bottom-up
//      while two groups are ≥ `join` apart on average (a leader pre-pass bounds the count first);
//   3. a group that reaches `minSize` samples is named (a new behavior, its samples of this step get
//      it); smaller ones stay candidates (their samples are unclassified: never one label per sample);
//   4. named groups that have come within `join` of each other merge, the younger into the older
//      (its label is no longer given; steps already labelled keep it: nothing is relabelled).
// Only sums and counts are kept per group, so memory does not grow with the run.
import { DocFreq, addInto, addSparse, bucketsOf, dotDense, dotSparse, toSparse, vectorOf, type KindWeights, type Sparse } from './vectors';

export interface ClusterParams {
  dim: number;
  /** Average cosine at or above which a sample joins a group and two groups merge. */
  join: number;
  /** Samples a group needs (over steps) to be named. */
  minSize: number;
  maxNamed: number;
  maxCandidates: number;
  /** Candidates not met for this many steps are let go. */
  candidateAge: number;
  kinds: KindWeights;
  /** How much rarity in the run weighs (idf to this power; 0: not at all). */
  idfPower: number;
}

/** Where a sample is (its file and 0-based index), for representatives. */
export interface SampleRef {
  file: string;
  index: number;
}

export interface Item {
  terms: string[];
  ref: SampleRef;
}

export interface Cluster {
  id: number;
  /** null: a candidate (not yet named). */
  name: string | null;
  n: number;
  sum: Float64Array;
  born: number;
  last: number;
  /** The named group it was merged into (its label is no longer given). */
  mergedInto: number | null;
  /** Documents per word (`w:` terms, at most WORDS kept) and per shape term. */
  words: Map<string, number>;
  shape: Map<string, number>;
  reps: SampleRef[];
}

/** Names a new group from its members' terms and the step's others (discoverer.ts). */
export type Namer = (members: readonly (readonly string[])[], others: readonly (readonly string[])[]) => string;

const WORDS = 48;
const REPS = 3;
/** Above this many leftovers, a leader pass at a tighter threshold makes small groups first. */
const EXACT = 64;

interface Group {
  n: number;
  items: number[];
  cands: Cluster[];
  sum: Sparse;
}

export class ClusterSet {
  readonly df: DocFreq;
  clusters: Cluster[] = [];
  nextId = 1;

  constructor(readonly p: ClusterParams) {
    this.df = new DocFreq(p.dim);
  }

  named(): Cluster[] {
    return this.clusters.filter((c) => c.name !== null && c.mergedInto === null);
  }

  candidates(): Cluster[] {
    return this.clusters.filter((c) => c.name === null);
  }

  vector(terms: readonly string[]): Sparse {
    return vectorOf(terms, bucketsOf(terms, this.p.dim), this.df, this.p.kinds, this.p.idfPower);
  }

  /** The named group a vector is closest to (average cosine) and that cosine; null when none. */
  nearest(v: Sparse, among = this.named()): { c: Cluster; sim: number } | null {
    let best: { c: Cluster; sim: number } | null = null;
    for (const c of among) {
      const sim = dotDense(v, c.sum) / c.n;
      if (!best || sim > best.sim) best = { c, sim };
    }
    return best;
  }

  /** The cluster id of each item of a step (null: unclassified), in order. */
  labelStep(step: number, all: readonly Item[], namer: Namer): (number | null)[] {
    // terms of a kind weighted 0 are no evidence: left out before hashing
    const items = all.map((it) => ({ ...it, terms: it.terms.filter((t) => this.p.kinds[t.slice(0, t.indexOf(':'))] !== 0) }));
    const buckets = items.map((it) => bucketsOf(it.terms, this.p.dim));
    this.df.add(buckets);
    const vecs = items.map((it, k) => vectorOf(it.terms, buckets[k], this.df, this.p.kinds, this.p.idfPower));
    const out: (number | null)[] = new Array(items.length).fill(null);
    const named = this.named();
    const left: number[] = [];
    vecs.forEach((v, k) => {
      const near = this.nearest(v, named);
      if (near && near.sim >= this.p.join) out[k] = near.c.id;
      else left.push(k);
    });
    for (const g of this.agglomerate(this.groupsOf(left, vecs))) this.settle(step, g, items, vecs, out, namer);
    items.forEach((it, k) => {
      const id = out[k];
      if (id !== null) this.absorb(this.byId(id), it, vecs[k], step);
    });
    this.mergePass();
    this.prune(step);
    return out;
  }

  byId(id: number): Cluster {
    return this.clusters.find((c) => c.id === id)!;
  }

  /** The leftovers (a leader pass first when many) and the candidates, as groups to merge. */
  private groupsOf(left: readonly number[], vecs: readonly Sparse[]): Group[] {
    const groups: Group[] = this.candidates().map((c) => ({ n: c.n, items: [], cands: [c], sum: toSparse(c.sum) }));
    if (left.length <= EXACT) {
      for (const k of left) groups.push({ n: 1, items: [k], cands: [], sum: vecs[k] });
      return groups;
    }
    const tight = this.p.join + (1 - this.p.join) / 2;
    const micro: { sum: Float64Array; items: number[] }[] = [];
    for (const k of left) {
      let best = -1;
      let bestSim = tight;
      micro.forEach((m, j) => {
        const sim = dotDense(vecs[k], m.sum) / m.items.length;
        if (sim >= bestSim) (best = j), (bestSim = sim);
      });
      if (best < 0) micro.push({ sum: new Float64Array(this.p.dim), items: [] }), (best = micro.length - 1);
      addInto(micro[best].sum, vecs[k]);
      micro[best].items.push(k);
    }
    for (const m of micro) groups.push({ n: m.items.length, items: m.items, cands: [], sum: toSparse(m.sum) });
    return groups;
  }

  /** Average-linkage merging while the closest two groups are ≥ join (Lance–Williams update). */
  private agglomerate(groups: Group[]): Group[] {
    const m = groups.length;
    const sim = new Float64Array(m * m);
    for (let a = 0; a < m; a++) for (let b = a + 1; b < m; b++) sim[a * m + b] = sim[b * m + a] = dotSparse(groups[a].sum, groups[b].sum) / (groups[a].n * groups[b].n);
    const alive = groups.map(() => true);
    for (;;) {
      let best = -Infinity;
      let ba = -1;
      let bb = -1;
      for (let a = 0; a < m; a++) {
        if (!alive[a]) continue;
        for (let b = a + 1; b < m; b++) if (alive[b] && sim[a * m + b] > best) (best = sim[a * m + b]), (ba = a), (bb = b);
      }
      if (ba < 0 || best < this.p.join) break;
      const A = groups[ba];
      const B = groups[bb];
      for (let c = 0; c < m; c++) {
        if (!alive[c] || c === ba || c === bb) continue;
        const s = (A.n * sim[ba * m + c] + B.n * sim[bb * m + c]) / (A.n + B.n);
        sim[ba * m + c] = sim[c * m + ba] = s;
      }
      groups[ba] = { n: A.n + B.n, items: [...A.items, ...B.items], cands: [...A.cands, ...B.cands], sum: addSparse(A.sum, B.sum) };
      alive[bb] = false;
    }
    return groups.filter((_, k) => alive[k]);
  }

  /** A merged group: named when big enough (its items labelled), else kept as one candidate. */
  private settle(step: number, g: Group, items: readonly Item[], vecs: readonly Sparse[], out: (number | null)[], namer: Namer): void {
    const cands = [...g.cands].sort((a, b) => a.id - b.id);
    let c = cands[0];
    for (const other of cands.slice(1)) this.fold(other, c);
    if (!c) {
      if (!g.items.length) return;
      c = { id: this.nextId++, name: null, n: 0, sum: new Float64Array(this.p.dim), born: step, last: step, mergedInto: null, words: new Map(), shape: new Map(), reps: [] };
      this.clusters.push(c);
    }
    const total = c.n + g.items.length;
    if (total >= this.p.minSize && g.items.length > 0 && this.named().length < this.p.maxNamed) {
      const inGroup = new Set(g.items);
      c.name = namer(g.items.map((k) => items[k].terms), items.flatMap((it, k) => (inGroup.has(k) ? [] : [it.terms])));
      c.reps = representatives(g, vecs).map((k) => items[k].ref);
      for (const k of g.items) out[k] = c.id;
      return;
    }
    for (const k of g.items) this.absorb(c, items[k], vecs[k], step);
  }

  private absorb(c: Cluster, it: Item, v: Sparse, step: number): void {
    addInto(c.sum, v);
    c.n++;
    c.last = step;
    const seen = new Set<string>();
    for (const t of it.terms) {
      if (seen.has(t)) continue;
      seen.add(t);
      if (t.startsWith('w:')) c.words.set(t.slice(2), (c.words.get(t.slice(2)) ?? 0) + 1);
      else if (t.startsWith('s:')) c.shape.set(t.slice(2), (c.shape.get(t.slice(2)) ?? 0) + 1);
    }
    if (c.words.size > WORDS * 2) trim(c.words, WORDS);
  }

  /** `from` is folded into `into`: its sum, count and word counts. */
  private fold(from: Cluster, into: Cluster): void {
    addInto(into.sum, toSparse(from.sum));
    into.n += from.n;
    into.last = Math.max(into.last, from.last);
    for (const [w, k] of from.words) into.words.set(w, (into.words.get(w) ?? 0) + k);
    for (const [s, k] of from.shape) into.shape.set(s, (into.shape.get(s) ?? 0) + k);
    trim(into.words, WORDS);
    if (from.name === null) this.clusters = this.clusters.filter((x) => x !== from);
    else {
      from.mergedInto = into.id;
      from.sum = new Float64Array(0);
    }
  }

  /** Named groups (and candidates) that came within `join` of a named group are merged into the older. */
  private mergePass(): void {
    for (;;) {
      const named = this.named().sort((a, b) => a.id - b.id);
      let best: { a: Cluster; b: Cluster; s: number } | null = null;
      for (let x = 0; x < named.length; x++)
        for (let y = x + 1; y < named.length; y++) {
          const s = avgLink(named[x], named[y]);
          if (s >= this.p.join && (!best || s > best.s)) best = { a: named[x], b: named[y], s };
        }
      for (const c of this.candidates())
        for (const n of named) {
          const s = avgLink(c, n);
          if (s >= this.p.join && (!best || s > best.s)) best = { a: n, b: c, s };
        }
      if (!best) return;
      this.fold(best.b, best.a);
    }
  }

  private prune(step: number): void {
    const old = this.candidates().filter((c) => step - c.last >= this.p.candidateAge);
    let cands = this.candidates().filter((c) => !old.includes(c));
    if (cands.length > this.p.maxCandidates) cands = cands.sort((a, b) => b.n - a.n || b.id - a.id).slice(0, this.p.maxCandidates);
    const keep = new Set(cands);
    this.clusters = this.clusters.filter((c) => c.name !== null || keep.has(c));
  }
}

function avgLink(a: Cluster, b: Cluster): number {
  let s = 0;
  for (let k = 0; k < a.sum.length; k++) if (a.sum[k] !== 0) s += a.sum[k] * b.sum[k];
  return s / (a.n * b.n);
}

/** The members closest to the group's mean (at most REPS), in item order of closeness. */
function representatives(g: Group, vecs: readonly Sparse[]): number[] {
  return g.items
    .map((k) => ({ k, s: dotSparse(vecs[k], g.sum) }))
    .sort((a, b) => b.s - a.s || a.k - b.k)
    .slice(0, REPS)
    .map((x) => x.k);
}

/** Keep the `keep` largest counts (ties: the alphabetically first). */
export function trim(m: Map<string, number>, keep: number): void {
  if (m.size <= keep) return;
  const kept = [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, keep);
  m.clear();
  for (const [k, v] of kept) m.set(k, v);
}
