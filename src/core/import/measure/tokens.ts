// Response tokens when a log has no tokenizer output: words and single punctuation marks. Used for
// the empirical token statistics and for rule lengths, and labelled as such wherever shown.
import type { ImportedSample } from '../types';

const WORD = /[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;

export function tokensOf(s: ImportedSample, max = Infinity): string[] {
  if (s.tokens) return s.tokens.length > max ? s.tokens.slice(0, max) : s.tokens;
  const out: string[] = [];
  WORD.lastIndex = 0;
  for (let m = WORD.exec(s.response); m && out.length < max; m = WORD.exec(s.response)) out.push(m[0]);
  return out;
}

/** First action: the first tool called, else the response's first token ('' for an empty response). */
export function firstAction(s: ImportedSample): string {
  return s.toolCalls[0] ?? tokensOf(s, 1)[0] ?? '';
}
