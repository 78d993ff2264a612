// What a response DOES, as terms: its words with the prompt's words masked (topic is not evidence),
// and its shape (opening and closing, lists, code blocks, tool calls and their names, a question
// back, a check at the end, a hand-off). Noise (empty, cut-off, garbage) is told apart here.
// Terms are plain strings: `w:` words, `b:` word pairs, `t:` word triples, `s:` shape, `l:` length and lines (log2 buckets), `o:` / `c:`
// the opening and closing words. A sample's terms are computed once (discoverer.ts).

const WORD = /[\p{L}\p{N}_']+|[^\s\p{L}\p{N}_']/gu;
const LETTERS = /\p{L}/u;
const NUMBER = /^\p{N}+([.,]\p{N}+)?$/u;

/** Words too common to say anything about a frame on their own (they still count inside pairs). */
const STOP = new Set('a an the of to in on at for and or is are be it this that with as by from was were i you we'.split(' '));

/** A response's words: lowercase, numbers as `#`, each punctuation mark its own token. */
export function words(text: string, max = 400): string[] {
  const out: string[] = [];
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m && out.length < max; m = WORD.exec(text)) {
    const w = m[0].toLowerCase();
    out.push(NUMBER.test(w) ? '#' : w);
  }
  return out;
}

/** The prompt's content words (what a response may repeat without that saying anything about its frame). */
export function promptWords(prompt: string): Set<string> {
  const out = new Set<string>();
  for (const w of words(prompt, 2000)) if (w.length > 1 && LETTERS.test(w) && !STOP.has(w)) out.add(w);
  return out;
}

export type Noise = 'empty' | 'cut-off' | 'garbage';

/** Empty, cut off (a few words, no end), or garbage (few letters, or no word repeats a language's shape). */
export function noiseOf(response: string, toolCalls: readonly string[], toks: readonly string[]): Noise | null {
  if (toolCalls.length) return null;
  const t = response.trim();
  if (!t) return 'empty';
  const letters = [...t].filter((ch) => LETTERS.test(ch)).length;
  if (letters / [...t.replace(/\s+/g, '')].length < 0.5) return 'garbage';
  const wordToks = toks.filter((w) => LETTERS.test(w));
  if (wordToks.length >= 4) {
    const longest = wordToks.reduce((a, w) => Math.max(a, w.length), 0);
    const vowelless = wordToks.filter((w) => w.length > 3 && !/[aeiouy\u00e0-\u00ff]/.test(w)).length;
    if (longest > 40 || vowelless / wordToks.length > 0.4) return 'garbage';
  }
  if (wordToks.length < 3 && !/[.!?)\]`>]$/.test(t)) return 'cut-off';
  return null;
}

/** Tool names written in the text (`<tool_call>{"name": "x"…}` and `"name": "x"` inside a call block). */
export function textToolNames(response: string): string[] {
  const out: string[] = [];
  // `[^}<]`: a call's object ends at `}` and the next call starts at `<`, so no text is read twice
  const re = /<tool_call>\s*\{[^}<]*?"name"\s*:\s*"([\w.-]+)"/g;
  for (let m = re.exec(response); m; m = re.exec(response)) out.push(m[1].toLowerCase());
  return out;
}

const bucket = (n: number) => (n <= 0 ? 0 : Math.min(8, Math.floor(Math.log2(n))));

/** Shape terms of a response (without its words). */
export function shapeTerms(response: string, toolCalls: readonly string[], toks: readonly string[]): string[] {
  const out: string[] = [];
  const tools = toolCalls.length ? toolCalls.map((t) => t.toLowerCase()) : textToolNames(response);
  for (const t of tools) out.push(`s:tool:${t}`);
  if (tools.length) out.push('s:tool');
  const lines = response.split('\n').map((l) => l.trim()).filter(Boolean);
  if (/```/.test(response)) out.push('s:code');
  const numbered = lines.filter((l) => /^\(?\d+[.)]\s/.test(l)).length;
  const bullets = lines.filter((l) => /^[-*•]\s/.test(l)).length;
  const inline = (response.match(/(^|\s)\(?\d+\)\s/g) ?? []).length;
  if (numbered >= 2) out.push('s:numbered');
  if (bullets >= 2) out.push('s:bullets');
  if (inline >= 2) out.push('s:enumerated');
  if (lines.some((l) => /^#{1,4}\s|^\*\*[^*]+\*\*:?$/.test(l))) out.push('s:heading');
  const t = response.trim();
  if (/\?\s*$/.test(t)) out.push('s:ends-question');
  else if ((t.match(/\?/g) ?? []).length) out.push('s:asks');
  if (/!/.test(t.slice(0, 40))) out.push('s:exclaims');
  out.push(`l:len${bucket(toks.length)}`, `l:lines${Math.min(4, bucket(lines.length))}`);
  return out;
}

/**
 * The terms of a response: shape terms, then its words with prompt words masked (`_`): single words
 * (stop words left out), pairs and triples, and the first and last three words (its frame's edges).
 */
export function responseTerms(response: string, prompt: string, toolCalls: readonly string[], maxWords = 400, triples = true): string[] {
  const toks = words(response, maxWords);
  const masked = prompt ? maskWith(toks, promptWords(prompt)) : toks;
  const out = shapeTerms(response, toolCalls, toks);
  wordTerms(masked, out, triples);
  return out;
}

/** Words the prompt also holds become `_`. */
export function maskWith(toks: readonly string[], mask: ReadonlySet<string>): string[] {
  return toks.map((w) => (mask.has(w) ? '_' : w));
}

/** Word, pair and triple terms of a token list (triples left out when they weigh nothing), and its opening and closing words. */
export function wordTerms(toks: readonly string[], out: string[], triples = true): void {
  const w = toks;
  for (let i = 0; i < w.length; i++) {
    if (w[i] !== '_' && w[i] !== '#' && !STOP.has(w[i]) && LETTERS.test(w[i])) out.push(`w:${w[i]}`);
    if (i + 1 < w.length && !(w[i] === '_' && w[i + 1] === '_')) out.push(`b:${w[i]} ${w[i + 1]}`);
    if (triples && i + 2 < w.length && [w[i], w[i + 1], w[i + 2]].filter((x) => x === '_').length < 2) out.push(`t:${w[i]} ${w[i + 1]} ${w[i + 2]}`);
  }
  const lettersOnly = w.filter((x) => LETTERS.test(x) || x === '_');
  const open = lettersOnly.slice(0, 3);
  const close = w.slice(-3);
  if (open.length) out.push(`o:${open[0]}`, `o:${open.slice(0, 2).join(' ')}`);
  if (close.length) out.push(`c:${close.join(' ')}`, `c:${close.at(-1)}`);
}

/** The terms of a prompt for its kind of request: words (numbers and quoted text folded), pairs, opening words. */
export function promptTerms(prompt: string, maxWords = 200): string[] {
  const folded = prompt.replace(/"[^"\n]*"|'[^'\n]*'/g, ' "" ');
  const toks = words(folded, maxWords);
  const out: string[] = [];
  wordTerms(toks, out);
  out.push(`l:len${bucket(toks.length)}`);
  return out;
}
