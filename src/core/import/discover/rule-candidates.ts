// What a proposed rule can look for (propose.ts): the phrases that set a behavior's responses apart
// (word n-grams of its responses, words of each sample's own prompt left out, counted against the
// other behaviors' responses) and its shape (a tool call by name, a code block, a list, a question
// at the end), each as a regex in the rule files' flavor (JavaScript, `(?i)` in front) that runs in
// linear time on RE2 and on a backtracking engine alike (JavaScript's, Python's): literals, `\s`,
// classes and alternations only, and every repeat starts after a literal and stops before the next
// place a match can start, so that no text (100,000 newlines, a run of `<tool_call>{`) makes a scan
// go back over what it has read.
import { promptWords, textToolNames, words } from './text';
import { UNSPACED } from './opening';

/** A thing a rule can look for: its regex (no flags) and how it reads to a person. */
export interface Candidate {
  regex: string;
  text: string;
}

const LETTERS = /\p{L}/u;
const ASCII_WORD = /[A-Za-z0-9_]/;
/** Words too common to be a phrase on their own (they still count inside one). */
const STOP = new Set('a an the of to in on at for and or is are be it this that with as by from was were i you we its so if do not no'.split(' '));
/** Longest phrase tried, in tokens. */
export const MAX_N = 4;
/** Longest token a phrase may hold, in characters (a longer "word" is a run of garbage, never a frame). */
export const MAX_TOKEN = 64;

/** A regex special character escaped (outside a class). */
export function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

const isWord = (t: string) => t === '#' || /[\p{L}\p{N}_']/u.test(t);
const tokenRegex = (t: string) => (t === '#' ? '\\d+(?:[.,]\\d+)?' : escapeRegex(t));

/** Two words written without white space between them: either is in a script without spaces (Chinese, Japanese, Thai). */
const spaced = (a: string, b: string) => isWord(a) && isWord(b) && !UNSPACED.test(a) && !UNSPACED.test(b);

/**
 * The regex of a phrase of tokens (as `words` gives them: lower case, numbers `#`, each mark its own
 * token): words apart by white space (by optional white space where a script writes none: the
 * segmenter's words of `我们一步一步来` follow each other), marks by optional white space, word
 * edges kept where ASCII.
 */
export function phraseRegex(toks: readonly string[]): string {
  let out = '';
  toks.forEach((t, i) => {
    if (i > 0) out += spaced(toks[i - 1], t) ? '\\s+' : '\\s*';
    out += tokenRegex(t);
  });
  const first = toks[0];
  const last = toks[toks.length - 1];
  if (first === '#' || ASCII_WORD.test(first[0])) out = `\\b${out}`;
  if (last === '#' || ASCII_WORD.test(last[last.length - 1])) out = `${out}\\b`;
  return out;
}

/** Whether a phrase can say something on its own: a content word, or a number with its mark (`1)`). */
function phraseWorthy(toks: readonly string[]): boolean {
  if (toks.some((t) => t === '_')) return false;
  if (toks.some((t) => LETTERS.test(t) && !STOP.has(t))) return true;
  return toks.length >= 2 && toks.includes('#') && toks.some((t) => !isWord(t));
}

/** The distinct phrases (1 to MAX_N tokens, ' '-joined) of a response, its prompt's words masked. */
export function phrasesOf(response: string, prompt: string): Set<string> {
  const mask = promptWords(prompt);
  const toks = words(response, 400).map((w) => (mask.has(w) || w.length > MAX_TOKEN ? '_' : w));
  const out = new Set<string>();
  for (let i = 0; i < toks.length; i++) {
    for (let n = 1; n <= MAX_N && i + n <= toks.length; n++) {
      const p = toks.slice(i, i + n);
      if (phraseWorthy(p)) out.add(p.join(' '));
    }
  }
  return out;
}

/** Shapes a response can have, as regexes (the discoverer's shape terms, text.ts). */
export function shapeCandidates(responses: readonly string[]): Candidate[] {
  const tools = new Set<string>();
  for (const r of responses) for (const t of textToolNames(r)) tools.add(t);
  return [
    ...[...tools].sort().map((t) => ({ regex: `<tool_call>\\s*\\{[^}<]*"name"\\s*:\\s*"${escapeRegex(t)}"`, text: `a call of the tool ${t}` })),
    { regex: '```', text: 'a code block' },
    // an item at a line's start: indented by spaces or tabs (a `\s*` there would also take the
    // newlines after it, and every newline of a blank run would read the whole run again)
    { regex: '(?:^|\\n)[ \\t]*\\d+[.)]\\s', text: 'a numbered list' },
    { regex: '(?:^|\\n)[ \\t]*[-*•]\\s', text: 'a bulleted list' },
    { regex: '\\?\\s*$', text: 'a question at the end' },
  ];
}

/** Match data of one candidate per sample: where its first match ends and its last match starts (-1: none). */
export interface Hits {
  firstEnd: Int32Array;
  lastStart: Int32Array;
}

/** A candidate's matches in every text (JavaScript's RegExp: the candidates run in linear time on it). */
export async function candidateHits(c: Candidate, texts: readonly string[], pause: () => Promise<void>): Promise<Hits> {
  const re = new RegExp(c.regex, 'gi');
  const firstEnd = new Int32Array(texts.length).fill(-1);
  const lastStart = new Int32Array(texts.length).fill(-1);
  for (let k = 0; k < texts.length; k++) {
    re.lastIndex = 0;
    for (let m = re.exec(texts[k]); m; m = re.exec(texts[k])) {
      if (firstEnd[k] < 0) firstEnd[k] = m.index + m[0].length;
      lastStart[k] = m.index;
      if (m[0].length === 0) re.lastIndex++;
    }
    await pause();
  }
  return { firstEnd, lastStart };
}

export interface SampleTexts {
  prompt: string;
  response: string;
}

/** Per phrase: how many of own have it, and a hash of which (phrases of the same samples compete with each other only). */
interface Cover {
  k: number;
  h: number;
}

/** At most `per` phrases of each cover (the samples that have them), by `better`. */
function fewPerCover<T extends { p: string; c: Cover }>(xs: T[], per: number, better: (a: T, b: T) => number): T[] {
  const seen = new Map<string, number>();
  return [...xs].sort(better).filter((x) => {
    const key = `${x.c.k}:${x.c.h}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return n < per;
  });
}

const longerFirst = (a: { p: string }, b: { p: string }) => b.p.length - a.p.length || (a.p < b.p ? -1 : a.p > b.p ? 1 : 0);

/**
 * The phrases most typical of `own` against `others` (share among own minus share among others,
 * best first; a phrase must be in at least `minShare` of own), at most `max`, as candidates. Of
 * phrases found in exactly the same samples of own, only the best is kept, so that every phrasing
 * of a frame has its candidates (rather than the 4-word pieces of one phrasing taking every place).
 */
export async function phraseCandidates(own: readonly SampleTexts[], others: readonly SampleTexts[], max: number, pause: () => Promise<void>, minShare = 0.05): Promise<Candidate[]> {
  const df = new Map<string, Cover>();
  for (let i = 0; i < own.length; i++) {
    for (const p of phrasesOf(own[i].response, own[i].prompt)) {
      const c = df.get(p);
      if (c) (c.k++, (c.h = (Math.imul(c.h, 0x01000193) ^ i) | 0));
      else df.set(p, { k: 1, h: i | 0 });
    }
    await pause();
  }
  const min = Math.max(Math.min(2, own.length), Math.ceil(minShare * own.length));
  const frequent = [...df].filter(([, c]) => c.k >= min).map(([p, c]) => ({ p, c }));
  const byCount = fewPerCover(frequent, 3, (a, b) => b.c.k - a.c.k || longerFirst(a, b)).slice(0, 400);
  const wanted = new Set(byCount.map((x) => x.p));
  const dfo = new Map<string, number>();
  for (const s of others) {
    for (const p of phrasesOf(s.response, '')) if (wanted.has(p)) dfo.set(p, (dfo.get(p) ?? 0) + 1);
    await pause();
  }
  const scored = byCount.map((x) => ({ ...x, score: x.c.k / own.length - (dfo.get(x.p) ?? 0) / Math.max(1, others.length) })).filter((x) => x.score > 0);
  return fewPerCover(scored, 1, (a, b) => b.score - a.score || longerFirst(a, b))
    .slice(0, max)
    .map(({ p }) => ({ regex: phraseRegex(p.split(' ')), text: `"${p.replace(/ ([^\p{L}\p{N}_'#])/gu, '$1').replace(/#/g, 'N')}"` }));
}
