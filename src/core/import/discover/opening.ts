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

let segmenter: Intl.Segmenter | null = null;

/** A run of unspaced script in its segments, words and what stands between them (Intl.Segmenter: in every browser and in Node). */
export function segmentsOf(run: string): Iterable<Intl.SegmentData> {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  return segmenter.segment(run);
}

/** The words of a run of unspaced script. */
export function* segmentWords(run: string): Generator<string> {
  for (const seg of segmentsOf(run)) if (seg.isWordLike) yield seg.segment;
}

/** Letters as a key counts them: a run of digits is one (`#`). */
const keyLetters = (w: string) => [...w.replace(/\p{N}+/gu, '#')].length;

/**
 * The keys of an opening's first one, two and three words (in an unspaced script, whole words up to
 * two, four and six characters: "我想知道为什么" → 我想, 我想知道, 我想知道为什么, never "为什"): lowercase,
 * numbers as `#`, punctuation dropped.
 */
export function openingKeys(opening: string): string[] {
  const t = opening.toLowerCase();
  if (UNSPACED.test(t.slice(0, 4))) {
    const ws = [...segmentWords(t)].map((w) => w.replace(/\p{N}+/gu, '#'));
    const keys: string[] = [];
    let [key, letters, at] = ['', 0, 0];
    for (const want of [2, 4, 6]) {
      if (at >= ws.length) break;
      do {
        key += ws[at];
        letters += keyLetters(ws[at++]);
      } while (letters < want && at < ws.length);
      keys.push(key);
    }
    return keys;
  }
  const ws = t
    .replace(/\p{N}+/gu, '#')
    .split(/\s+/)
    .map((w) => w.replace(/^\p{P}+|\p{P}+$/gu, ''))
    .filter(Boolean)
    .slice(0, 3);
  return ws.map((_, i) => ws.slice(0, i + 1).join(' '));
}

/** An opening's words as a step counts them for topic (step-terms.ts `StepTerms.topic`): lowercase, punctuation at their ends trimmed; an unspaced script's as segmented. */
export function openingWords(opening: string): string[] {
  const t = opening.toLowerCase();
  if (UNSPACED.test(t.slice(0, 4))) return [...segmentWords(t)];
  return t
    .split(/\s+/)
    .map((w) => w.replace(/^\p{P}+|\p{P}+$/gu, ''))
    .filter(Boolean);
}
