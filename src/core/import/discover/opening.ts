// A text's opening as written (what a name quotes) and its key (what groups count openings by), and
// what scripts write between words and sentences.

/** A sentence's end in any script: full stop, question and exclamation marks, the Chinese, Devanagari and Arabic ones too. */
export const SENTENCE_END = '.!?。！？।॥؟۔';

/** Scripts written without spaces between words. */
export const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** The first words of a text as written: up to five words (36 characters), or a first short sentence in an unspaced script. */
export function openingOf(text: string): string {
  const line = text.trim().split('\n', 4).find((l) => l.trim()) ?? '';
  const t = line.trim().slice(0, 200);
  if (UNSPACED.test(t.slice(0, 8))) {
    const end = t.search(/[。！？!?]/);
    return (end > 0 && end <= 16 ? t.slice(0, end + 1) : t.slice(0, 12)).trim();
  }
  const ws = t.split(/\s+/).slice(0, 5).join(' ');
  return ws.length > 36 ? ws.slice(0, 36) : ws;
}

/** The last sentence of a text as written, up to eight words (a request's question or instruction: "Reply only with a name."); '' in an unspaced script. */
export function closingOf(text: string): string {
  const line = text.trim().split('\n').reverse().find((l) => l.trim())?.trim().slice(-300) ?? '';
  if (UNSPACED.test(line)) return '';
  const sentences = line.split(/(?<=[.!?])\s+/).filter((x) => /\p{L}/u.test(x));
  const ws = (sentences.at(-1) ?? '').split(/\s+/);
  return ws.length <= 8 ? ws.join(' ') : '';
}

/**
 * The keys of an opening's first one, two and three words (two, four and six characters of an
 * unspaced script): lowercase, numbers and punctuation dropped.
 */
export function openingKeys(opening: string): string[] {
  const t = opening.toLowerCase().replace(/\p{N}+/gu, '#');
  if (UNSPACED.test(t.slice(0, 4))) {
    const c = [...t.replace(/[\s\p{P}]+/gu, '')];
    return [2, 4, 6].filter((n) => n <= c.length || n === 2).map((n) => c.slice(0, n).join('')).filter(Boolean);
  }
  const ws = t
    .split(/\s+/)
    .map((w) => w.replace(/^\p{P}+|\p{P}+$/gu, ''))
    .filter(Boolean)
    .slice(0, 3);
  return ws.map((_, i) => ws.slice(0, i + 1).join(' '));
}

/** An opening's words as a step counts them for topic (step-terms.ts `StepTerms.topic`): lowercase, punctuation at their ends trimmed; none in an unspaced script. */
export function openingWords(opening: string): string[] {
  if (UNSPACED.test(opening.slice(0, 4))) return [];
  return opening
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/^\p{P}+|\p{P}+$/gu, ''))
    .filter(Boolean);
}
