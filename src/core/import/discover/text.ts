// What a response DOES, as terms: its words with the request's words masked (topic is not evidence),
// and its shape (opening and closing, lists, code blocks, tool calls and their names, a question
// back, a check at the end, a hand-off; for a reasoning trace, how it moves: moves.ts). A response is
// read in its parts (chat.ts): special tokens are not words, the reasoning and the answer are read
// apart, and a long text is read at its head and tail. Noise (empty, cut-off, garbage, a loop) is
// told apart first (noise.ts).
// Terms are plain strings: `w:` words, `b:` word pairs, `t:` word triples, `s:` shape, `l:` length and lines (log2 buckets), `o:` / `c:`
// the opening and closing words, `r:` the turn a response follows in its session. A sample's terms are computed once (discoverer.ts).
import { chatTurnKind, chatTurns, responseParts, stripSpecial, userTurns, type ResponseParts } from './chat';
import { SENTENCE_END, UNSPACED, closingOf, openingOf, segmentWords } from './opening';
import { framingTerms, isLoop, moveTerms, reasoningTerms, scanned } from './moves';

const WORD = /[\p{L}\p{M}\p{N}_']+|[^\s\p{L}\p{M}\p{N}_']/gu;
const LETTERS = /\p{L}/u;
const NUMBER = /^\p{N}+([.,]\p{N}+)?$/u;

/** Whether a word holds a letter (`LETTERS`), an ASCII word read without the regex (most words of most runs). */
export function hasLetter(w: string): boolean {
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    if (c >= 128) return LETTERS.test(w);
    if ((c | 32) >= 97 && (c | 32) <= 122) return true;
  }
  return false;
}

/** A run of unspaced script split into words. */
function segmentRun(run: string, out: string[], max: number): void {
  for (const w of segmentWords(run)) {
    if (out.length >= max) return;
    out.push(w);
  }
}

/** Words too common to say anything about a frame on their own (they still count inside pairs). */
const STOP = new Set('a an the of to in on at for and or is are be it this that with as by from was were i you we 的 了 是 在 和'.split(' '));

/** A text's words in any script: lowercase, numbers as `#`, each punctuation mark its own token, unspaced scripts segmented. */
export function words(text: string, max = 400): string[] {
  const out: string[] = [];
  // a text with no unspaced script has no word to segment (lowercase stays in its script)
  const unspaced = UNSPACED.test(text);
  const add = (token: string) => {
    const w = token.toLowerCase();
    if (unspaced && w.length > 1 && UNSPACED.test(w)) segmentRun(w, out, max);
    else out.push(maybeNumber(w) && NUMBER.test(w) ? '#' : w);
  };
  // the tokens WORD reads, an ASCII token read without it (most tokens of most runs); at any other character, WORD reads on from there
  const n = text.length;
  let i = 0;
  while (i < n && out.length < max) {
    const c = text.charCodeAt(i);
    if (c < 128 && ASCII_CLASS[c] === SPACE_CHAR) i++;
    else if (c < 128 && ASCII_CLASS[c] === MARK_CHAR) add(text[i++]);
    else {
      let j = i;
      while (j < n && text.charCodeAt(j) < 128 && ASCII_CLASS[text.charCodeAt(j)] === WORD_CHAR) j++;
      if (j > i && (j === n || text.charCodeAt(j) < 128)) add(text.slice(i, (i = j)));
      else {
        WORD.lastIndex = i;
        const m = WORD.exec(text);
        if (!m) break;
        add(m[0]);
        i = WORD.lastIndex;
      }
    }
  }
  return out;
}

/** What an ASCII character is to WORD: white space, a word's (letters, digits, `_`, `'`), or a mark that is a token alone. */
const SPACE_CHAR = 0;
const WORD_CHAR = 1;
const MARK_CHAR = 2;
const ASCII_CLASS = Uint8Array.from({ length: 128 }, (_, c) => (/\s/.test(String.fromCharCode(c)) ? SPACE_CHAR : /[\p{L}\p{M}\p{N}_']/u.test(String.fromCharCode(c)) ? WORD_CHAR : MARK_CHAR));

/** A number starts with a digit: a word that starts with any other ASCII character is none. */
function maybeNumber(w: string): boolean {
  const c = w.charCodeAt(0);
  return c >= 128 || (c >= 48 && c <= 57);
}

/** Up to `head` words from a text's start and `tail` from its end (a long trace is read at both ends). */
export function headTail(text: string, head: number, tail: number): string[] {
  const all = words(text.length > 40_000 ? text.slice(0, 30_000) : text, head + tail + 1);
  if (all.length <= head + tail) return all;
  const end = words(text.slice(-Math.min(text.length, tail * 24)), 100_000).slice(-tail);
  return [...all.slice(0, head), ...end];
}

/** The prompt's content words (what a response may repeat without that saying anything about its frame). */
export function promptWords(prompt: string): Set<string> {
  const out = new Set<string>();
  for (const w of words(prompt, 2000)) if (w.length > 1 && hasLetter(w) && !STOP.has(w)) out.add(w);
  return out;
}

/** An answer's content words, read at its head (200 words) and tail (40) at bounded cost (what the answers to a kind of request talk about: answer-kinds.ts). */
export function answerWords(response: string): string[] {
  const head = words(stripSpecial(response.slice(0, ANSWER_HEAD_CHARS)), 200);
  const tail = response.length > ANSWER_HEAD_CHARS ? words(stripSpecial(response.slice(-ANSWER_TAIL_CHARS)), 1000).slice(-40) : [];
  return [...head, ...tail].filter((w) => w.length > 1 && hasLetter(w) && !STOP.has(w));
}
/** Characters that hold 200 words of most scripts, and 40 at the end. */
const ANSWER_HEAD_CHARS = 3000;
const ANSWER_TAIL_CHARS = 600;

/** Tool names written in the text (`<tool_call>{"name": "x"…}` and `"name": "x"` inside a call block). */
export function textToolNames(response: string): string[] {
  const out: string[] = [];
  // `[^}<]`: a call's object ends at `}` and the next call starts at `<`, so no text is read twice
  const re = /<tool_call>\s*\{[^}<]*?"name"\s*:\s*"([\w.-]+)"/g;
  for (let m = re.exec(response); m; m = re.exec(response)) out.push(m[1].toLowerCase());
  return out;
}

const bucket = (n: number) => (n <= 0 ? 0 : Math.min(8, Math.floor(Math.log2(n))));

/** Shape terms of a text's layout (lists, code, headings, a question back) and its lines. */
function layoutTerms(text: string, out: string[]): number {
  const t = text.trim();
  const lines = t.split('\n').map((l) => l.trim()).filter(Boolean);
  if (/```/.test(t)) out.push('s:code');
  let numbered = 0;
  let bullets = 0;
  let heading = false;
  for (const l of lines) {
    if (/^\(?\d+[.)]\s|^第?[一二三四五六七八九十\d]+[、.．]|^step \d+/i.test(l)) numbered++;
    else if (/^[-*•]\s/.test(l)) bullets++;
    if (!heading && /^#{1,4}\s|^\*\*[^*]+\*\*:?$/.test(l)) heading = true;
  }
  const inline = (t.match(/(?:^|\s)\(?\d+\)\s/g) ?? []).length;
  if (numbered >= 2) out.push('s:numbered');
  if (bullets >= 2) out.push('s:bullets');
  if (inline >= 2) out.push('s:enumerated');
  if (heading) out.push('s:heading');
  if (/[?？؟]\s*$/.test(t)) out.push('s:ends-question');
  else if (/[?？؟]/.test(t)) out.push('s:asks');
  if (/[!！]/.test(t.slice(0, 40))) out.push('s:exclaims');
  return lines.length;
}

/** Shape terms of a response (without its words): tools, layout, reasoning moves, answer framing, lengths. */
export function shapeTerms(response: string, toolCalls: readonly string[], toks: readonly string[], parts: ResponseParts = responseParts(response)): string[] {
  const out: string[] = [];
  const tools = toolCalls.length ? toolCalls.map((t) => t.toLowerCase()) : textToolNames(scanned(response));
  for (const t of tools) out.push(`s:tool:${t}`);
  if (tools.length) out.push('s:tool', `s:first:${tools[0]}`);
  if (parts.toolResults > 0) out.push('s:multi-turn');
  const answer = scanned(parts.turns.join('\n'));
  const lines = layoutTerms(answer, out);
  out.push(...framingTerms(answer));
  if (parts.reasoning !== null) {
    out.push(...reasoningTerms(parts.reasoning));
    out.push(`l:think${bucket(parts.reasoning.length / 6)}`);
  } else out.push(...moveTerms(answer)); // a response with no think reasons in the open: its moves ("Let me double-check: …") are in its text
  // an answer of a word or three and nothing else: a bare answer ("mother", "42", a name)
  if (parts.reasoning === null && !tools.length && !hasWords(toks, 4)) out.push('s:bare');
  out.push(`l:len${bucket(toks.length)}`, `l:lines${Math.min(4, bucket(lines))}`);
  return out;
}

/** Whether a token list holds `n` words (with letters, or numbers). */
function hasWords(toks: readonly string[], n: number): boolean {
  let k = 0;
  for (let i = 0; i < toks.length && k < n; i++) if (hasLetter(toks[i]) || toks[i] === '#') k++;
  return k >= n;
}

/** Words a response is read by: the reasoning's head and tail, then the answer's. */
const THINK_HEAD = 12;
const THINK_TAIL = 12;
const ANSWER_HEAD = 160;
const ANSWER_TAIL = 30;

/** The words of a response's answer that its terms read (its head and tail). */
export function answerTermWords(parts: ResponseParts): string[] {
  return headTail(parts.turns.join('\n'), ANSWER_HEAD, ANSWER_TAIL);
}

/** Words a response's noise is judged by: its first, special tokens removed. */
const NOISE_WORDS = 64;

/**
 * A response's words as its noise (`noiseOf`) and its terms (`responseTerms`) read them: the first
 * NOISE_WORDS of its text, and its answer's (`answerTermWords`; null: left to `responseTerms`). A
 * response that is all answer (no think, tool results or other turns) is read once: its first words are its answer's.
 */
export function responseWords(response: string, parts: ResponseParts): { noise: string[]; answer: string[] | null } {
  const said = stripSpecial(response.slice(0, 4000));
  if (parts.reasoning !== null || parts.toolResults > 0 || parts.turns.length !== 1 || parts.turns[0] !== said.trim()) return { noise: words(said, NOISE_WORDS), answer: null };
  const answer = answerTermWords(parts);
  return { noise: answer.slice(0, NOISE_WORDS), answer };
}

/**
 * The terms of a response: shape terms, then its words with the request's words masked (`_`):
 * single words (stop words left out), pairs and triples, and the first and last three words (its
 * frame's edges); a `q:` term carries its opening as written (no weight: for names only).
 */
export function responseTerms(response: string, request: string | ReadonlySet<string>, toolCalls: readonly string[], triples = true, parts: ResponseParts = responseParts(response), answer = answerTermWords(parts)): string[] {
  const think = parts.reasoning === null ? [] : headTail(parts.reasoning, THINK_HEAD, THINK_TAIL);
  const answerText = parts.turns.join('\n');
  const toks = [...think, ...answer];
  // the request, or its words when read already (`promptWords`: the samples of a prompt share them)
  const mask = typeof request !== 'string' ? request : request ? promptWords(request) : null;
  const masked = mask ? maskWith(toks, mask) : toks;
  const out = shapeTerms(response, toolCalls, answer, parts);
  wordTerms(masked, out, triples);
  if (think.length && answer.length) {
    // after a think, the answer's first words are the response's opening (a think opens much the same way whatever follows)
    const a = (mask ? maskWith(answer, mask) : answer).filter((x) => hasLetter(x) || x === '_').slice(0, 2);
    const f = out.findIndex((t) => t.startsWith('f:'));
    const o = out.findIndex((t) => t.startsWith('o:'));
    if (a.length) {
      if (o >= 0) out[o] = `o:» ${a.join(' ')}`;
      else out.push(`o:» ${a.join(' ')}`);
      if (f >= 0) out[f] = `f:${a[0]}`;
    }
  }
  out.push(`q:${openingOf(textOpening(parts.reasoning || answerText))}`);
  return out;
}

/** A text's words without its tool calls and tags (a response that opens with a call has no written opening: its shape names the call). */
function textOpening(text: string): string {
  return text.replace(/<tool_call>[\s\S]*?(<\/tool_call>|$)/g, ' ').replace(/<\/?[a-z_]{1,20}>/gi, ' ').trim();
}

/** The user turns of a prompt (the whole prompt when it is not a chat), special tokens removed. */
export function requestTurns(prompt: string): string[] {
  const turns = chatTurns(prompt);
  if (!turns) return [stripSpecial(prompt).trim()];
  const users = userTurns(turns);
  return users.length ? users : [turns.at(-1)!.text];
}

/**
 * What a response answers, read from a chat prompt's last turn (chat.ts `turnKind`): `r:first` (the
 * request), `r:after-tool` (a tool's result: a reply with no call reports it) or `r:follow-up` (the
 * user's next message: a reply acknowledges it); none for a prompt that is not a chat. It says what
 * the response does relative to its turn without its topic; a run of single-turn chats holds one
 * such term in every sample, and a shape that common fades (vectors.ts `commonShapeFade`).
 */
export function followsTerms(prompt: string): string[] {
  const kind = chatTurnKind(prompt);
  return kind ? [`r:${kind}`] : [];
}

/** Words the prompt also holds become `_`. */
export function maskWith(toks: readonly string[], mask: ReadonlySet<string>): string[] {
  return toks.map((w) => (mask.has(w) ? '_' : w));
}

/** Whether a word is one a text's `w:` terms hold when its request does not (`wordTerms`): a response's word not among them was its request's. */
export function isWordTerm(w: string): boolean {
  return w !== '_' && w !== '#' && !STOP.has(w) && hasLetter(w);
}

/** Word, pair and triple terms of a token list (triples left out when they weigh nothing), and its opening and closing words. */
export function wordTerms(toks: readonly string[], out: string[], triples = true): void {
  const w = toks;
  for (let i = 0; i < w.length; i++) {
    if (isWordTerm(w[i])) out.push(`w:${w[i]}`);
    if (i + 1 < w.length && !(w[i] === '_' && w[i + 1] === '_')) out.push(`b:${w[i]} ${w[i + 1]}`);
    if (triples && i + 2 < w.length && [w[i], w[i + 1], w[i + 2]].filter((x) => x === '_').length < 2) out.push(`t:${w[i]} ${w[i + 1]} ${w[i + 2]}`);
  }
  const open: string[] = []; // the first two words with letters (or masked)
  for (let i = 0; i < w.length && open.length < 2; i++) if (hasLetter(w[i]) || w[i] === '_') open.push(w[i]);
  const close = w.slice(-3);
  if (open.length) out.push(`f:${open[0]}`, `o:${open.join(' ')}`);
  if (close.length) out.push(`c:${close.join(' ')}`, `c:${close.at(-1)}`);
}

/** The dominant script of a text's letters ('latin', 'han', 'cyrillic', …). */
const SCRIPTS: [string, RegExp][] = [
  ['han', /\p{Script=Han}/u],
  ['kana', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['hangul', /\p{Script=Hangul}/u],
  ['cyrillic', /\p{Script=Cyrillic}/u],
  ['arabic', /\p{Script=Arabic}/u],
  ['devanagari', /\p{Script=Devanagari}/u],
  ['thai', /\p{Script=Thai}/u],
  ['greek', /\p{Script=Greek}/u],
  ['hebrew', /\p{Script=Hebrew}/u],
];

export function scriptOf(text: string): string {
  const counts = new Map<string, number>();
  let latin = 0;
  for (const ch of text.slice(0, 2000)) {
    if (!LETTERS.test(ch)) continue;
    if (ch < '\u0250') {
      latin++;
      continue;
    }
    const s = SCRIPTS.find(([, re]) => re.test(ch))?.[0] ?? 'other';
    counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  let best: [string, number] = ['latin', latin];
  for (const [s, k] of counts) if (k > best[1]) best = [s, k];
  return best[0];
}

/**
 * What a request is written in, qualified by its script: whether it is mostly numbers and symbols
 * (math) or code, and its length. A script is not evidence that two requests are alike (every
 * English request shares it), but requests in different scripts share no term at all.
 */
function profileTerms(text: string, script: string, length: number): string[] {
  const head = text.slice(0, 2000);
  const out = [`l:${script}:len${bucket(length)}`];
  const chars = head.replace(/\s+/g, '').length || 1;
  const math = (head.match(/[\d=+\-*/^\\$<>()]/g) ?? []).length;
  if (math / chars > 0.2) out.push(`p:${script}:math`);
  if (/```|\bdef |\bfunction\b|[{};]\s*$/m.test(head)) out.push(`p:${script}:code`);
  return out;
}

/** Words a request's kind is read by: its head (what is asked) and its tail (standing instructions). */
const REQUEST_HEAD = 80;
const REQUEST_TAIL = 30;

/**
 * The terms of a request for its kind: its words of two letters or more (numbers folded to one `#`,
 * quoted text folded; grids, art and symbols are content, not kind), pairs, opening words, and what
 * it is written in. A term without a letter (a closing `#`) is read within the request's script, as
 * its length and profile are: requests in two scripts share no term. `q:` and `e:` terms carry its
 * opening and its last sentence as written (no weight: for names only).
 */
export function promptTerms(request: string): string[] {
  const folded = request.replace(/"[^"\n]*"|'[^'\n]*'/g, ' "" ');
  const toks: string[] = [];
  for (const w of words(folded.length > 20_000 ? folded.slice(0, 16_000) + '\n' + folded.slice(-4000) : folded, 4000)) {
    if (w === '#') {
      if (toks.at(-1) !== '#') toks.push(w);
    } else if (hasLetter(w) && (w.length > 1 || UNSPACED.test(w))) toks.push(w);
  }
  const read = toks.length > REQUEST_HEAD + REQUEST_TAIL ? [...toks.slice(0, REQUEST_HEAD), ...toks.slice(-REQUEST_TAIL)] : toks;
  const out: string[] = [];
  wordTerms(read, out);
  const script = scriptOf(request.slice(0, 2000));
  for (let k = 0; k < out.length; k++) if (!LETTERS.test(out[k].slice(2))) out[k] = `${out[k].slice(0, 2)}${script}:${out[k].slice(2)}`;
  const numbered = folded.replace(/\p{N}+([.,]\p{N}+)*/gu, '#');
  out.push(...profileTerms(request, script, toks.length), `q:${openingOf(numbered)}`, `e:${closingOf(numbered)}`);
  return out;
}
