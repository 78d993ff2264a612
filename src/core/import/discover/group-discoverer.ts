// The discovery of groups nobody named, shared by behaviors and states (discoverer.ts): a step's
// samples arrive (their terms made as they are read), are labelled once the step is complete, and
// the groups found are saved, listed with their names and representatives, and explained.
import { ClusterSet, type Cluster, type ClusterParams, type Item, type SampleRef } from './clusters';
import type { StepTerms } from './step-terms';
import { groupName, lengthText, shapeText, type GroupName } from './naming';
import { apartName, apartTitle, fullerName, holding, quotedTitle } from './names-apart';
import { words } from './text';
import { bareWord, type Noise } from './noise';
import { bucketOf, type Doc, type Sparse } from './vectors';
import type { ImportedSample } from '../types';
import type { Answer, AnswerKindsSnapshot } from './answer-kinds';
import type { QuestionStatesSnapshot } from './question-states';

/** The one label of noise (empty, cut-off, garbage) and of responses like no named behavior yet. */
export const UNCLASSIFIED = 'unclassified';
/** States: a sample with no prompt, and one whose prompt is like no discovered state yet. */
export const NO_PROMPT = 'unknown';
export const OTHER_STATE = 'other';

export interface DiscoveredBehavior {
  name: string;
  /** The name as a person reads it ('"Wait, let me reconsider…" · backtracks · boxed answer'). */
  title: string;
  /** Words most typical of it (most frequent among its samples, weighted by rarity in the run). */
  words: string[];
  /** Its shape in words ('numbered list, asks back'); '' when it has none that stands out. */
  shape: string;
  count: number;
  representatives: SampleRef[];
  firstStep: number;
  /** The behavior it was merged into (its label is no longer given); null when it is current. */
  mergedInto: string | null;
}

export interface Explanation {
  label: string;
  /** Average cosine to the behavior's samples (null: noise, or no behavior yet). */
  similarity: number | null;
  /** The terms that weigh most in that similarity, in words ('great question', 'shape: numbered list'). */
  evidence: string[];
  noise: Noise | null;
}

export interface DiscoverSnapshot {
  what: 'behaviors' | 'states';
  version: 1;
  params: string;
  docs: number;
  df: { i: number[]; v: number[] };
  nextId: number;
  unclassified: number;
  /** Titles by name; how widely words spread over prompts; boilerplate lines (states). Absent in older files. */
  titles?: [string, string][];
  spread?: { prompts: number; df: { i: number[]; v: number[] }; expected: { i: number[]; v: number[] } };
  boiler?: number[];
  /** Requests: how many prompts of the run opened with each word (step-terms.ts `countOpeners`). Absent in older files. */
  openers?: [string, number][];
  /** Requests: the one prompt (its hash) each of those words was met in, -1 for two or more (step-terms.ts `countOpeners`). Absent in older files. */
  openerPrompts?: [string, number][];
  /** States found to be one kind by their answers (answer-kinds.ts). Absent in older files. */
  kinds?: AnswerKindsSnapshot;
  /** States that are one question (question-states.ts). Absent in older files. */
  questions?: QuestionStatesSnapshot;
  clusters: {
    id: number;
    name: string | null;
    n: number;
    sum: { i: number[]; v: number[] };
    born: number;
    last: number;
    mergedInto: number | null;
    words: [string, number][];
    shape: [string, number][];
    reps: SampleRef[];
  }[];
}

/** What a behavior discovery makes of a response (text.ts, vectors.ts), the same in any thread: its doc, null when it is noise (unless a bare answer rescues it). */
export interface BehaviorFeatures {
  doc: Doc | null;
  noise: Noise | null;
  /** The one word it is (text.ts `bareWord`): a cut-off fragment written three times in its step is an answer. */
  bare: string | null;
}

/** What a step keeps of a sample from its arrival to its labelling: behaviors, its features; states, its prompt (its terms wait for the step's boilerplate). */
export interface BehaviorArrival extends BehaviorFeatures {
  ref: SampleRef;
  prompt: string;
}
export interface StateArrival {
  ref: SampleRef;
  prompt: string;
  group: string | null;
  /** Its answer's words and script (answer-kinds.ts): what the answers to a kind of request talk about; null when it has none. */
  answer: Answer | null;
}

export abstract class Discoverer<A> {
  protected set: ClusterSet;
  unclassified = 0;
  protected titles = new Map<string, string>();

  constructor(
    readonly what: DiscoverSnapshot['what'],
    readonly params: ClusterParams,
    /** Names already given (rule labels): a discovered name never takes one. */
    private readonly takenLabels: ReadonlySet<string>,
    /** The label of noise and of samples in groups too small to name. */
    readonly noiseLabel: string,
    readonly smallLabel: string,
  ) {
    this.set = new ClusterSet(params);
  }

  /**
   * The sample's terms; null: noise (with its kind). `weighing`: only the terms that weigh (what a
   * step's docs keep anyway: fewer strings made a sample), not those an explanation may also show.
   */
  protected abstract termsOf(s: ImportedSample, weighing?: boolean): { terms: string[] } | { noise: Noise };

  /** What the step keeps of a sample when it is read. */
  abstract arrive(s: ImportedSample): A;

  /** What a complete step teaches before its samples are labelled (the states' boilerplate lines, the behaviors' bare answers). */
  protected abstract prepare(arrived: readonly A[]): void;

  /** The sample's item for the clustering; null: noise. */
  protected abstract itemOf(a: A): Item | null;

  /** Samples of a step share few prompts: each prompt string is held once while its step waits. */
  private prompts = new Map<string, string>();
  protected intern(prompt: string): string {
    const p = this.prompts.get(prompt);
    if (p !== undefined) return p;
    this.prompts.set(prompt, prompt);
    return prompt;
  }

  /** Labels of a complete step's samples, in order. */
  labelStep(step: number, samples: readonly ImportedSample[]): string[] {
    return this.labelArrived(step, samples.map((s) => this.arrive(s)));
  }

  /** Labels of a complete step's samples from what each brought on arrival, in order. */
  labelArrived(step: number, arrived: readonly A[]): string[] {
    this.prompts.clear();
    this.prepare(arrived);
    const items: Item[] = [];
    const at: number[] = [];
    arrived.forEach((a, k) => {
      const it = this.itemOf(a);
      if (it) (items.push(it), at.push(k));
    });
    const ids = this.set.labelStep(
      step,
      items,
      (members, counts) => {
        const n = this.nameOf(members, counts);
        const name = this.uniqueName(n.label);
        this.titles.set(name, name === n.label ? n.title : `${n.title} (${name.slice(n.label.length)})`);
        return name;
      },
      (c, members, counts) => this.titles.set(c.name!, this.titleNow(c.name!, members, counts)),
    );
    const out: string[] = arrived.map(() => this.noiseLabel);
    // each group's label once (a step of a thousand samples in a few dozen groups)
    const shown = new Map<number, string>();
    const labelOf = (id: number) => shown.get(id) ?? shown.set(id, this.shown(this.set.byId(id).name!)).get(id)!;
    ids.forEach((id, j) => (out[at[j]] = id === null ? this.smallLabel : labelOf(id)));
    for (const l of out) if (l === this.noiseLabel || l === this.smallLabel) this.unclassified++;
    return out;
  }

  /** The label a group's samples get (states: their kind's, answer-kinds.ts). */
  protected shown(name: string): string {
    return name;
  }

  /** A new group's name (naming.ts); one whose name another group has says more of its typical opening ("What is the tallest mountain…", not "What is the… (~2)"). */
  protected nameOf(members: readonly Doc[], counts: StepTerms): GroupName {
    const n = groupName(members, counts);
    if (!this.taken(n.label)) return n;
    const fuller = fullerName(members, n, counts);
    if (fuller && !this.taken(fuller.label)) return fuller;
    // what sets it apart from the groups of its name, `~2` the last resort
    const base = (label: string) => label.replace(/~\d+$/, '');
    const siblings = this.set.named().filter((c) => base(c.name!) === n.label || (this.titles.get(c.name!) ?? '').replace(/ \(~\d+\)$/, '') === n.title);
    const apart = apartName(members, n, siblings);
    return apart && !this.taken(apart.label) ? apart : n;
  }

  /** Whether a name is given already (a rule's label, a group's, the noise labels). */
  protected taken(label: string): boolean {
    return this.takenLabels.has(label) || this.names().includes(label) || label === this.noiseLabel || label === this.smallLabel;
  }

  /** Every name given so far (current and merged), in the order they were made. */
  names(): string[] {
    return this.set.clusters.filter((c) => c.name !== null).map((c) => c.name!);
  }

  /**
   * A group's title from the members it was given at this step (naming.ts, as a new group's name):
   * one another current group has says more of their opening, else what sets it apart from those
   * groups (naming.ts `apartTitle`) or the opening they share (`quotedTitle`), `~2` the last resort.
   * Every name given so far is listed beside it (the page, `npm run import`): a merged group that has
   * its title keeps it for the steps it was given, told apart by what its members held, else by the
   * step it was last given.
   */
  private titleNow(name: string, members: readonly Doc[], counts: StepTerms): string {
    const bare = (c: Cluster) => (this.titles.get(c.name!) ?? c.name!).replace(/ \(~\d+\)$/, '');
    const listed = this.set.clusters.filter((c) => c.name !== null && c.name !== name);
    const current = listed.filter((c) => c.mergedInto === null).map((c) => ({ title: bare(c), n: c.n, shape: c.shape }));
    const bases = new Set(current.map((s) => s.title));
    const n = groupName(members, counts);
    const mine = holding(members);
    let base = bases.has(n.title) ? (fullerName(members, n, counts)?.title ?? n.title) : n.title;
    if (bases.has(base)) base = apartTitle(mine, base, current) ?? quotedTitle(members, base, counts) ?? base;
    for (const c of listed.filter((c) => c.mergedInto !== null && bare(c) === base)) {
      const others = [...listed.filter((o) => o !== c).map((o) => ({ title: bare(o), n: o.n, shape: o.shape })), { title: base, ...mine }];
      this.titles.set(c.name!, this.free(apartTitle(c, base, others) ?? `${base} (until step ${c.last})`, c.name!));
    }
    return this.free(base, name);
  }

  /** `title`, or `title (~2)` … when another group listed has it. */
  private free(title: string, name: string): string {
    const others = new Set(this.set.clusters.filter((c) => c.name !== null && c.name !== name).map((c) => this.titles.get(c.name!)));
    let t = title;
    for (let k = 2; others.has(t); k++) t = `${title} (~${k})`;
    return t;
  }

  private uniqueName(base: string): string {
    let name = base;
    for (let k = 2; this.taken(name); k++) name = `${base}~${k}`;
    return name;
  }

  /** The label the clusters as they are now would give the sample (nothing changes). */
  label(s: ImportedSample): string {
    return this.explain(s).label;
  }

  explain(s: ImportedSample): Explanation {
    const t = this.termsOf(s);
    if (!('terms' in t)) return { label: this.noiseLabel, similarity: null, evidence: [], noise: t.noise };
    const v = this.set.vector(t.terms);
    const near = this.set.nearest(v);
    if (!near || near.sim < this.params.join) return { label: this.smallLabel, similarity: near?.sim ?? null, evidence: [], noise: null };
    return { label: this.shown(near.c.name!), similarity: near.sim, evidence: evidence(t.terms, v, near.c, this.params.dim), noise: null };
  }

  behaviors(): DiscoveredBehavior[] {
    const byId = new Map(this.set.clusters.map((c) => [c.id, c]));
    return this.set.clusters
      .filter((c) => c.name !== null)
      .map((c) => ({
        name: c.name!,
        title: this.titles.get(c.name!) ?? c.name!,
        words: topWords(c, (w) => this.set.df.idf(bucketOf(`w:${w}`, this.params.dim))),
        shape: [...c.shape].filter(([, k]) => k >= c.n / 2).map(([t]) => shapeText(t)).filter((x): x is string => !!x).sort().join(', '),
        count: c.n,
        representatives: c.reps,
        firstStep: c.born,
        mergedInto: c.mergedInto === null ? null : (byId.get(c.mergedInto)?.name ?? null),
      }));
  }

  save(): DiscoverSnapshot {
    const sparse = (a: ArrayLike<number>) => {
      const i: number[] = [];
      const v: number[] = [];
      for (let k = 0; k < a.length; k++) if (a[k] !== 0) (i.push(k), v.push(a[k]));
      return { i, v };
    };
    return {
      what: this.what,
      version: 1,
      params: JSON.stringify(this.params),
      docs: this.set.df.n,
      df: sparse(this.set.df.df),
      nextId: this.set.nextId,
      unclassified: this.unclassified,
      titles: [...this.titles],
      spread: { prompts: this.set.spread.prompts, df: sparse(this.set.spread.df), expected: sparse(this.set.spread.expected) },
      ...(this.set.openers.size ? { openers: [...this.set.openers], openerPrompts: [...this.set.openerPrompt] } : {}),
      ...this.extra(),
      clusters: this.set.clusters.map((c) => ({ id: c.id, name: c.name, n: c.n, sum: c.part ? { i: [...c.part.i], v: [...c.part.v] } : sparse(c.sum), born: c.born, last: c.last, mergedInto: c.mergedInto, words: [...c.words], shape: [...c.shape], reps: c.reps })),
    };
  }

  /** What a kind of discovery keeps beside its clusters. */
  protected extra(): Partial<DiscoverSnapshot> {
    return {};
  }

  protected restoreExtra(_snap: DiscoverSnapshot): void {}

  restore(snap: DiscoverSnapshot): void {
    if (!snap || snap.what !== this.what || snap.version !== 1) throw new Error(`discovered ${this.what}: the saved clusters are not this kind (${snap?.what ?? 'nothing'}, version ${snap?.version ?? '?'})`);
    if (snap.params !== JSON.stringify(this.params)) throw new Error(`discovered ${this.what}: the saved clusters were made with other settings; remove the saved file to start over`);
    const dense = (s: { i: number[]; v: number[] }, n: number) => {
      const a = new Float64Array(n);
      s.i.forEach((k, j) => (a[k] = s.v[j]));
      return a;
    };
    this.set = new ClusterSet(this.params);
    this.set.df.n = snap.docs;
    this.set.df.df.set(dense(snap.df, this.params.dim));
    this.set.nextId = snap.nextId;
    this.set.openers.clear();
    for (const [w, k] of snap.openers ?? []) this.set.openers.set(w, k);
    this.set.openerPrompt.clear();
    for (const [w, k] of snap.openerPrompts ?? []) this.set.openerPrompt.set(w, k);
    this.unclassified = snap.unclassified;
    this.titles = new Map(snap.titles ?? []);
    if (snap.spread) {
      this.set.spread.prompts = snap.spread.prompts;
      this.set.spread.df.set(dense(snap.spread.df, this.params.dim));
      this.set.spread.expected.set(dense(snap.spread.expected, this.params.dim));
    }
    this.restoreExtra(snap);
    // a candidate's sum stays sparse (clusters.ts), a named group's is dense (empty once merged away)
    const sumOf = (c: DiscoverSnapshot['clusters'][number]) => (c.name === null ? { sum: new Float64Array(0), part: { i: Int32Array.from(c.sum.i), v: Float64Array.from(c.sum.v) } } : { sum: dense(c.sum, c.mergedInto === null ? this.params.dim : 0), part: null });
    this.set.clusters = snap.clusters.map((c) => ({ ...c, ...sumOf(c), words: new Map(c.words), shape: new Map(c.shape), reps: c.reps }));
  }
}

/** The terms of the sample that weigh most in its similarity to `c`, in words. */
function evidence(terms: readonly string[], v: Sparse, c: Cluster, dim: number): string[] {
  const at = new Map<number, number>();
  v.i.forEach((b, k) => at.set(b, v.v[k]));
  const seen = new Set<string>();
  const scored: { t: string; s: number }[] = [];
  for (const t of terms) {
    if (seen.has(t)) continue;
    seen.add(t);
    const b = bucketOf(t, dim);
    scored.push({ t, s: (at.get(b) ?? 0) * (c.sum[b] / c.n) });
  }
  return scored
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s || (a.t < b.t ? -1 : 1))
    .slice(0, 8)
    .map((x) => termText(x.t));
}

const FOLLOWS_TEXT: Record<string, string> = { first: 'answers the request', 'after-tool': 'follows a tool result', 'follow-up': "follows the user's next message" };

function termText(t: string): string {
  const kind = t.slice(0, t.indexOf(':'));
  const body = t.slice(kind.length + 1);
  if (kind === 's' || kind === 'm') return `shape: ${shapeText(body) ?? body}`;
  if (kind === 'l') return lengthText(body) ?? body;
  if (kind === 'r') return FOLLOWS_TEXT[body] ?? body;
  if (kind === 'o') return `opens "${body}"`;
  if (kind === 'c') return `closes "${body}"`;
  return `"${body.replace(/_/g, '…')}"`;
}

function topWords(c: Cluster, idf: (w: string) => number): string[] {
  return [...c.words]
    .map(([w, k]) => ({ w, s: (k / c.n) * idf(w) }))
    .sort((a, b) => b.s - a.s || (a.w < b.w ? -1 : 1))
    .slice(0, 6)
    .map((x) => x.w);
}

