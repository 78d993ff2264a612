// Online clustering of term vectors, one step at a time, under average linkage (vectors.ts):
//   1. each sample joins the named group it is closest to on average, if that is ≥ `join`;
//   2. the rest, with the small groups kept from earlier steps (candidates), are merged bottom-up
//      while two groups are ≥ `join` apart on average (a leader pre-pass bounds the count first);
//   3. a group that reaches `minSize` samples is named (a new behavior, its samples of this step get
//      it); smaller ones stay candidates (their samples are unclassified: never one label per sample);
//   4. named groups that have come within `join` of each other merge, the younger into the older
//      (its label is no longer given; steps already labelled keep it: nothing is relabelled).
// Only sums and counts are kept per group, so memory does not grow with the run; within a step, each
// sample is kept as its buckets (vectors.ts `Doc`), not its terms.
import { agglomerate } from './linkage';
import { countOpeners, termCounts, trim, type StepTerms } from './step-terms';
import { DocBuilder, DocFreq, MIN_PROMPTS, PromptSpread, TermWeights, type SpreadParams, addInto, addSparse, dotDense, spreadInto, toSparse, vectorOf, type Doc, type KindWeights, type Sparse } from './vectors';

export interface ClusterParams {
  dim: number;
  /** Average cosine at or above which a sample joins a group and two groups merge. */
  join: number;
  /** Samples a group needs (over steps) to be named. */
  minSize: number;
  /** …and at least this share of the step's samples (a state needs enough samples a step to measure support; absent: 0). */
  minShare?: number;
  maxNamed: number;
  maxCandidates: number;
  /** Candidates not met for this many steps are let go. */
  candidateAge: number;
  kinds: KindWeights;
  /** How much rarity in the run weighs (idf to this power; 0: not at all). */
  idfPower: number;
  /** The same for shape and length terms (absent: `idfPower`): a shape every sample has says nothing. */
  shapeIdf?: number;
  /** A shape or length term held by more than this share of the samples fades to nothing at all of them (vectors.ts `commonShapeFade`; absent: never). */
  shapeCommon?: number;
  /** How a word concentrated in a few prompts' samples (topic) weighs less (vectors.ts `PromptSpread`; absent: not at all). */
  spread?: SpreadParams;
}

/** Where a sample is (its file and 0-based index), for representatives. */
export interface SampleRef {
  file: string;
  index: number;
}

export interface Item {
  doc: Doc;
  ref: SampleRef;
  /** The sample's prompt (any id: samples of one prompt share it), for how widely a word spreads. */
  prompt: string;
}

export interface Cluster {
  id: number;
  /** null: a candidate (not yet named). */
  name: string | null;
  n: number;
  /** The sum of its samples' vectors: dense for a named group; empty for a candidate, whose sum is `part`. */
  sum: Float64Array;
  /** A candidate's sum, sparse (most are a sample or two and are let go: no dense row each); null once named. */
  part: Sparse | null;
  born: number;
  last: number;
  /** The named group it was merged into (its label is no longer given). */
  mergedInto: number | null;
  /** Documents per word (`w:` terms, at most WORDS kept) and per shape term. */
  words: Map<string, number>;
  shape: Map<string, number>;
  reps: SampleRef[];
}

/** Names a new group from its members and the whole step's term counts (discoverer.ts). */
export type Namer = (members: readonly Doc[], step: StepTerms) => string;
/** Titles a named group anew from the members it was given at this step (its label stays: a metric key). */
export type Retitler = (c: Cluster, members: readonly Doc[], step: StepTerms) => void;

const WORDS = 48;
const NONE = new Float64Array(0);
const REPS = 3;
/** Above this many leftovers, a leader pass at a tighter threshold makes small groups first. */
const EXACT = 64;

interface Group {
  n: number;
  items: number[];
  cands: Cluster[];
  /** The sum of its members' vectors; null for a merged group until asked (`sumOf`: most are never named, their sums never read). */
  sum: Sparse | null;
  /** The two groups it was merged from (its sum is theirs, added in that order). */
  parts: [Group, Group] | null;
}

export class ClusterSet {
  readonly df: DocFreq;
  readonly spread: PromptSpread;
  clusters: Cluster[] = [];
  nextId = 1;
  /**
   * Requests (the spread's `share` reading): how many distinct prompts of the run opened with each
   * word, each step's counted once a step, the OPENERS commonest kept. A step may hold one request
   * of a kind, and a kind's words come back in later steps; a person's name in a list of "Mcbride
   * esteems martial arts." sentences seldom does.
   */
  readonly openers = new Map<string, number>();
  /** The one prompt each of `openers`' words was met in, or ANY_PROMPT once a second one held it (a prompt asked at every step is one prompt). */
  readonly openerPrompt = new Map<string, number>();
  private readonly docs: DocBuilder;

  constructor(readonly p: ClusterParams) {
    this.df = new DocFreq(p.dim);
    this.spread = new PromptSpread(p.dim, p.spread ?? {});
    this.docs = new DocBuilder(p.dim, p.kinds);
  }

  /** What a step keeps of a sample's terms (terms of a kind weighted 0 are no evidence: left out). */
  item(terms: readonly string[], ref: SampleRef, prompt = ''): Item {
    return { doc: this.docs.doc(terms), ref, prompt };
  }

  named(): Cluster[] {
    return this.clusters.filter((c) => c.name !== null && c.mergedInto === null);
  }

  candidates(): Cluster[] {
    return this.clusters.filter((c) => c.name === null);
  }

  /** The buckets' weights for the run as counted so far (made again once the counts move). */
  private weighs: TermWeights | null = null;
  private weights(): TermWeights {
    if (!this.weighs?.current()) this.weighs = new TermWeights(this.df, this.spread, this.p.idfPower, this.p.shapeIdf, this.p.shapeCommon);
    return this.weighs;
  }

  vector(terms: readonly string[]): Sparse {
    return vectorOf(this.docs.doc(terms), this.weights());
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
  labelStep(step: number, items: readonly Item[], namer: Namer, retitle?: Retitler): (number | null)[] {
    this.df.add(items.map((it) => it.doc));
    if (this.spread.active) this.spread.add(items.map((it) => it.doc), items.map((it) => it.prompt));
    const w = this.weights();
    const vecs = items.map((it) => vectorOf(it.doc, w));
    const out: (number | null)[] = new Array(items.length).fill(null);
    const named = this.named();
    const left: number[] = [];
    vecs.forEach((v, k) => {
      const near = this.nearest(v, named);
      if (near && near.sim >= this.p.join) out[k] = near.c.id;
      else left.push(k);
    });
    const merged = agglomerate(this.groupsOf(left, vecs), this.p.join, this.p.dim, merge);
    let counts: StepTerms | null = null;
    if (this.p.spread?.share) countOpeners(items, this.openers, this.openerPrompt);
    // rare is judged, as the spread is, once enough prompts were seen: in a run of two requests every word is one request's
    const stepTerms = () => (counts ??= termCounts(items, this.p.spread ?? {}, this.spread.prompts >= MIN_PROMPTS ? this.openerPrompt : null));
    const minSize = Math.max(this.p.minSize, Math.ceil((this.p.minShare ?? 0) * items.length));
    for (const g of merged) this.settle(step, g, items, vecs, out, minSize, (ks) => namer(ks.map((k) => items[k].doc), stepTerms()));
    const byId = new Map(this.clusters.map((c) => [c.id, c]));
    const given = new Map<number, number[]>();
    items.forEach((it, k) => {
      const id = out[k];
      if (id === null) return;
      this.absorb(byId.get(id)!, it, vecs[k], step);
      const ks = given.get(id);
      if (ks) ks.push(k);
      else given.set(id, [k]);
    });
    // a name says what the group's members write now: a group grows and absorbs others, its first members' opening may be no longer theirs
    if (retitle)
      for (const [id, ks] of [...given].sort((a, b) => a[0] - b[0])) {
        if (ks.length < minSize) continue;
        const c = byId.get(id)!;
        c.reps = closest(ks, vecs, this.p.dim).map((k) => items[k].ref);
        retitle(c, ks.map((k) => items[k].doc), stepTerms());
      }
    this.mergePass();
    this.prune(step);
    return out;
  }

  byId(id: number): Cluster {
    return this.clusters.find((c) => c.id === id)!;
  }

  /** The leftovers (a leader pass first when many) and the candidates, as groups to merge. */
  private groupsOf(left: readonly number[], vecs: readonly Sparse[]): Group[] {
    const groups: Group[] = this.candidates().map((c) => ({ n: c.n, items: [], cands: [c], sum: c.part!, parts: null }));
    if (left.length <= EXACT) {
      for (const k of left) groups.push({ n: 1, items: [k], cands: [], sum: vecs[k], parts: null });
      return groups;
    }
    // a group of one is its sample's sparse vector, dotted with the sample spread into `row`; a
    // dense sum only from two members on (the same products in the same bucket order either way)
    const tight = this.p.join + (1 - this.p.join) / 2;
    const micro: Micro[] = [];
    const row = new Float64Array(this.p.dim);
    for (const k of left) {
      const v = vecs[k];
      spreadInto(row, v);
      const best = leader(v, micro, row, vecs, tight);
      spreadInto(row, v, true);
      if (best < 0) micro.push({ sum: null, items: [k] });
      else {
        const m = micro[best];
        if (!m.sum) addInto((m.sum = new Float64Array(this.p.dim)), vecs[m.items[0]]);
        addInto(m.sum, v);
        m.items.push(k);
      }
    }
    for (const m of micro) groups.push({ n: m.items.length, items: m.items, cands: [], sum: m.sum ? toSparse(m.sum) : vecs[m.items[0]], parts: null });
    return groups;
  }

  /** A merged group: named when big enough (its items labelled), else kept as one candidate. */
  private settle(step: number, g: Group, items: readonly Item[], vecs: readonly Sparse[], out: (number | null)[], minSize: number, namer: (members: readonly number[]) => string): void {
    const cands = [...g.cands].sort((a, b) => a.id - b.id);
    let c = cands[0];
    for (const other of cands.slice(1)) this.fold(other, c);
    if (!c) {
      if (!g.items.length) return;
      c = { id: this.nextId++, name: null, n: 0, sum: NONE, part: { i: new Int32Array(0), v: new Float64Array(0) }, born: step, last: step, mergedInto: null, words: new Map(), shape: new Map(), reps: [] };
      this.clusters.push(c);
    }
    const total = c.n + g.items.length;
    if (total >= minSize && g.items.length > 0 && this.named().length < this.p.maxNamed) {
      c.name = namer(g.items);
      c.sum = new Float64Array(this.p.dim);
      addInto(c.sum, c.part!);
      c.part = null;
      c.reps = representatives(g, vecs, this.p.dim).map((k) => items[k].ref);
      for (const k of g.items) out[k] = c.id;
      return;
    }
    for (const k of g.items) this.absorb(c, items[k], vecs[k], step);
  }

  private absorb(c: Cluster, it: Item, v: Sparse, step: number): void {
    if (c.part) c.part = addSparse(c.part, v);
    else addInto(c.sum, v);
    c.n++;
    c.last = step;
    for (const w of it.doc.words) c.words.set(w, (c.words.get(w) ?? 0) + 1);
    for (const t of it.doc.shape) c.shape.set(t, (c.shape.get(t) ?? 0) + 1);
    if (c.words.size > WORDS * 2) trim(c.words, WORDS);
  }

  /** `from` is folded into `into`: its sum, count and word counts. */
  private fold(from: Cluster, into: Cluster): void {
    const add = from.part ?? toSparse(from.sum);
    if (into.part) into.part = addSparse(into.part, add);
    else addInto(into.sum, add);
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

/** The micro group a vector joins (the last of the closest at or above `tight`; -1: none), `row` the vector spread dense: its own function, compiled early. */
function leader(v: Sparse, micro: readonly Micro[], row: Float64Array, vecs: readonly Sparse[], tight: number): number {
  let best = -1;
  let bestSim = tight;
  for (let j = 0; j < micro.length; j++) {
    const m = micro[j];
    const sim = m.sum ? dotDense(v, m.sum) / m.items.length : dotDense(vecs[m.items[0]], row);
    if (sim >= bestSim) (best = j), (bestSim = sim);
  }
  return best;
}

/** A leader pass's small group: a dense sum from its second member on. */
interface Micro {
  sum: Float64Array | null;
  items: number[];
}

/** Average cosine of two groups, `b` named (a candidate's sparse sum: the same nonzero products in the same bucket order). */
function avgLink(a: Cluster, b: Cluster): number {
  if (a.part) return dotDense(a.part, b.sum) / (a.n * b.n);
  let s = 0;
  for (let k = 0; k < a.sum.length; k++) if (a.sum[k] !== 0) s += a.sum[k] * b.sum[k];
  return s / (a.n * b.n);
}

/** Two groups as one: members in order, the sum left to `sumOf` (the merged-away groups are not used again). */
function merge(A: Group, B: Group): Group {
  for (const k of B.items) A.items.push(k);
  return { n: A.n + B.n, items: A.items, cands: A.cands.concat(B.cands), sum: null, parts: [A, B] };
}

/**
 * A group's sum: each merged group's is its parts' sums added (a + b, as the merge made it), walked
 * without recursion (a group of a thousand merges is that deep); the parts' sums are let go once added.
 */
function sumOf(g: Group): Sparse {
  const stack = [g];
  while (stack.length) {
    const x = stack[stack.length - 1];
    const [a, b] = x.parts ?? [x, x];
    if (x.sum) stack.pop();
    else if (!a.sum) stack.push(a);
    else if (!b.sum) stack.push(b);
    else {
      x.sum = addSparse(a.sum, b.sum);
      if (a.parts) a.sum = null;
      if (b.parts) b.sum = null;
      stack.pop();
    }
  }
  return g.sum!;
}

/** The members closest to the group's mean (at most REPS), in item order of closeness. */
function representatives(g: Group, vecs: readonly Sparse[], dim: number): number[] {
  // the sum spread into a dense row: the same products, in the same bucket order, as a sparse–sparse dot
  const sum = new Float64Array(dim);
  addInto(sum, sumOf(g));
  return g.items
    .map((k) => ({ k, s: dotDense(vecs[k], sum) }))
    .sort((a, b) => b.s - a.s || a.k - b.k)
    .slice(0, REPS)
    .map((x) => x.k);
}

/** Of the items `ks`, those closest to their mean (at most REPS), in order of closeness. */
function closest(ks: readonly number[], vecs: readonly Sparse[], dim: number): number[] {
  const sum = new Float64Array(dim);
  for (const k of ks) addInto(sum, vecs[k]);
  return ks
    .map((k) => ({ k, s: dotDense(vecs[k], sum) }))
    .sort((a, b) => b.s - a.s || a.k - b.k)
    .slice(0, REPS)
    .map((x) => x.k);
}
