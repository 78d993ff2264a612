// Behaviors and states nobody named, found in a run step by step (clusters.ts over the terms of
// text.ts): what a behavior and a state read of a sample, and their defaults. The steps they share
// (group-discoverer.ts): `arrive` makes what a sample brings to its step as it is read (its terms as
// a doc, no text kept), `labelArrived` labels a step's samples once the step is complete
// (`labelStep`: both at once; the labels of steps already labelled never change), `save` /
// `restore` carry the clusters across a restart, `behaviors` lists what was found (name,
// distinctive words, shape, count, representatives), and `explain` says which words and shape put
// a sample where it is.
import type { ClusterParams, Item } from './clusters';
import { opensThink, responseParts, stripSpecial, type ResponseParts } from './chat';
import { AnswerKinds, answerOf, promptId, type Answer } from './answer-kinds';
import { QuestionStates, requestRead, type RequestRead } from './question-states';
import { followsTerms, promptTerms, promptWords, requestTurns, responseTerms, responseWords } from './text';
import { bareWord, noiseOf, type Noise } from './noise';
import { hash32 } from '../../rng';
import type { Doc } from './vectors';
import type { ImportedSample } from '../types';
import { Discoverer, NO_PROMPT, OTHER_STATE, UNCLASSIFIED, type BehaviorArrival, type BehaviorFeatures, type DiscoveredBehavior, type DiscoverSnapshot, type StateArrival } from './group-discoverer';
export { NO_PROMPT, OTHER_STATE, UNCLASSIFIED, type BehaviorArrival, type BehaviorFeatures, type DiscoveredBehavior, type DiscoverSnapshot, type Explanation, type StateArrival } from './group-discoverer';

/**
 * Behavior discovery defaults, chosen by measurement on the generated runs of
 * tests/support/discover-corpus.ts and tests/support/discover-styles.ts (docs/import.md, "How
 * discovery was chosen"): a reasoning trace's moves weigh most (m 12: two traces that differ by a
 * backtrack are two behaviors, though every other word and shape of theirs is alike; from 8 to 16
 * they split alike on the reasoning corpus, at 6 and below they merge), then shape (s 4, length and
 * lines 2) and what the response follows in its session (r 4: a reply after a tool result reports it,
 * one after the user's next message acknowledges it, though both are a short sentence; at 2 and below
 * the agent corpus merges them, at 5-6 it loses a little), the opening and closing words (2), single words (1), pairs (0.5); triples and rarity
 * (idf) left out: on responses full of topic words both split a frame by its content. A shape held
 * by more than 90 % of the samples fades (a think, when every response thinks: `shapeCommon`). A
 * word concentrated in a few prompts' samples weighs less (topic is not behavior: vectors.ts `PromptSpread`).
 */
export const BEHAVIOR_PARAMS: ClusterParams = {
  dim: 2048,
  join: 0.3,
  minSize: 3,
  maxNamed: 40,
  maxCandidates: 32,
  candidateAge: 20,
  idfPower: 0,
  shapeIdf: 1,
  shapeCommon: 0.9,
  spread: { ratio: 0.5 },
  kinds: { s: 4, m: 12, l: 2, f: 4, o: 2, c: 2, w: 1, b: 0.5, t: 0, r: 4 },
};

/**
 * State discovery defaults (measured as above, on the requests: their words, pairs and triples,
 * rarity a quarter-weighted, whether the request is written in numbers or code and its length, both
 * within its script). A word of under 15 % of the distinct requests weighs less, in proportion: it
 * is a request's topic, not its kind (one kind asked about many topics, a GSM8K run, is one state,
 * not a state a problem). The opening words weigh no more than any other (0: they are a phrasing,
 * and kinds that open alike, "What is…", are not one kind).
 */
export const STATE_PARAMS: ClusterParams = {
  dim: 2048,
  join: 0.3,
  minSize: 3,
  minShare: 0.004,
  maxNamed: 128,
  maxCandidates: 32,
  candidateAge: 20,
  idfPower: 0.25,
  spread: { share: 0.15 },
  kinds: { w: 1, b: 1, t: 0.7, f: 0, o: 0, c: 1, l: 0.3, p: 1.5 },
};

/** A one-word response written this many times in a step is an answer the model gives, not a cut-off fragment. */
const BARE_REPEATS = 3;

/** Requests kept for the prompts met since the step began (each a pure function of its prompt). */
const MAX_REQUESTS = 4096;

/** What a response answers: its request's words (none: '') and the turn it follows (text.ts `responseTerms`, `followsTerms`), and whether its prompt opened its think (chat.ts `opensThink`). */
interface Context {
  request: ReadonlySet<string> | '';
  follows: string[];
  opened: boolean;
}

/** Behaviors of responses: what a response does (its frame), the request's words masked. */
export class BehaviorDiscoverer extends Discoverer<BehaviorArrival> {
  private contexts = new Map<string, Context>();

  constructor(taken: Iterable<string> = [], params: ClusterParams = BEHAVIOR_PARAMS) {
    super('behaviors', params, new Set(taken), UNCLASSIFIED, UNCLASSIFIED);
  }

  /** One-word responses written three times or more in the step: answers ("mother", a name), not fragments. */
  private bare = new Set<string>();

  protected override prepare(arrived: readonly BehaviorArrival[]): void {
    this.contexts.clear();
    const counts = new Map<string, number>();
    for (const { bare: w } of arrived) {
      if (w) counts.set(w, (counts.get(w) ?? 0) + 1);
    }
    this.bare = new Set([...counts].filter(([, k]) => k >= BARE_REPEATS).map(([w]) => w));
  }

  /** What a response answers: the words it may repeat from its request (its user turns: not the system prompt or tools block) and the turn it follows. */
  private contextOf(prompt: string): Context {
    let r = this.contexts.get(prompt);
    if (r !== undefined) return r;
    if (this.contexts.size >= MAX_REQUESTS) this.contexts.clear(); // a worker thread never labels a step (prepare)
    const request = requestTurns(prompt).join('\n');
    this.contexts.set(prompt, (r = { request: request ? promptWords(request) : '', follows: followsTerms(prompt), opened: opensThink(prompt) }));
    return r;
  }

  /** The response's terms: its own (text.ts `responseTerms`, the request's words masked), then what it follows. */
  private responseTermsOf(s: Pick<ImportedSample, 'prompt' | 'response' | 'toolCalls'>, triples: boolean, parts: ResponseParts, answer: string[] | null): string[] {
    const c = this.contextOf(s.prompt);
    const terms = responseTerms(s.response, c.request, s.toolCalls, triples, parts, answer ?? undefined);
    terms.push(...c.follows);
    return terms;
  }

  /** The response's noise before its step's bare answers are known, and the one word it is. */
  private look(s: Pick<ImportedSample, 'prompt' | 'response' | 'toolCalls'>) {
    const parts = responseParts(s.response, this.contextOf(s.prompt).opened);
    const read = responseWords(s.response, parts);
    return { parts, answer: read.answer, noise: noiseOf(s.response, s.toolCalls, read.noise, parts), bare: bareWord(s.response) };
  }

  /** Noise, unless a cut-off fragment is an answer the step writes three times or more. */
  private noiseIn(a: { noise: Noise | null; bare: string | null }): Noise | null {
    return a.noise === 'cut-off' && this.bare.has(a.bare ?? '') ? null : a.noise;
  }

  protected termsOf(s: ImportedSample, weighing = false): { terms: string[] } | { noise: Noise } {
    const l = this.look(s);
    const noise = this.noiseIn(l);
    return noise ? { noise } : { terms: this.responseTermsOf(s, !(weighing && this.params.kinds.t === 0), l.parts, l.answer) };
  }

  /** The response's doc (the terms that weigh) and noise: no text kept, the same in a worker thread (src/cli/import-jobs.ts). */
  features(s: Pick<ImportedSample, 'prompt' | 'response' | 'toolCalls'>): BehaviorFeatures {
    const l = this.look(s);
    const rescuable = !l.noise || (l.noise === 'cut-off' && l.bare !== null);
    const doc = rescuable ? this.set.item(this.responseTermsOf(s, this.params.kinds.t !== 0, l.parts, l.answer), { file: '', index: 0 }).doc : null;
    return { doc, noise: l.noise, bare: l.bare };
  }

  /** `features` made elsewhere (a worker thread) are taken as they are. */
  arrive(s: ImportedSample, made: BehaviorFeatures = this.features(s)): BehaviorArrival {
    return { doc: made.doc, noise: made.noise, bare: made.bare, ref: { file: s.file, index: s.line - 1 }, prompt: s.group ?? this.intern(s.prompt) };
  }

  protected itemOf(a: BehaviorArrival): Item | null {
    return this.noiseIn(a) ? null : { doc: a.doc!, ref: a.ref, prompt: a.prompt };
  }
}

/** Answers of one prompt in one step read for what its kind talks about (answer-kinds.ts). */
const ANSWERS_READ = 8;

/** A line most prompts share (a system prompt, a tools block, a standing instruction) is boilerplate, not a kind of request. */
const BOILER_SHARE = 0.5;
const BOILER_MIN_PROMPTS = 6;
const BOILER_MAX = 2048;

/** States of prompts: the kind of request, read from the request (the first user turn that is not boilerplate). */
export class StateDiscoverer extends Discoverer<StateArrival> {
  private boiler = new Set<number>();
  /** The step's requests' docs by prompt (null: no request): a GRPO group's samples share one prompt, read once. */
  private stepDocs = new Map<string, Doc | null>();
  /** Phrasings of one kind of request, joined by what their answers talk about. */
  private kinds = new AnswerKinds();
  /** States that are a few questions, joined as one (question-states.ts). */
  private questions = new QuestionStates();
  /** The step's requests as read there, by prompt. */
  private stepRequests = new Map<string, RequestRead | null>();
  /** The words of a prompt's user turns (an answer may echo them) and its id, kept for the prompts met since the step began. */
  private requestWordsOf = new Map<string, { words: Set<string>; id: number }>();
  /** Answers read so far of each prompt of a step (by step and prompt). */
  private answersRead = new Map<string, number>();

  constructor(params: ClusterParams = STATE_PARAMS) {
    super('states', params, new Set(), NO_PROMPT, OTHER_STATE);
  }

  /** Lines shared by most of the step's distinct prompts join the boilerplate (kept for the run). */
  protected override prepare(arrived: readonly StateArrival[]): void {
    this.stepDocs.clear();
    this.stepRequests.clear();
    this.requestWordsOf.clear();
    const distinct = new Set(arrived.map((a) => a.prompt));
    if (distinct.size < BOILER_MIN_PROMPTS || this.boiler.size >= BOILER_MAX) return;
    const counts = new Map<number, number>();
    for (const p of distinct) {
      const seen = new Set<number>();
      for (const turn of requestTurns(p)) for (const line of turn.split('\n')) if (line.trim().length > 3) seen.add(hash32(line.trim()));
      for (const h of seen) counts.set(h, (counts.get(h) ?? 0) + 1);
    }
    for (const [h, k] of counts) if (k >= BOILER_SHARE * distinct.size && this.boiler.size < BOILER_MAX) this.boiler.add(h);
  }

  /** The request: the first user turn with a line that is not boilerplate, those lines only. */
  request(prompt: string): string {
    for (const turn of requestTurns(prompt)) {
      const kept = turn.split('\n').filter((l) => l.trim() && !this.boiler.has(hash32(l.trim())));
      if (kept.length) return kept.join('\n');
    }
    return '';
  }

  protected termsOf(s: ImportedSample): { terms: string[] } | { noise: Noise } {
    return this.promptTermsOf(s.prompt);
  }

  private promptTermsOf(prompt: string): { terms: string[] } | { noise: Noise } {
    const r = prompt.trim() ? this.request(prompt) : '';
    return r.trim() ? { terms: promptTerms(r) } : { noise: 'empty' };
  }

  arrive(s: ImportedSample): StateArrival {
    return { ref: { file: s.file, index: s.line - 1 }, prompt: this.intern(s.prompt), group: s.group, answer: this.answerRead(s) ? this.answerOf(s) : null };
  }

  /** Whether the sample's answer is read for what its kind talks about: the first ANSWERS_READ of its prompt in its step (the answers to one prompt talk of one topic). */
  private answerRead(s: ImportedSample): boolean {
    const key = `${s.step}\u0000${s.group ?? s.prompt}`;
    const k = this.answersRead.get(key) ?? 0;
    if (k >= ANSWERS_READ) return false;
    if (this.answersRead.size >= MAX_REQUESTS) this.answersRead.clear();
    this.answersRead.set(key, k + 1);
    return true;
  }

  /** The sample's answer (answer-kinds.ts), read against its prompt's user turns (what an answer may echo of its request). */
  private answerOf(s: ImportedSample): Answer | null {
    let r = this.requestWordsOf.get(s.prompt);
    if (r === undefined) {
      if (this.requestWordsOf.size >= MAX_REQUESTS) this.requestWordsOf.clear();
      this.requestWordsOf.set(s.prompt, (r = { words: promptWords(requestTurns(s.prompt).join('\n')), id: promptId(s.prompt) }));
    }
    return answerOf(s.response, r.words, r.id);
  }

  /** The step's labels, phrasings of one kind (answer-kinds.ts) under the kind's label, this step's joins included. */
  override labelArrived(step: number, arrived: readonly StateArrival[]): string[] {
    const labels = super.labelArrived(step, arrived);
    const found = (l: string) => l !== this.noiseLabel && l !== this.smallLabel;
    this.kinds.add(labels, arrived.map((a, k) => (found(labels[k]) ? a.answer : null)));
    const current = this.set.named().sort((a, b) => a.id - b.id).map((c) => c.name!);
    this.kinds.join(current);
    this.questions.add(labels.map((l) => (found(l) ? this.kinds.kind(l) : null)), arrived.map((a) => this.requestReadOf(a.prompt)));
    this.questions.join(current, this.kinds, (name) => this.liveName(name));
    return labels.map((l) => (found(l) ? this.kinds.kind(l) : l));
  }

  /** The group a state's group was merged into (clusters.ts), or itself. */
  private liveName(name: string): string {
    let c = this.set.clusters.find((x) => x.name === name);
    for (let hops = 0; c && c.mergedInto !== null && hops < 1000; hops++) c = this.set.byId(c.mergedInto);
    return c?.name ?? name;
  }

  /** A prompt's request as question-states.ts reads it (null: none), once a step. */
  private requestReadOf(prompt: string): RequestRead | null {
    let r = this.stepRequests.get(prompt);
    if (r === undefined) {
      const text = prompt.trim() ? this.request(prompt) : '';
      this.stepRequests.set(prompt, (r = text.trim() ? requestRead(text) : null));
    }
    return r;
  }

  protected override shown(name: string): string {
    return this.kinds.kind(name);
  }

  /** A phrasing joined to its kind is listed as merged into it, and its samples count for the kind. */
  override behaviors(): DiscoveredBehavior[] {
    const joined = this.kinds.joined();
    const all = super.behaviors();
    const extra = new Map<string, number>();
    for (const b of all) if (joined.has(b.name)) extra.set(joined.get(b.name)!, (extra.get(joined.get(b.name)!) ?? 0) + b.count);
    return all.map((b) => ({ ...b, count: b.count + (extra.get(b.name) ?? 0), mergedInto: b.mergedInto ?? joined.get(b.name) ?? null }));
  }

  protected itemOf(a: StateArrival): Item | null {
    let d = this.stepDocs.get(a.prompt);
    if (d === undefined) {
      const t = this.promptTermsOf(a.prompt);
      this.stepDocs.set(a.prompt, (d = 'terms' in t ? this.set.item(t.terms, a.ref).doc : null));
    }
    // the prompt's samples share its doc's buckets and words; each has its own weights (vectors.ts `vectorOf` scales them in place)
    return d ? { doc: { ...d, x: d.x.slice() }, ref: a.ref, prompt: a.group ?? a.prompt } : null;
  }

  protected override extra(): Partial<DiscoverSnapshot> {
    return { boiler: [...this.boiler], kinds: this.kinds.save(), questions: this.questions.save() };
  }

  protected override restoreExtra(snap: DiscoverSnapshot): void {
    this.boiler = new Set(snap.boiler ?? []);
    this.kinds = new AnswerKinds();
    this.kinds.restore(snap.kinds);
    this.questions = new QuestionStates();
    this.questions.restore(snap.questions);
  }
}
