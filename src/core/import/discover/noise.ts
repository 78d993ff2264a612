// Noise, told apart before a response is clustered: empty, cut off at the length limit, garbage, or a
// loop — judged per script (Chinese, Russian, Arabic or Hindi text is not garbage by Latin vowels).
import { stripSpecial, type ResponseParts } from './chat';
import { isLoop } from './moves';
import { SENTENCE_END, UNSPACED } from './opening';
import { hasLetter } from './text';

const LETTERS = /\p{L}/u;

export type Noise = 'empty' | 'cut-off' | 'garbage' | 'loop';

/** The one word a response is, lowercase (special tokens and answer tags aside); null when it is more or less. */
export function bareWord(response: string): string | null {
  const t = stripSpecial(response).replace(/<\/?answer>/gi, ' ').trim();
  return t && t.length <= 40 && !/\s/.test(t) ? t.toLowerCase() : null;
}

const LATIN_WORD = /^[a-z]+$/;
const VOWEL = /[aeiouy]/;
/** A text that ends as finished text does (a think left open by a model that then answered is not cut). */
const FINISHED = new RegExp(`(?:[${SENTENCE_END})\\]}>$\`」』]|<\\/answer>)\\s*$`);
/** A bare number or formula, short, in any script's digits and closed by any script's sentence end: an answer, not noise. */
const BARE_ANSWER = new RegExp(`^[-+]?[\\p{N}\\s.,+\\-*/=()^%$\\\\{}]{1,40}[${SENTENCE_END}]?$`, 'u');
/**
 * Letters (and marks) in words: a whitespace-separated piece that is a word once its punctuation is
 * trimmed ("It", "is", "है।"; joined by an apostrophe or hyphen at most), or a run of three or more
 * inside a piece of symbols (a LaTeX command). Random characters hold their letters among digits and symbols.
 */
const IN_WORDS = /(?<=^|\s)\p{P}*([\p{L}\p{M}]+(?:['’-][\p{L}\p{M}]+)*)\p{P}*(?=\s|$)|[\p{L}\p{M}]{3,}/gu;

const SPACE = /\s/;

/** A text's characters (code points) outside its whitespace, and how many are letters: one pass, no copy (the characters of most text are ASCII). */
function lettersOf(text: string): [number, number] {
  let chars = 0;
  let letters = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if (c === 32 || (c >= 9 && c <= 13)) continue;
      chars++;
      if ((c | 32) >= 97 && (c | 32) <= 122) letters++;
    } else if (c >= 0xd800 && c <= 0xdfff) return lettersSlow(text); // a surrogate: as code points, whitespace removed first (it may join a pair)
    else if (!SPACE.test(text[i])) {
      chars++;
      if (LETTERS.test(text[i])) letters++;
    }
  }
  return [chars, letters];
}

function lettersSlow(text: string): [number, number] {
  const chars = [...text.replace(/\s+/g, '')];
  return [chars.length, chars.filter((ch) => LETTERS.test(ch)).length];
}

function lettersInWords(text: string): number {
  let n = 0;
  IN_WORDS.lastIndex = 0;
  for (let m = IN_WORDS.exec(text); m; m = IN_WORDS.exec(text)) n += codePoints(m[1] ?? m[0]);
  return n;
}

/** A string's code points (a surrogate pair is one, a lone surrogate one too), as its iterator counts them. */
function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i + 1 < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) (n--, i++);
    }
  }
  return n;
}

/**
 * Empty, cut off (a few words and no end, or a think that never closed), garbage (few letters, or
 * Latin words that no language writes: vowel-less runs; other scripts are not judged by Latin vowels),
 * or a loop (one sentence repeated over most of the text).
 */
export function noiseOf(response: string, toolCalls: readonly string[], toks: readonly string[], parts?: ResponseParts): Noise | null {
  if (toolCalls.length) return null;
  const t = stripSpecial(response).trim();
  if (!t) return 'empty';
  if (parts?.cut && !FINISHED.test(t.slice(-80))) return 'cut-off';
  if (BARE_ANSWER.test(t)) return null;
  const head = t.length > 4096 ? t.slice(0, 4096) : t;
  const [chars, letters] = lettersOf(head);
  // letters in words: most of a text's letters, few of random characters'
  if (letters / chars < 0.2 || (letters > 0 && lettersInWords(head) / letters < 0.6 && !UNSPACED.test(head))) return 'garbage';
  // the words with letters: how many, the longest, how many are Latin and how many of those have no vowel
  let wordToks = 0;
  let longest = 0;
  let latin = 0;
  let vowelless = 0;
  for (const w of toks) {
    if (!hasLetter(w)) continue;
    wordToks++;
    longest = Math.max(longest, w.length);
    if (!LATIN_WORD.test(w)) continue;
    latin++;
    if (w.length > 3 && !VOWEL.test(w)) vowelless++;
  }
  if (wordToks >= 4 && (longest > 40 || (latin >= 4 && vowelless / latin > 0.4))) return 'garbage';
  if (wordToks < 3 && !FINISHED.test(t)) return 'cut-off';
  if (t.length > 200 && isLoop(t)) return 'loop';
  return null;
}

