// Tokenizer of the rule language: source text → tokens with their character ranges. Numbers,
// strings ('…' or "…" with backslash escapes), names (fields, functions, decisions, true/false and
// the word operators and/or/not/in) and operator symbols. Symbols the language does not use
// (=== & | …) are still tokens, so the parser can reject them where they stand with a hint; a
// character that starts no token is rejected here. In a rule line, "#" outside a string starts the
// label: the rest of the line is one 'label' token. Work is bounded before it starts: a text over
// MAX_CHARS is refused unread, and scanning stops at the first token past MAX_TOKENS.
import { ExprError } from './types';

export type TokenKind = 'number' | 'string' | 'name' | 'op' | 'label' | 'bad' | 'end';

export interface Token {
  kind: TokenKind;
  /** The source text of the token ('' for the end). */
  text: string;
  /** Parsed value of a number or string token. */
  value?: number | string;
  pos: number;
  end: number;
}

/** What is tokenized: an expression, or a rule line (which may end with "# label"). */
export type TokenMode = 'expression' | 'rule';

/** Characters a text may have before it is tokenized at all (a rule line, an expression). */
export const MAX_CHARS = 20_000;
/** Tokens an expression or a rule line may have. */
export const MAX_TOKENS = 2000;

/** Longest first: the tokenizer takes the longest symbol that matches. */
const SYMBOLS = [
  '>>>', '===', '!==',
  '**', '<=', '>=', '==', '!=', '&&', '||', '<<', '>>', '??', '?.', '=>',
  '+', '-', '*', '/', '%', '<', '>', '!', '~', '&', '|', '^', '?', ':', '=', '(', ')', '[', ']', ',', '.',
];
const ESCAPES = new Map(Object.entries({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\x0B' }));
const SPACE = /\s/;
const DIGIT = /[0-9]/;
const NAME_START = /[A-Za-z_$\p{L}\p{Nl}]/u;
const NAME_PART = /[A-Za-z0-9_$\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]/u;

/** The whole code point at `i` (an emoji is two UTF-16 units). */
const charAt = (src: string, i: number): string => String.fromCodePoint(src.codePointAt(i) ?? 0);

/** All tokens of `src`, ending with an 'end' token at src.length. Throws ExprError on a bad character or past a cap. */
export function tokenize(src: string, mode: TokenMode = 'expression'): Token[] {
  if (src.length > MAX_CHARS) throw new ExprError(`text too long (${src.length} characters; at most ${MAX_CHARS})`, 0, src.length);
  return scan(src, mode, false);
}

/**
 * The tokens of possibly broken text, never throwing (for the editor: what is at the cursor while
 * the user types): a bad character is a 'bad' token and an unclosed string runs to the end.
 * Text past MAX_CHARS is not read.
 */
export function scanTokens(src: string, mode: TokenMode = 'rule'): Token[] {
  return scan(src.slice(0, MAX_CHARS), mode, true);
}

function scan(src: string, mode: TokenMode, lenient: boolean): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (SPACE.test(c)) {
      i++;
      continue;
    }
    if (out.length >= MAX_TOKENS) {
      if (lenient) break;
      throw new ExprError(`expression too long (more than ${MAX_TOKENS} tokens)`, i, src.length);
    }
    const start = i;
    try {
      if (mode === 'rule' && c === '#') {
        out.push({ kind: 'label', text: src.slice(i + 1), pos: start, end: src.length });
        i = src.length;
      } else if (DIGIT.test(c) || (c === '.' && DIGIT.test(src[i + 1] ?? ''))) {
        i = numberEnd(src, i);
        const text = src.slice(start, i);
        out.push({ kind: 'number', text, value: Number(text), pos: start, end: i });
      } else if (c === '"' || c === "'") {
        const [value, end] = stringAt(src, i);
        i = end;
        out.push({ kind: 'string', text: src.slice(start, i), value, pos: start, end: i });
      } else if (NAME_START.test(charAt(src, i))) {
        i += charAt(src, i).length;
        while (i < src.length && NAME_PART.test(charAt(src, i))) i += charAt(src, i).length;
        out.push({ kind: 'name', text: src.slice(start, i), pos: start, end: i });
      } else {
        // `?.5` is a ? followed by the number .5, not optional member access
        const sym = SYMBOLS.find((s) => src.startsWith(s, i) && !(s === '?.' && DIGIT.test(src[i + 2] ?? '')));
        if (!sym) {
          const ch = charAt(src, i);
          throw new ExprError(`unexpected character "${ch}"${c === '`' ? ': strings use \' or "' : ''}`, i, i + ch.length);
        }
        i += sym.length;
        out.push({ kind: 'op', text: sym, pos: start, end: i });
      }
    } catch (e) {
      if (!lenient || !(e instanceof ExprError)) throw e;
      // an unclosed string runs to the end; any other bad spot is skipped to its end
      const end = Math.max(e.end, start + 1);
      out.push({ kind: c === '"' || c === "'" ? 'string' : 'bad', text: src.slice(start, end), pos: start, end });
      i = end;
    }
  }
  out.push({ kind: 'end', text: '', pos: src.length, end: src.length });
  return out;
}

/** End of the number literal at `i`: digits, an optional fraction, an optional exponent. */
function numberEnd(src: string, i: number): number {
  const start = i;
  const digits = () => {
    while (i < src.length && DIGIT.test(src[i])) i++;
  };
  digits();
  if (src[i] === '.') {
    i++;
    digits();
  }
  if (src[i] === 'e' || src[i] === 'E') {
    i++;
    if (src[i] === '+' || src[i] === '-') i++;
    const before = i;
    digits();
    if (i === before) throw new ExprError(`expected digits after the exponent of the number ${src.slice(start, i)}`, start, i);
  }
  const next = i < src.length ? charAt(src, i) : '';
  if (next === '.') throw new ExprError(`unexpected "." after the number ${src.slice(start, i)}`, i, i + 1);
  if (NAME_PART.test(next)) {
    throw new ExprError(`names cannot start with a digit (${src.slice(start, i)}${next}…)`, start, i + next.length);
  }
  return i;
}

/** Value and end of the string literal whose opening quote is at `i`. */
function stringAt(src: string, i: number): [string, number] {
  const quote = src[i];
  let value = '';
  for (let j = i + 1; j < src.length; j++) {
    const c = src[j];
    if (c === quote) return [value, j + 1];
    if (c === '\\') {
      j++;
      if (j >= src.length) break;
      value += ESCAPES.get(src[j]) ?? src[j];
    } else value += c;
  }
  throw new ExprError(`Unclosed quote: the string opened here needs a closing ${quote}`, i, src.length);
}
