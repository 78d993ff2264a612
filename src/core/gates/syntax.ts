// The one grammar of the rule language, over the tokens of tokens.ts, type-checked while parsing
// (each node is typed as it is built, typing.ts; every name is checked at its own token):
//   rule       := expression "=>" action [label]         label := "#" the rest of the line
//   action     := ("drop" | "mask0" | "mask1") [term ("+" term)*]
//   term       := [number ["*"]] ("rl" | "rl_centered" | "rl_zscore" | "opd")
//   expression := Pratt (precedence climbing). Binary precedences are JavaScript's: || or 1,
//     && and 2, == != 6, < <= > >= in 7, + - 9, * / % 10, ** 11 (right-associative). Prefix - + !
//     not bind tighter than any binary operator (so -2 ** 2 is (-2) ** 2 = 4, where JavaScript
//     refuses it); c ? a : b is lowest and right-associative. A parenthesized expression spans its
//     parentheses. Nesting (parentheses, brackets, call parentheses) is at most MAX_DEPTH levels;
//     every other recursion is bounded by the token cap.
import { isDecisionKind, isRlSource, WEIGHT_MAX, type RuleAction } from './decision';
import { nearestName } from './nearest';
import { tokenize, type Token, type TokenMode } from './tokens';
import { binaryNode, callNode, condNode, FUNCTION_NAMES, isFunctionName, listNode, unaryNode } from './typing';
import { ExprError, type Expr, type FieldTable, type ValueType } from './types';

const BINARY = new Map<string, number>([
  ['||', 1], ['or', 1], ['&&', 2], ['and', 2], ['==', 6], ['!=', 6], ['<', 7], ['<=', 7], ['>', 7], ['>=', 7], ['in', 7],
  ['+', 9], ['-', 9], ['*', 10], ['/', 10], ['%', 10], ['**', 11],
]);
const WORD_OPS = new Set(['and', 'or', 'in', 'not']);

/** Operators of JavaScript that the language rejects, with what to write instead. */
const REJECTED = new Map([
  ['===', 'use =='], ['!==', 'use !='], ['=', 'use == to compare'], ['&', 'use && (and)'], ['|', 'use || (or)'],
  ['^', 'no bitwise operators'], ['<<', 'no bitwise operators'], ['>>', 'no bitwise operators'], ['>>>', 'no bitwise operators'],
  ['??', 'no value is ever null'], ['~', 'use ! (not)'],
]);
const MEMBER = 'member access (. or [ ]) is not part of the language: fields are plain names';
/** Levels of parentheses, brackets and calls (so that no input exhausts the stack). */
export const MAX_DEPTH = 200;

/** A parsed rule line: the typed condition, the action, the label, and where the parts lie. */
export interface ParsedRule {
  expr: Expr;
  action: RuleAction;
  /** Source text of the condition and of the action (trimmed), and the label (trimmed; '' = none). */
  when: string;
  then: string;
  label: string;
}

/** A typed expression from `src` against a field table (checked to be of type `expect`). */
export function parseTypedExpression(src: string, fields: FieldTable, expect?: ValueType): Expr {
  const p = new Parser(src, 'expression', fields);
  const e = p.expressionToEnd();
  p.expectType(e, expect);
  return e;
}

/** A rule line "CONDITION => ACTION # label"; errors are ExprErrors at positions in the line. */
export function parseRule(line: string, fields: FieldTable): ParsedRule {
  const p = new Parser(line, 'rule', fields);
  return p.rule();
}

/** An action alone ("mask1 0.5*rl + opd"); errors at positions in `src`. */
export function parseAction(src: string): RuleAction {
  const p = new Parser(src, 'expression', {});
  return p.actionToEnd();
}

const is = (t: Token, text: string) => (t.kind === 'op' || t.kind === 'name') && t.text === text;

/** How an error names a token: "x", string "…", the end of the text. */
function describe(t: Token): string {
  if (t.kind === 'end') return 'the end of the text';
  if (t.kind === 'label') return 'the label (#)';
  return t.kind === 'string' ? `string ${t.text}` : `"${t.text}"`;
}

class Parser {
  private i = 0;
  private depth = 0;
  private readonly tokens: Token[];

  constructor(
    private readonly src: string,
    mode: TokenMode,
    private readonly fields: FieldTable,
  ) {
    this.tokens = tokenize(src, mode);
  }

  expressionToEnd(): Expr {
    if (this.src.trim() === '') throw new ExprError('empty expression', 0, Math.max(1, this.src.length));
    const e = this.expression();
    const t = this.peek();
    if (t.kind !== 'end') this.trailing(t, this.src.length);
    return e;
  }

  expectType(e: Expr, expect: ValueType | undefined): void {
    if (expect && e.type !== expect) throw new ExprError(`the expression is a ${e.type}, expected a ${expect}`, e.pos, e.end);
  }

  rule(): ParsedRule {
    const arrowAt = this.tokens.findIndex((t) => is(t, '=>'));
    if (arrowAt < 0) this.fail('expected "CONDITION => DECISION" (no => found)', this.tokens[this.tokens.length - 1], this.src.length + 1);
    const arrow = this.tokens[arrowAt];
    if (this.src.slice(0, arrow.pos).trim() === '') this.fail('empty expression', { ...arrow, pos: 0, end: Math.max(1, arrow.pos) });
    const expr = this.expression();
    const t = this.peek();
    if (t !== arrow) this.trailing(t, arrow.pos);
    this.expectType(expr, 'boolean');
    this.next();
    const action = this.action();
    const after = this.peek();
    const labelText = after.kind === 'label' ? after.text : '';
    if (after.kind === 'label') this.next();
    const end = this.peek();
    if (end.kind !== 'end') this.fail(`unexpected ${describe(end)} after the decision`, end);
    const thenEnd = after.kind === 'label' ? after.pos : this.src.length;
    return { expr, action, when: this.src.slice(0, arrow.pos).trim(), then: this.src.slice(arrow.end, thenEnd).trim(), label: labelText.trim() };
  }

  actionToEnd(): RuleAction {
    const a = this.action();
    const t = this.peek();
    if (t.kind !== 'end') this.fail(`expected + between advantage terms, got ${describe(t)}`, t, this.src.length);
    return a;
  }

  private trailing(t: Token, end: number): never {
    if (is(t, ')') || is(t, ']')) this.fail(`unmatched "${t.text}": nothing opened it`, t);
    return this.fail(`unexpected ${describe(t)} after a complete expression (trailing tokens)`, t, Math.max(end, t.end));
  }

  private peek(): Token {
    return this.tokens[this.i];
  }

  private next(): Token {
    return this.tokens[this.i++];
  }

  private fail(reason: string, t: Pick<Token, 'pos' | 'end'>, end = Math.max(t.end, t.pos + 1)): never {
    throw new ExprError(reason, t.pos, end);
  }

  /** One level of nesting: a parenthesis, a bracket or a call. */
  private nested<T>(open: Token, f: () => T): T {
    if (++this.depth > MAX_DEPTH) this.fail(`expression nested too deeply (more than ${MAX_DEPTH} levels of parentheses and brackets)`, open);
    const out = f();
    this.depth--;
    return out;
  }

  // ---- action := decision [term (+ term)*] ----

  private action(): RuleAction {
    const w = this.peek();
    const kinds = 'drop, mask0, mask1';
    if (w.kind !== 'name' && w.kind !== 'number') return this.fail(`expected a decision: ${kinds}`, w.kind === 'end' || w.kind === 'label' ? { pos: w.pos, end: w.pos + 1 } : w);
    if (!isDecisionKind(w.text)) return this.fail(`unknown decision "${w.text}": expected ${kinds}`, w);
    this.next();
    const out: RuleAction = { decision: w.text, rl: null, opd: null };
    const first = this.peek();
    if (first.kind === 'end' || first.kind === 'label') return out;
    if (out.decision !== 'mask1') return this.fail(`${out.decision} takes no advantage terms (only mask1 trains)`, first, this.termsEnd());
    for (let n = 0; ; n++) {
      if (n > 0) {
        const t = this.peek();
        if (t.kind === 'end' || t.kind === 'label') return out;
        if (!is(t, '+')) return this.fail(`expected + between advantage terms, got "${this.src.slice(t.pos, this.termsEnd()).trim()}"`, t, this.termsEnd());
        this.next();
      }
      this.term(out);
    }
  }

  /** Where the action's text ends (before the label). */
  private termsEnd(): number {
    const label = this.tokens.find((t) => t.kind === 'label');
    return label ? label.pos : this.src.length;
  }

  private term(out: RuleAction): void {
    const start = this.peek();
    let weight = 1;
    if (start.kind === 'number') {
      this.next();
      weight = start.value as number;
      if (is(this.peek(), '*')) this.next();
    }
    const s = this.peek();
    if (s.kind !== 'name') this.fail('expected an advantage term: [weight*] rl | rl_centered | rl_zscore | opd', s.kind === 'end' ? start : s, this.termsEnd());
    this.next();
    const at = { pos: start.pos, end: s.end };
    if (!Number.isFinite(weight) || weight > WEIGHT_MAX) this.fail(`weight ${start.text} is outside [0, ${WEIGHT_MAX}]`, at);
    if (s.text === 'opd') {
      if (out.opd !== null) this.fail('opd appears twice', at);
      out.opd = weight;
    } else if (isRlSource(s.text)) {
      if (out.rl !== null) this.fail('one RL term per rule (rl, rl_centered or rl_zscore)', at);
      out.rl = { source: s.text, weight };
    } else this.fail(`unknown advantage source "${s.text}": expected rl, rl_centered, rl_zscore or opd`, s);
  }

  // ---- expressions, typed as they are built ----

  /** expression := binary [ '?' expression ':' expression ] */
  private expression(): Expr {
    const test = this.binary(0);
    if (!is(this.peek(), '?')) return test;
    const q = this.next();
    const then = this.expression();
    const colon = this.peek();
    if (!is(colon, ':')) this.fail(`expected ":" of the ?: whose ? is at character ${q.pos + 1}, found ${describe(colon)}`, colon);
    this.next();
    const other = this.expression();
    return condNode(test, then, other, { pos: test.pos, end: other.end });
  }

  /** Precedence climbing: operators binding tighter than `min` extend the left operand. */
  private binary(min: number): Expr {
    let left = this.unary();
    for (;;) {
      const t = this.peek();
      if (t.kind === 'op' && REJECTED.has(t.text)) this.fail(`operator ${t.text} is not supported: ${REJECTED.get(t.text)}`, t);
      const prec = t.kind === 'op' || t.kind === 'name' ? BINARY.get(t.text) : undefined;
      if (prec === undefined || prec <= min) return left;
      this.next();
      const right = this.binary(t.text === '**' ? prec - 1 : prec);
      left = binaryNode(t.text, left, right, { pos: left.pos, end: right.end });
    }
  }

  /** unary := ('-' | '+' | '!' | 'not') unary | postfix */
  private unary(): Expr {
    const t = this.peek();
    if (is(t, '-') || is(t, '+') || is(t, '!') || is(t, 'not')) {
      this.next();
      const arg = this.unary();
      return unaryNode(t.text as '-' | '+' | '!' | 'not', arg, { pos: t.pos, end: arg.end });
    }
    if (is(t, '~')) this.fail(`operator ~ is not supported: ${REJECTED.get('~')}`, t);
    const e = this.primary();
    const after = this.peek();
    if (is(after, '.') || is(after, '?.') || is(after, '[')) this.fail(MEMBER, after);
    if (is(after, '(')) this.fail('only the functions min, max, abs, mean, sum, count, len can be called', { pos: e.pos, end: after.end });
    return e;
  }

  private primary(): Expr {
    const t = this.peek();
    const { pos, end } = t;
    if (t.kind === 'number') {
      this.next();
      const v = t.value as number;
      return Number.isFinite(v) ? { kind: 'literal', value: v, type: 'number', pos, end } : this.fail(`number out of range: ${t.text}`, t);
    }
    if (t.kind === 'string') {
      this.next();
      return { kind: 'literal', value: t.value as string, type: 'string', pos, end };
    }
    if (t.kind === 'name' && !WORD_OPS.has(t.text)) {
      this.next();
      if (t.text === 'true' || t.text === 'false') return { kind: 'literal', value: t.text === 'true', type: 'boolean', pos, end };
      if (t.text === 'this') this.fail('"this" is not part of the language', t);
      if (is(this.peek(), '(')) return this.call(t);
      return this.field(t);
    }
    if (is(t, '(')) {
      this.next();
      const inner = this.nested(t, () => this.expression());
      const close = this.peek();
      if (close.kind === 'end' || close.kind === 'label') this.fail(`Unclosed ( at character ${pos + 1}: add )`, close);
      if (!is(close, ')')) this.fail(`expected ) to close the ( at character ${pos + 1}, found ${describe(close)}`, close);
      this.next();
      return { ...inner, pos, end: close.end };
    }
    if (is(t, '[')) {
      this.next();
      const items = this.nested(t, () => this.items(']', t, 'the list'));
      return listNode(items, { pos, end: this.tokens[this.i - 1].end });
    }
    const prev = this.tokens[this.i - 1];
    const after = prev ? ` after ${describe(prev)}` : '';
    if (t.kind === 'op' && REJECTED.has(t.text)) this.fail(`operator ${t.text} is not supported: ${REJECTED.get(t.text)}`, t);
    return this.fail(`expected an expression${after}, found ${describe(t)}`, t);
  }

  /** A field name: checked against the table here, at its own token. */
  private field(t: Token): Expr {
    const name = t.text;
    if (Object.hasOwn(this.fields, name)) return { kind: 'field', name, type: this.fields[name].type, pos: t.pos, end: t.end };
    if (isFunctionName(name)) this.fail(`${name} is a function: write ${name}(…)`, t);
    const near = nearestName(name, Object.keys(this.fields));
    return this.fail(`unknown field "${name}"${near ? `; did you mean "${near}"?` : ''}`, t);
  }

  /** name(args): a known function, its arguments typed against its signature. */
  private call(name: Token): Expr {
    const fn = name.text;
    if (!isFunctionName(fn)) {
      const near = nearestName(fn, FUNCTION_NAMES);
      this.fail(`unknown function "${fn}"${near ? `; did you mean "${near}"?` : ''} (functions: ${FUNCTION_NAMES.join(', ')})`, name);
    }
    const open = this.next();
    const args = this.nested(open, () => this.items(')', open, 'the call'));
    return callNode(fn as Parameters<typeof callNode>[0], args, { pos: name.pos, end: this.tokens[this.i - 1].end });
  }

  /** Comma-separated expressions up to `close` (the opener is consumed); a list may end with a comma. */
  private items(close: ')' | ']', open: Token, what: string): Expr[] {
    const out: Expr[] = [];
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
      if (t.kind === 'end' || t.kind === 'label') this.fail(`Unclosed ${open.text} at character ${open.pos + 1}: add ${close}`, t);
      this.fail(`expected , or ${close} in ${what}, found ${describe(t)}`, t);
    }
    this.next();
    return out;
  }
}
