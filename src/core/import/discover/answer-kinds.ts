// One kind of request written several ways: states found from the requests' words (discoverer.ts)
// split a kind into its phrasings when the phrasings share no word ("Tom has 12 apples…" and "A shop
// sold 40 pencils…"; "I want a refund for…" and "How do I return…"). What the answers talk about
// joins them: the answers to two phrasings of one kind use the same words (apples, boxes, friends;
// refund, order), the answers to two kinds do not. A state's answer words are counted per sample
// (word hashes, each word once a sample); after each step, two states whose distinctive answer words
// agree (cosine ≥ JOIN) are one kind: the younger's label is no longer given, the older's is.
// Nothing already labelled changes.
import { hash32 } from '../../rng';
import { trim } from './step-terms';
import { answerWords } from './text';

/** Cosine of two states' distinctive answer words at or above which they are one kind. */
const JOIN = 0.5;
/** Answers a state needs before its words are trusted… */
const MIN_ANSWERS = 16;
/**
 * …and prompts, the two states of a pair together: the answers to one prompt talk of its one topic (a
 * capital's of one city), several prompts' of the kind's. Counted for the pair, not each state, so a
 * phrasing asked by one or two prompts in the first steps joins its kind then, not steps later.
 */
const MIN_PROMPTS = 3;
/** A word counts for a state when at least this share of its answers hold it. */
const MIN_RATE = 0.1;
/** Words held by this share of one state's answers tell it from a state whose answers hardly hold them… */
const TOLD_RATE = 0.1;
/** …when there are this many. */
const TOLD_WORDS = 3;
/** Word hashes kept per state (the most frequent: a word a tenth of its answers hold is always among them)… */
const KEEP = 512;
/** …and read per answer. */
const ANSWER_WORDS = 160;

export interface AnswerVocab {
  n: number;
  counts: Map<number, number>;
  /** The same, the words its request holds left out (what tells two kinds apart: `told`). */
  own: Map<number, number>;
  /** The prompts its answers answer (up to MIN_PROMPTS). */
  prompts: Set<number>;
}

/** What a sample's answer brings: the distinct hashes of its words (at most ANSWER_WORDS) and how many of them (the first) its request does not hold. */
export interface Answer {
  words: Int32Array;
  own: number;
  /** Its prompt (a hash of its text: the answers to one question share it, whatever step or group asked it). */
  prompt: number;
}

export interface AnswerKindsSnapshot {
  vocab: [string, number, [number, number][], [number, number][], number[]][];
  kindOf: [string, string][];
}

/** A prompt's id in `Answer.prompt`: a hash of its text (made once a prompt by a caller that reads many of its answers). */
export function promptId(prompt: string): number {
  return hash32(prompt);
}

/**
 * What an answer brings (null: an empty response): its content words (text.ts `answerWords`) as
 * hashes, those its request holds (`request`, the words of the request it answers: an answer may echo
 * them) last; `prompt` is its prompt's `promptId`.
 */
export function answerOf(response: string, request: ReadonlySet<string>, prompt: number): Answer | null {
  if (!response.trim()) return null;
  const words = answerWords(response);
  const own = new Set<number>();
  const echoed = new Set<number>();
  for (const w of words) {
    if (own.size + echoed.size >= ANSWER_WORDS) break;
    (request.has(w) ? echoed : own).add(hash32(w) | 0);
  }
  for (const h of own) echoed.delete(h);
  const out = new Int32Array(own.size + echoed.size);
  let k = 0;
  for (const h of own) out[k++] = h;
  for (const h of echoed) out[k++] = h;
  return { words: out, own: own.size, prompt };
}

export class AnswerKinds {
  private vocab = new Map<string, AnswerVocab>();
  /** A state's label → the older state it was found to be one kind with. */
  private kindOf = new Map<string, string>();

  /** The label a state's samples get: its kind's (the oldest state of the kind). */
  kind(name: string): string {
    let k = name;
    for (let hops = 0; this.kindOf.has(k) && hops < 1000; hops++) k = this.kindOf.get(k)!;
    return k;
  }

  /** The states found to be another's kind, with that kind. */
  joined(): ReadonlyMap<string, string> {
    return new Map([...this.kindOf.keys()].map((k) => [k, this.kind(k)]));
  }

  /** A step's answers, each under its state's (kind's) label. */
  add(labels: readonly string[], answers: readonly (Answer | null)[]): void {
    labels.forEach((l, k) => {
      const a = answers[k];
      if (!a) return;
      const name = this.kind(l);
      let v = this.vocab.get(name);
      if (!v) this.vocab.set(name, (v = { n: 0, counts: new Map(), own: new Map(), prompts: new Set() }));
      v.n++;
      if (v.prompts.size < MIN_PROMPTS) v.prompts.add(a.prompt);
      a.words.forEach((h, j) => {
        v.counts.set(h, (v.counts.get(h) ?? 0) + 1);
        if (j < a.own) v.own.set(h, (v.own.get(h) ?? 0) + 1);
      });
      if (v.counts.size > KEEP * 2) trim(v.counts, KEEP);
      if (v.own.size > KEEP * 2) trim(v.own, KEEP);
    });
  }

  /**
   * States (among `current`, oldest first) whose answers talk alike become one kind, the younger
   * joining the older, most alike first; returns the states joined this step.
   */
  join(current: readonly string[]): string[] {
    const joined: string[] = [];
    for (;;) {
      const live = current.filter((s) => {
        const v = this.kind(s) === s ? this.vocab.get(s) : undefined;
        return v !== undefined && v.n >= MIN_ANSWERS;
      });
      const sims = answerSimilarities(live.map((s) => this.vocab.get(s)!));
      let best: { a: number; b: number; sim: number } | null = null;
      for (let a = 0; a < live.length; a++)
        for (let b = a + 1; b < live.length; b++) {
          const sim = sims[a][b];
          const [va, vb] = [this.vocab.get(live[a])!, this.vocab.get(live[b])!];
          if (sim >= JOIN && (!best || sim > best.sim) && promptsOf(va, vb) >= MIN_PROMPTS && !told(va, vb)) best = { a, b, sim };
        }
      if (!best) return joined;
      const [older, younger] = [live[best.a], live[best.b]];
      this.merge(younger, older);
      joined.push(younger);
    }
  }

  /** A state (`younger`, its kind's label) found to be one kind with `older` (another kind's label): its label is no longer given, and its answers count for the older. */
  merge(younger: string, older: string): void {
    this.kindOf.set(younger, older);
    const from = this.vocab.get(younger);
    this.vocab.delete(younger);
    if (!from) return;
    const into = this.vocab.get(older);
    if (!into) {
      this.vocab.set(older, from);
      return;
    }
    into.n += from.n;
    for (const [h, k] of from.counts) into.counts.set(h, (into.counts.get(h) ?? 0) + k);
    for (const [h, k] of from.own) into.own.set(h, (into.own.get(h) ?? 0) + k);
    for (const p of from.prompts) if (into.prompts.size < MIN_PROMPTS) into.prompts.add(p);
    trim(into.counts, KEEP * 2);
    trim(into.own, KEEP * 2);
  }

  /** A state's answers as counted so far (undefined: none, or joined to another). */
  vocabOf(name: string): AnswerVocab | undefined {
    return this.vocab.get(name);
  }

  save(): AnswerKindsSnapshot {
    return { vocab: [...this.vocab].map(([s, v]) => [s, v.n, [...v.counts], [...v.own], [...v.prompts]]), kindOf: [...this.kindOf] };
  }

  restore(snap: AnswerKindsSnapshot | undefined): void {
    this.vocab = new Map((snap?.vocab ?? []).map(([s, n, c, o, p]) => [s, { n, counts: new Map(c), own: new Map(o), prompts: new Set(p) }]));
    this.kindOf = new Map(snap?.kindOf ?? []);
  }
}

/** How alike the answers of each two states are (cosine of their distinctive words): what `join` reads. */
export function answerSimilarities(vs: readonly AnswerVocab[]): number[][] {
  const vecs = distinctive(vs);
  return vecs.map((a) => vecs.map((b) => cosine(a, b)));
}

/**
 * Each state's words held by at least MIN_RATE of its answers, weighed by that share and by how few
 * states hold them (a word the answers to every kind hold says nothing of the kind).
 */
function distinctive(vs: readonly AnswerVocab[]): Map<number, number>[] {
  const df = new Map<number, number>();
  const rates = vs.map((v) => {
    const r = new Map<number, number>();
    for (const [h, k] of v.counts) if (k / v.n >= MIN_RATE) r.set(h, k / v.n);
    for (const h of r.keys()) df.set(h, (df.get(h) ?? 0) + 1);
    return r;
  });
  const S = vs.length;
  return rates.map((r) => new Map([...r].map(([h, x]) => [h, x * Math.log((S + 1) / (df.get(h)! + 0.5))])));
}

/**
 * Whether one state's answers hold words the other's hardly do (TOLD_WORDS words, each in a tenth of
 * its answers or more and at least 4 of them, under a quarter as often in the other's, smoothed by
 * half an answer): two kinds whose answers share a language's frame ("The answer is …", "答案是…")
 * still differ by what they talk about (a capital's answers name cities, a sum's do not). One such
 * word is the chance of a few answers; several are a topic. Words an answer takes from its own request
 * (the item a customer names) tell prompts apart, not kinds: they are left out.
 */
function told(a: AnswerVocab, b: AnswerVocab): boolean {
  for (const [x, y] of [[a, b], [b, a]]) {
    let m = 0;
    for (const [h, k] of x.own) {
      const r = k / x.n;
      if (k >= 4 && r >= TOLD_RATE && ((y.counts.get(h) ?? 0) + 0.5) / (y.n + 1) < r / 4 && ++m >= TOLD_WORDS) return true;
    }
  }
  return false;
}

/** The distinct prompts two states' answers answer (each state's counted up to MIN_PROMPTS). */
function promptsOf(a: AnswerVocab, b: AnswerVocab): number {
  let n = a.prompts.size;
  for (const p of b.prompts) if (!a.prompts.has(p)) n++;
  return n;
}

function cosine(a: Map<number, number>, b: Map<number, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [h, x] of a) {
    na += x * x;
    const y = b.get(h);
    if (y !== undefined) dot += x * y;
  }
  for (const y of b.values()) nb += y * y;
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}
