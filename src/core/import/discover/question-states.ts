// A state that is a few questions is a topic, not a kind. A kind's requests are many prompts (other
// numbers, names, items) whose words spread over many requests of the run; a question's phrasings
// ("Who wrote…?", "Quick question: who wrote…?") share its topic: words few requests of the run hold.
// Neither the requests' words (weighed down as topic: vectors.ts `PromptSpread`) nor the answers
// (each question's talk of its own topic: answer-kinds.ts) join such states, so a factual source is
// found as a state a question or two. Here, after each step, a state is questions when its requests
// are few (step-terms.ts `fewPrompts` of the run's distinct requests), they were asked again (a
// question is asked as it was; a task's prompts are new texts), and each shares with another of them
// a word few requests of the run hold that is rarer than any it holds alone (a question's phrasings
// share its topic and differ by frame words other questions hold too; a way of asking about many
// topics shares its frame and holds its own topic); the questions of one script are one state: the
// younger joins the oldest (answer-kinds.ts `AnswerKinds.merge`; nothing already labelled changes).
import { hash32 } from '../../rng';
import { fewPrompts } from './step-terms';
import { promptWords, scriptOf } from './text';
import type { AnswerKinds } from './answer-kinds';

/** A request as read here: its id (a hash of its text), its content words' hashes and its script. */
export interface RequestRead {
  id: number;
  words: ReadonlySet<number>;
  script: string;
}

export function requestRead(request: string): RequestRead {
  return { id: hash32(request), words: new Set([...promptWords(request)].map((w) => hash32(w))), script: scriptOf(request) };
}

/** Distinct requests a state needs before what they share is read (one or two share all they hold). */
const MIN_REQUESTS = 3;
/** A state's requests are kept until it has this many: a state of as many is never few. */
const FEW_KEPT = fewPrompts(Infinity);
/** Distinct words counted over the run: past them no new request is counted, and no state is judged questions. */
const MAX_WORDS = 1 << 18;

interface Asked {
  /** Its distinct requests' ids and words, until there are FEW_KEPT (then it is many: null, never questions). */
  requests: Set<number> | null;
  words: Map<number, ReadonlySet<number>>;
  /** Its requests asked again, at a later step than first (each once a step). */
  again: number;
  script: string;
}

export interface QuestionStatesSnapshot {
  seen: number[];
  holders: [number, number][];
  /** Per state: its requests' ids and words (null: many), how many were asked again, its script. */
  asked: [string, [number, number[]][] | null, number, string][];
  questions: [string, string][];
}

export class QuestionStates {
  /** The run's distinct requests, and how many of them hold each word. */
  private seen = new Set<number>();
  private holders = new Map<number, number>();
  /** Per state (its kind's label): what it was asked. */
  private asked = new Map<string, Asked>();
  /** Per script: the state its questions are. */
  private questions = new Map<string, string>();

  /** A step's requests, each under its state's (kind's) label (null: no request, or no state). */
  add(labels: readonly (string | null)[], requests: readonly (RequestRead | null)[]): void {
    const fresh = new Set<number>();
    const again = new Set<string>();
    labels.forEach((l, k) => {
      const r = requests[k];
      if (!r) return;
      if (!this.seen.has(r.id) && this.holders.size < MAX_WORDS) {
        this.seen.add(r.id);
        fresh.add(r.id);
        for (const w of r.words) this.holders.set(w, (this.holders.get(w) ?? 0) + 1);
      }
      if (l === null) return;
      const a = this.asked.get(l);
      if (!a) this.asked.set(l, { requests: new Set([r.id]), words: new Map([[r.id, r.words]]), again: 0, script: r.script });
      else if (!a.requests) return;
      else if (!a.requests.has(r.id)) {
        a.requests.add(r.id);
        a.words.set(r.id, r.words);
        if (a.requests.size >= FEW_KEPT) (a.requests = null), a.words.clear();
      } else if (!fresh.has(r.id) && !again.has(`${l}\u0000${r.id}`)) {
        again.add(`${l}\u0000${r.id}`);
        a.again++;
      }
    });
  }

  /** Whether the state is a few questions (see above). */
  questionsOf(state: string): boolean {
    const a = this.asked.get(state);
    const few = fewPrompts(this.seen.size);
    if (!a?.requests || this.holders.size >= MAX_WORDS || a.requests.size < MIN_REQUESTS || a.requests.size >= few || a.again < a.requests.size) return false;
    const rs = [...a.words.values()];
    return rs.every((r, i) => {
      // the rarest word it shares with another of the state's requests (its topic), and the rarest it holds alone
      let [shared, own] = [Infinity, Infinity];
      for (const w of r) {
        const n = this.holders.get(w) ?? 0;
        if (rs.some((o, j) => j !== i && o.has(w))) shared = Math.min(shared, n);
        else own = Math.min(own, n);
      }
      return shared < few && shared < own;
    });
  }

  /**
   * The states (among `current`, oldest first, each its kind's label in `kinds`) that are questions
   * join their script's questions' state (the oldest such); returns those joined. `live`: the group a
   * state's group was merged into since (clusters.ts), whose kind's label its samples now get.
   */
  join(current: readonly string[], kinds: AnswerKinds, live: (name: string) => string = (n) => n): string[] {
    const labelOf = (name: string) => {
      let k = kinds.kind(name);
      for (let hops = 0; live(k) !== k && hops < 1000; hops++) k = kinds.kind(live(k));
      return k;
    };
    // a state joined to its kind by its answers was asked what the kind was
    for (const l of [...this.asked.keys()]) if (kinds.kind(l) !== l) this.fold(l, kinds.kind(l));
    const joined: string[] = [];
    for (const s of current) {
      if (kinds.kind(s) !== s || !this.questionsOf(s)) continue;
      const { script } = this.asked.get(s)!;
      const into = this.questions.get(script);
      if (into === undefined || labelOf(into) === s) {
        this.questions.set(script, s);
        continue;
      }
      const older = labelOf(into);
      kinds.merge(s, older);
      this.fold(s, older);
      joined.push(s);
    }
    return joined;
  }

  private fold(from: string, into: string): void {
    const b = this.asked.get(from);
    this.asked.delete(from);
    if (!b) return;
    const a = this.asked.get(into);
    if (!a) {
      this.asked.set(into, b);
      return;
    }
    a.again += b.again;
    if (!a.requests) return;
    if (!b.requests) (a.requests = null), a.words.clear();
    else {
      for (const [r, w] of b.words) (a.requests.add(r), a.words.set(r, w));
      if (a.requests.size >= FEW_KEPT) (a.requests = null), a.words.clear();
    }
  }

  save(): QuestionStatesSnapshot {
    return {
      seen: [...this.seen],
      holders: [...this.holders],
      asked: [...this.asked].map(([l, a]) => [l, a.requests && [...a.words].map(([r, w]) => [r, [...w]]), a.again, a.script]),
      questions: [...this.questions],
    };
  }

  restore(snap: QuestionStatesSnapshot | undefined): void {
    this.seen = new Set(snap?.seen ?? []);
    this.holders = new Map(snap?.holders ?? []);
    this.asked = new Map((snap?.asked ?? []).map(([l, w, again, script]) => [l, { requests: w && new Set(w.map(([id]) => id)), words: new Map((w ?? []).map(([id, ws]) => [id, new Set(ws)])), again, script }]));
    this.questions = new Map(snap?.questions ?? []);
  }
}
