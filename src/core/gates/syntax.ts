// Our own Pratt (precedence-climbing) parser: tokens → an untyped syntax tree with character
// ranges; parse.ts then checks names and types. Binary precedences are JavaScript's: || or 1,
// && and 2, == != 6, < <= > >= in 7, + - 9, * / % 10, ** 11 (right-associative). Prefix - + ! not
// bind tighter than any binary operator (so -2 ** 2 is (-2) ** 2 = 4, where JavaScript refuses it);
// c ? a : b is lowest and right-associative. A parenthesized expression spans its parentheses.
import { tokenize, type Token } from './tokens';
import { ExprError } from './types';

export type Syntax = { pos: number; end: number } & (
  | { kind: 'number'; value: number; raw: string }
  | { kind: 'string'; value: string }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'name'; name: string }
  | { kind: 'list'; items: Syntax[] }
  | { kind: 'unary'; op: '-' | '+' | '!' | 'not'; arg: Syntax }
  | { kind: 'binary'; op: SyntaxOp; left: Syntax; right: Syntax }
  | { kind: 'cond'; test: Syntax; then: Syntax; else: Syntax }
  | { kind: 'call'; callee: Syntax; args: Syntax[] }
);

const BINARY = {
  '||': 1, or: 1, '&&': 2, and: 2, '==': 6, '!=': 6, '<': 7, '<=': 7, '>': 7, '>=': 7, in: 7,
  '+': 9, '-': 9, '*': 10, '/': 10, '%': 10, '**': 11,
} as const;
export type SyntaxOp = keyof typeof BINARY;
const WORD_OPS = new Set(['and', 'or', 'in', 'not']);

/** Operators of JavaScript that the language rejects, with what to write instead. */
const REJECTED: Record<string, string> = {
  '===': 'use ==', '!==': 'use !=', '=': 'use == to compare', '&': 'use && (and)', '|': 'use || (or)',
  '^': 'no bitwise operators', '<<': 'no bitwise operators', '>>': 'no bitwise operators', '>>>': 'no bitwise operators',
  '??': 'no value is ever null', '~': 'use ! (not)',
};
const MEMBER = 'member access (. or [ ]) is not part of the language: fields are plain names';
/** Bounds on nesting and length, so that no input exhausts the stack here or in the evaluator. */
const MAX_DEPTH = 200;
const MAX_TOKENS = 2000;

/** Parse `src` to a syntax tree, or throw ExprError with the position and the reason. */
export function parseSyntax(src: string): Syntax {
  const tokens = tokenize(src);
  if (tokens.length > MAX_TOKENS) throw new ExprError(`expression too long (more than ${MAX_TOKENS} tokens)`, 0, src.length);
  return new Parser(tokens, src.length).top();
}

const is = (t: Token, text: string) => (t.kind === 'op' || t.kind === 'name') && t.text === text;

/** How an error names a token: "x", string "…", the end of the text. */
function describe(t: Token): string {
  if (t.kind === 'end') return 'the end of the text';
  return t.kind === 'string' ? `string ${t.text}` : `"${t.text}"`;
}

class Parser {
  private i = 0;
  private depth = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly length: number,
  ) {}

  top(): Syntax {
    const e = this.expression();
    const t = this.peek();
    if (t.kind === 'end') return e;
    if (is(t, ')') || is(t, ']')) this.fail(`unmatched "${t.text}": nothing opened it`, t);
    return this.fail(`unexpected ${describe(t)} after a complete expression (trailing tokens)`, t, this.length);
  }

  private peek(): Token {
    return this.tokens[this.i];
  }

  private next(): Token {
    return this.tokens[this.i++];
  }

  private fail(reason: string, t: Token, end = Math.max(t.end, t.pos + 1)): never {
    throw new ExprError(reason, t.pos, end);
  }

  /** Run a nested parse, refusing absurd nesting depth. */
  private nested<T>(f: () => T): T {
    if (++this.depth > MAX_DEPTH) this.fail(`expression nested too deeply (more than ${MAX_DEPTH} levels)`, this.peek());
    const out = f();
    this.depth--;
    return out;
  }

  /** expression := binary [ '?' expression ':' expression ] */
  private expression(): Syntax {
    return this.nested(() => {
      const test = this.binary(0);
      if (!is(this.peek(), '?')) return test;
      const q = this.next();
      const then = this.expression();
      const colon = this.peek();
      if (!is(colon, ':')) this.fail(`expected ":" of the ?: whose ? is at character ${q.pos + 1}, found ${describe(colon)}`, colon);
      this.next();
      const other = this.expression();
      return { kind: 'cond', test, then, else: other, pos: test.pos, end: other.end };
    });
  }

  /** Precedence climbing: operators binding tighter than `min` extend the left operand. */
  private binary(min: number): Syntax {
    return this.nested(() => {
      let left = this.unary();
      for (;;) {
        const t = this.peek();
        if (t.kind === 'op' && Object.hasOwn(REJECTED, t.text)) this.fail(`operator ${t.text} is not supported: ${REJECTED[t.text]}`, t);
        const op = (t.kind === 'op' || t.kind === 'name') && Object.hasOwn(BINARY, t.text) ? (t.text as SyntaxOp) : null;
        if (!op || BINARY[op] <= min) return left;
        this.next();
        const right = this.binary(op === '**' ? BINARY[op] - 1 : BINARY[op]);
        left = { kind: 'binary', op, left, right, pos: left.pos, end: right.end };
      }
    });
  }

  /** unary := ('-' | '+' | '!' | 'not') unary | postfix */
  private unary(): Syntax {
    const t = this.peek();
    if (is(t, '-') || is(t, '+') || is(t, '!') || is(t, 'not')) {
      this.next();
      const arg = this.nested(() => this.unary());
      return { kind: 'unary', op: t.text as '-' | '+' | '!' | 'not', arg, pos: t.pos, end: arg.end };
    }
    if (is(t, '~')) this.fail(`operator ~ is not supported: ${REJECTED['~']}`, t);
    return this.postfix(this.primary());
  }

  /** Calls f(a, b); member access is rejected where it stands. */
  private postfix(e: Syntax): Syntax {
    for (;;) {
      const t = this.peek();
      if (is(t, '.') || is(t, '?.') || is(t, '[')) this.fail(MEMBER, t);
      if (!is(t, '(')) return e;
      this.next();
      const args = this.items(')', t, 'the call');
      e = { kind: 'call', callee: e, args, pos: e.pos, end: this.tokens[this.i - 1].end };
    }
  }

  private primary(): Syntax {
    const t = this.peek();
    const { pos, end } = t;
    if (t.kind === 'number' || t.kind === 'string' || (t.kind === 'name' && !WORD_OPS.has(t.text))) this.next();
    if (t.kind === 'number') return { kind: 'number', value: t.value as number, raw: t.text, pos, end };
    if (t.kind === 'string') return { kind: 'string', value: t.value as string, pos, end };
    if (t.kind === 'name' && !WORD_OPS.has(t.text)) {
      if (t.text === 'true' || t.text === 'false') return { kind: 'boolean', value: t.text === 'true', pos, end };
      if (t.text === 'this') this.fail('"this" is not part of the language', t);
      return { kind: 'name', name: t.text, pos, end };
    }
    if (is(t, '(')) {
      this.next();
      const inner = this.expression();
      const close = this.peek();
      if (close.kind === 'end') this.fail(`Unclosed ( at character ${pos + 1}: add )`, close);
      if (!is(close, ')')) this.fail(`expected ) to close the ( at character ${pos + 1}, found ${describe(close)}`, close);
      this.next();
      return { ...inner, pos, end: close.end };
    }
    if (is(t, '[')) {
      this.next();
      const items = this.items(']', t, 'the list');
      return { kind: 'list', items, pos, end: this.tokens[this.i - 1].end };
    }
    const prev = this.tokens[this.i - 1];
    const after = prev ? ` after ${describe(prev)}` : '';
    if (t.kind === 'op' && Object.hasOwn(REJECTED, t.text)) this.fail(`operator ${t.text} is not supported: ${REJECTED[t.text]}`, t);
    return this.fail(`expected an expression${after}, found ${describe(t)}`, t);
  }

  /** Comma-separated expressions up to `close` (the opener is consumed); a list may end with a comma. */
  private items(close: ')' | ']', open: Token, what: string): Syntax[] {
    const out: Syntax[] = [];
    for (;;) {
      if (is(this.peek(), close) && (out.length === 0 || close === ']')) break;
      if (is(this.peek(), ',')) this.fail(`empty element in ${what}`, this.peek());
      out.push(this.expression());
      const t = this.peek();
      if (is(t, ',')) {
        this.next();
        continue;
      }
      if (is(t, close)) break;
      if (t.kind === 'end') this.fail(`Unclosed ${open.text} at character ${open.pos + 1}: add ${close}`, t);
      this.fail(`expected , or ${close} in ${what}, found ${describe(t)}`, t);
    }
    this.next();
    return out;
  }
}
