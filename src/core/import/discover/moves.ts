// How a reasoning trace moves and how an answer is framed, as shape terms (`s:`), read from the
// whole text at bounded cost: each pattern is one linear scan (no nested quantifiers) over at most
// SCAN characters (the head and the tail of a longer text).
import { SENTENCE_END, UNSPACED } from './opening';

/** Characters scanned per part: a long trace's head and tail. */
const SCAN = 32_768;

export function scanned(text: string): string {
  return text.length <= SCAN ? text : `${text.slice(0, (SCAN * 3) / 4)}\n${text.slice(-SCAN / 4)}`;
}

/** Moves of a reasoning trace, in English and Chinese (the two languages reasoning models think in). */
const MOVES: [string, RegExp][] = [
  ['backtracks', /\b(?:wait|hmm+|actually(?=,)|but wait|on second thought|let me reconsider|let me re-?think|i made (?:a|an) (?:mistake|error)|that(?:'s| is) (?:not right|wrong|incorrect))\b|等等|等一下|不对|重新考虑|我错了/gi],
  ['cases', /\b(?:(?:case|possibility|scenario|option) (?:\d|[ivx]+\b)|(?:first|second|third) case|in the (?:first|second|other) case|sub-?case)\b|情况[一二三四1-9]|第[一二三四]种情况/gi],
  ['verifies', /\b(?:let(?: me|'s|us) (?:double[- ]?)?check|let(?: me|'s|us) verify|verif(?:y|ying|ication)|double[- ]check(?:ing)?|sanity check|to confirm|that checks out|plug(?:ging)? (?:it |this |that )?back|check(?:ing)? (?:the|my|our) (?:answer|result|work))\b|验证|检查一下|核对/gi],
  ['gives-up', /\b(?:i(?:'m| am) not sure|i (?:cannot|can't|can not|couldn't|could not) (?:determine|solve|figure|find|pin down)|i don't (?:know|think i can)|unable to (?:determine|solve)|give up|going (?:around )?in circles)\b|无法确定|我不确定|不知道/gi],
];

/** Answer framings, looked for in the answer part. */
const FRAMES: [string, RegExp][] = [
  ['boxed', /\\boxed\{/],
  ['answer-tag', /<answer>/i],
  ['hashes', /(?:^|\n)\s*#### /],
  // "the answer is" is how any answer is said, in any language; a final answer is labelled so
  ['final-answer', /\b(?:final answer|answer:)|答案[：:]|最终答案/i],
];

/** Shape terms for a reasoning trace: that it reasons, and how it moves (`moveTerms`). */
export function reasoningTerms(reasoning: string): string[] {
  return ['s:reasons', ...moveTerms(reasoning)];
}

/** The moves of a text that reasons (each once, `often` when it recurs): a think, or an answer that reasons in the open. */
export function moveTerms(reasoning: string): string[] {
  const text = scanned(reasoning);
  // a think that opens with "Hmm, so…" has nothing yet to go back on: a backtrack comes after its first sentence
  const afterFirst = text.slice(firstSentenceEnd(text));
  const out: string[] = [];
  for (const [name, re] of MOVES) {
    re.lastIndex = 0;
    const read = name === 'backtracks' ? afterFirst : text;
    let n = 0;
    while (re.exec(read) && n < 3) n++;
    if (n > 0) out.push(`m:${name}`);
    if (n >= 3) out.push(`m:${name}-often`);
  }
  return out;
}

/** A sentence's end in any script, or a line's. */
const SENTENCE_BREAK = new RegExp(`[${SENTENCE_END}\\n]`);
const SENTENCE_BREAKS = new RegExp(`[${SENTENCE_END}\\n]+`);

/** Where a text's first sentence ends (the whole text when it has one sentence). */
function firstSentenceEnd(text: string): number {
  const m = SENTENCE_BREAK.exec(text.trimStart());
  return m ? text.length - text.trimStart().length + m.index + 1 : text.length;
}

/** Shape terms of an answer's framing. */
export function framingTerms(answer: string): string[] {
  const text = scanned(answer);
  return FRAMES.filter(([, re]) => re.test(text)).map(([name]) => `s:${name}`);
}

/**
 * A degenerate loop: the text ends in one sentence (≥ 4 words) written MIN_REPEATS or more times over
 * most of its last LOOP_TAIL characters (a model that repeats itself runs on until the length limit,
 * so the loop is at the end). Sentences of the tail are hashed once each (linear, bounded).
 */
const MIN_REPEATS = 4;
const LOOP_TAIL = 4096;

/** Four words or more: three spaces in 12 characters, or eight characters of a script written without spaces (Chinese, Japanese, Thai). */
function isSentence(s: string): boolean {
  if (UNSPACED.test(s)) return s.length >= 8;
  return s.length >= 12 && s.indexOf(' ', s.indexOf(' ', s.indexOf(' ') + 1) + 1) >= 0;
}

export function isLoop(text: string): boolean {
  const t = text.length > LOOP_TAIL ? text.slice(-LOOP_TAIL) : text;
  const counts = new Map<string, number>();
  let total = 0;
  let top = 0;
  for (const raw of t.split(SENTENCE_BREAKS)) {
    const s = raw.trim();
    total += s.length;
    if (!isSentence(s)) continue;
    const key = s.toLowerCase();
    const k = (counts.get(key) ?? 0) + 1;
    counts.set(key, k);
    if (k >= MIN_REPEATS) top = Math.max(top, k * s.length);
  }
  return top > 0 && top >= total * 0.5;
}
