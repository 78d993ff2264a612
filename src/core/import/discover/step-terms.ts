// What a step's samples hold, counted once a step for the names of the groups found in it: each
// word, shape term and opening, which opening words are a few prompts' topic (a name never quotes
// them), and over the run the words requests open and close with (a word one prompt held is rare).
import { openingKeys, openingWords } from './opening';
import { isWordTerm } from './text';
import { hash32 } from '../../rng';
import { concentrated, promptSizes, type Doc, type SpreadParams } from './vectors';

/** A step's sample as counted here: its terms and its prompt (clusters.ts `Item`). */
interface Counted {
  doc: Doc;
  prompt: string;
}

/** How many of a step's samples hold each word and each shape term (what a new group's name is set against). */
export interface StepTerms {
  n: number;
  words: Map<string, number>;
  shape: Map<string, number>;
  /** Openings' first one, two and three words (opening.ts `openingKeys`) and how many samples open so. */
  openings: Map<string, number>;
  /** Words of the openings (opening.ts `openingWords`) that are numbers or concentrated in a few of the step's prompts' samples (vectors.ts `concentrated`): a prompt's topic, never a name. */
  topic: Set<string>;
  /**
   * Requests: their opening and closing words one prompt of the run held (`ClusterSet.openers`): what
   * that request is about ("Mcbride esteems martial arts."), left out of a name, but said when a name
   * must say more than another state's ("What is the chemical symbol…" beside "What is the…").
   */
  rare: Set<string>;
  /** An opening's keys (opening.ts `openingKeys`), made once a step for each distinct opening (many samples open alike). */
  keysOf: (opening: string) => readonly string[];
}

/** An opening word of fewer prompts than both is one of few: 3 of a small step, 5 % of a larger one, never more than 10 (a step of 1,840 prompts asks 23 tasks, 80 each: "determine" is a task's frame, not a topic). */
const FEW_PROMPTS = 3;
const FEW_SHARE = 0.05;
const FEW_MAX = 10;
/** How many prompts of `prompts` are few: a word held by fewer is their topic (FEW_PROMPTS, FEW_SHARE, FEW_MAX). */
export function fewPrompts(prompts: number): number {
  return Math.max(FEW_PROMPTS, Math.min(FEW_SHARE * prompts, FEW_MAX));
}

/** `openerPrompt` of a word two or more prompts of the run held: a request's opening word no other prompt held is rare (`StepTerms.rare`). */
const ANY_PROMPT = -1;
/** Opening words of requests counted over the run (a few thousand distinct words: a run's kinds' and more). */
const OPENERS = 4096;

/** How many of the step's samples hold each word and shape term, and which opening words are a few prompts' topic. */
export function termCounts(items: readonly Counted[], spread: SpreadParams, openers: ReadonlyMap<string, number> | null): StepTerms {
  const words = new Map<string, number>();
  const shape = new Map<string, number>();
  const openings = new Map<string, number>();
  const opened = new Map<string, { held: number; prompts: Set<string>; echoed: number }>();
  const byPrompt = new Map<string, number[]>();
  const made = new Map<string, string[]>();
  const keysOf = (opening: string) => made.get(opening) ?? made.set(opening, openingKeys(opening)).get(opening)!;
  items.forEach(({ doc, prompt }, k) => {
    countAll(words, doc.words);
    countAll(shape, doc.shape);
    countAll(openings, keysOf(doc.opening));
    const own = new Set(doc.words);
    for (const w of new Set([...openingWords(doc.opening), ...openingWords(doc.closing)])) {
      const x = opened.get(w) ?? { held: 0, prompts: new Set<string>(), echoed: 0 };
      x.held++;
      // a response's word its request holds is masked out of its words (text.ts `responseTerms`)
      if (isWordTerm(w) && !own.has(w)) x.echoed++;
      x.prompts.add(prompt);
      opened.set(w, x);
    }
    const list = byPrompt.get(prompt);
    if (list) list.push(k);
    else byPrompt.set(prompt, [k]);
  });
  const sizes = promptSizes(byPrompt.values());
  // few: a model that answers a prompt alike each time makes every word of its openings look concentrated
  // (3 samples a prompt: about a third of the prompts expected), frames ("solve", "analyze") too; what
  // a prompt is about is in the openings of few of them. Requests (the `share` reading) are one doc a
  // prompt, nothing concentrated in this sense: theirs is `rare`. A word of one prompt's samples is its
  // prompt's however few they are ("Ardal", a bare answer two samples of one prompt gave), and so is one
  // of few prompts that all its samples' requests hold ("Tectonics…" in answers to "How does plate tectonics work?" and "Explain how plate tectonics works.").
  const few = fewPrompts(byPrompt.size);
  const topic = new Set(
    [...opened].filter(([w, x]) => /\p{N}/u.test(w) || (!!spread.ratio && x.prompts.size < few && (x.prompts.size === 1 || x.echoed === x.held || concentrated(spread.ratio, x.held, x.prompts.size, items.length, sizes)))).map(([w]) => w),
  );
  const rare = new Set(spread.share && openers ? [...opened.keys()].filter((w) => openers.get(w) !== ANY_PROMPT) : []);
  return { n: items.length, words, shape, openings, topic, rare, keysOf };
}

/**
 * Adds a step's distinct prompts opening with each word to the run's counts (`ClusterSet.openers`),
 * the OPENERS commonest kept, and notes for each the one prompt it was met in until a second one holds it.
 */
export function countOpeners(items: readonly Counted[], openers: Map<string, number>, promptOf: Map<string, number>): void {
  const seen = new Map<string, Set<string>>();
  for (const { doc, prompt } of items) for (const w of [...openingWords(doc.opening), ...openingWords(doc.closing)]) seen.set(w, (seen.get(w) ?? new Set()).add(prompt));
  for (const [w, ps] of seen) {
    openers.set(w, (openers.get(w) ?? 0) + ps.size);
    const first = promptOf.get(w);
    if (first === ANY_PROMPT) continue;
    const ids = new Set([...ps].map((p) => hash32(p)));
    if (first !== undefined) ids.add(first);
    promptOf.set(w, ids.size > 1 ? ANY_PROMPT : [...ids][0]);
  }
  trim(openers, OPENERS);
  for (const w of promptOf.keys()) if (!openers.has(w)) promptOf.delete(w);
}

/** Each of `keys` counted once more (one call a doc: compiled early). */
function countAll(counts: Map<string, number>, keys: readonly string[]): void {
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
}

/** Keep the `keep` largest counts (ties: the first key in order, alphabetical or numeric). */
export function trim<K extends string | number>(m: Map<K, number>, keep: number): void {
  if (m.size <= keep) return;
  const kept = [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, keep);
  m.clear();
  for (const [k, v] of kept) m.set(k, v);
}
