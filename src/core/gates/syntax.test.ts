// The tokenizer + Pratt parser: precedence and associativity against a plain TS reference, the
// character range of every node, error positions and messages, and fuzz (only ExprError, ever).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExprError, compileExpression, evaluate, parseExpression, type Expr, type FieldTable } from './index';
import { tokenize } from './tokens';

const NONE: FieldTable = {};
const F: FieldTable = {
  score: { type: 'number', doc: '', range: '' },
  votes: { type: 'number[]', doc: '', range: '' },
  ok: { type: 'boolean', doc: '', range: '' },
  state: { type: 'string', doc: '', range: '' },
};

// ---- reference trees: built by fast-check, printed with the fewest parentheses, folded in TS ----

type NumOp = '+' | '-' | '*' | '/' | '%' | '**';
type CmpOp = '<' | '<=' | '>' | '>=' | '==' | '!=';
type LogOp = '&&' | '||' | 'and' | 'or';
type Tree =
  | { t: 'num'; v: number }
  | { t: 'bool'; v: boolean }
  | { t: 'neg'; a: Tree }
  | { t: 'not'; word: boolean; a: Tree }
  | { t: 'bin'; op: NumOp | CmpOp | LogOp; a: Tree; b: Tree }
  | { t: 'in'; a: Tree; items: number[] }
  | { t: 'cond'; c: Tree; a: Tree; b: Tree };

/** The language's (and JavaScript's) binary precedences; ** alone is right-associative. */
const PREC: Record<string, number> = {
  '||': 1, or: 1, '&&': 2, and: 2, '==': 6, '!=': 6, '<': 7, '<=': 7, '>': 7, '>=': 7, in: 7,
  '+': 9, '-': 9, '*': 10, '/': 10, '%': 10, '**': 11,
};
const ATOM = 100;

function prec(x: Tree): number {
  if (x.t === 'bin') return PREC[x.op];
  if (x.t === 'in') return PREC.in;
  if (x.t === 'cond') return 0;
  return ATOM; // literals and prefix operators bind tighter than any binary operator
}

/** Source text with only the parentheses that precedence and associativity require. */
function print(x: Tree, sp: string): string {
  const wrap = (s: string, need: boolean) => (need ? `(${s})` : s);
  switch (x.t) {
    case 'num':
      return String(x.v);
    case 'bool':
      return String(x.v);
    case 'neg':
      return `-${wrap(print(x.a, sp), prec(x.a) < ATOM)}`;
    case 'not':
      return `${x.word ? 'not ' : '!'}${wrap(print(x.a, sp), prec(x.a) < ATOM)}`;
    case 'in':
      return `${wrap(print(x.a, sp), prec(x.a) < PREC.in)} in [${x.items.join(`,${sp}`)}]`;
    case 'cond':
      return `${wrap(print(x.c, sp), prec(x.c) === 0)}${sp}?${sp}${print(x.a, sp)}${sp}:${sp}${print(x.b, sp)}`;
    case 'bin': {
      const p = PREC[x.op];
      const right = x.op === '**';
      const l = wrap(print(x.a, sp), prec(x.a) < p || (prec(x.a) === p && right));
      const r = wrap(print(x.b, sp), prec(x.b) < p || (prec(x.b) === p && !right));
      const s = /^[a-z]/.test(x.op) ? ' ' : sp;
      return `${l}${s}${x.op}${s}${r}`;
    }
  }
}

/** The plain TS reference value of a tree. */
function fold(x: Tree): number | boolean {
  const n = (y: Tree) => fold(y) as number;
  const b = (y: Tree) => fold(y) as boolean;
  switch (x.t) {
    case 'num':
    case 'bool':
      return x.v;
    case 'neg':
      return -n(x.a);
    case 'not':
      return !b(x.a);
    case 'in':
      return x.items.includes(n(x.a));
    case 'cond':
      return b(x.c) ? fold(x.a) : fold(x.b);
    case 'bin': {
      const [l, r] = [fold(x.a), fold(x.b)];
      // prettier-ignore
      switch (x.op) {
        case '+': return (l as number) + (r as number);
        case '-': return (l as number) - (r as number);
        case '*': return (l as number) * (r as number);
        case '/': return (l as number) / (r as number);
        case '%': return (l as number) % (r as number);
        case '**': return (l as number) ** (r as number);
        case '<': return l < r;
        case '<=': return l <= r;
        case '>': return l > r;
        case '>=': return l >= r;
        case '==': return l === r;
        case '!=': return l !== r;
        case '&&': case 'and': return (l as boolean) && (r as boolean);
        case '||': case 'or': return (l as boolean) || (r as boolean);
      }
    }
  }
}

/** Fully parenthesized shape of a tree and of a parsed AST (must agree). */
function shapeOfTree(x: Tree): string {
  const alias = (op: string) => (op === 'and' ? '&&' : op === 'or' ? '||' : op);
  switch (x.t) {
    case 'num':
    case 'bool':
      return String(x.v);
    case 'neg':
      return `(- ${shapeOfTree(x.a)})`;
    case 'not':
      return `(! ${shapeOfTree(x.a)})`;
    case 'in':
      return `(${shapeOfTree(x.a)} in [${x.items.join(',')}])`;
    case 'cond':
      return `(${shapeOfTree(x.c)} ? ${shapeOfTree(x.a)} : ${shapeOfTree(x.b)})`;
    case 'bin':
      return `(${shapeOfTree(x.a)} ${alias(x.op)} ${shapeOfTree(x.b)})`;
  }
}

function shape(e: Expr): string {
  switch (e.kind) {
    case 'literal':
    case 'field':
      return e.kind === 'field' ? e.name : String(e.value);
    case 'list':
      return `[${e.items.map(shape).join(',')}]`;
    case 'unary':
      return e.op === '+' ? `(+ ${shape(e.arg)})` : `(${e.op} ${shape(e.arg)})`;
    case 'binary':
      return e.op === 'in' ? `(${shape(e.left)} in ${shape(e.right)})` : `(${shape(e.left)} ${e.op} ${shape(e.right)})`;
    case 'cond':
      return `(${shape(e.test)} ? ${shape(e.then)} : ${shape(e.else)})`;
    case 'call':
      return `${e.fn}(${e.args.map(shape).join(',')})`;
  }
}

function children(e: Expr): Expr[] {
  switch (e.kind) {
    case 'list':
    case 'call':
      return e.kind === 'list' ? e.items : e.args;
    case 'unary':
      return [e.arg];
    case 'binary':
      return [e.left, e.right];
    case 'cond':
      return [e.test, e.then, e.else];
    default:
      return [];
  }
}

const trees = fc.letrec<{ n: Tree; b: Tree }>((tie) => ({
  n: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.integer({ min: 0, max: 9 }), fc.constantFrom(0.5, 2.5, 10)).map((v): Tree => ({ t: 'num', v })),
    tie('n').map((a): Tree => ({ t: 'neg', a })),
    fc.tuple(fc.constantFrom<NumOp>('+', '-', '*', '/', '%', '**'), tie('n'), tie('n')).map(([op, a, b]): Tree => ({ t: 'bin', op, a, b })),
    fc.tuple(tie('b'), tie('n'), tie('n')).map(([c, a, b]): Tree => ({ t: 'cond', c, a, b })),
  ),
  b: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.boolean().map((v): Tree => ({ t: 'bool', v })),
    fc.tuple(fc.boolean(), tie('b')).map(([word, a]): Tree => ({ t: 'not', word, a })),
    fc.tuple(fc.constantFrom<CmpOp>('<', '<=', '>', '>=', '==', '!='), tie('n'), tie('n')).map(([op, a, b]): Tree => ({ t: 'bin', op, a, b })),
    fc.tuple(fc.constantFrom<CmpOp>('==', '!='), tie('b'), tie('b')).map(([op, a, b]): Tree => ({ t: 'bin', op, a, b })),
    fc.tuple(fc.constantFrom<LogOp>('&&', '||', 'and', 'or'), tie('b'), tie('b')).map(([op, a, b]): Tree => ({ t: 'bin', op, a, b })),
    fc.tuple(tie('n'), fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 3 })).map(([a, items]): Tree => ({ t: 'in', a, items })),
    fc.tuple(tie('b'), tie('b'), tie('b')).map(([c, a, b]): Tree => ({ t: 'cond', c, a, b })),
  ),
}));
const anyTree = fc.oneof(trees.n, trees.b);

describe('precedence and associativity (Pratt parser vs a plain TS reference)', () => {
  it('fixed cases', () => {
    const cases: [string, string][] = [
      ['1 - 2 - 3', '((1 - 2) - 3)'],
      ['2 ** 3 ** 2', '(2 ** (3 ** 2))'],
      ['-2 ** 2', '((- 2) ** 2)'],
      ['1 + 2 * 3 ** 2', '(1 + (2 * (3 ** 2)))'],
      ['8 / 4 / 2 % 3', '(((8 / 4) / 2) % 3)'],
      ['1 < 2 == 3 > 4', '((1 < 2) == (3 > 4))'],
      ['true || false && false', '(true || (false && false))'],
      ['true or false and not false', '(true || (false && (! false)))'],
      ['1 + 1 in [2] == true', '(((1 + 1) in [2]) == true)'],
      ['true ? 1 : false ? 2 : 3', '(true ? 1 : (false ? 2 : 3))'],
      ['true ? false ? 1 : 2 : 3', '(true ? (false ? 1 : 2) : 3)'],
      ['1 < 2 || false ? 1 + 1 : 2', '(((1 < 2) || false) ? (1 + 1) : 2)'],
      ['!!true', '(! (! true))'],
      ['- -1', '(- (- 1))'],
      ['+abs(-1)', '(+ abs((- 1)))'],
      ['max(1, 2 + 3, true ? 4 : 5)', 'max(1,(2 + 3),(true ? 4 : 5))'],
      ['((1))', '1'],
    ];
    for (const [src, want] of cases) expect(shape(compileExpression(src, NONE)), src).toBe(want);
  });

  it('random expressions printed with the fewest parentheses parse to their tree and evaluate like JS', () => {
    fc.assert(
      fc.property(anyTree, fc.constantFrom('', ' '), (tree, sp) => {
        const src = print(tree, sp);
        const e = compileExpression(src, NONE);
        expect(shape(e)).toBe(shapeOfTree(tree));
        expect(Object.is(evaluate(e, {}), fold(tree)), src).toBe(true);
      }),
      { numRuns: 2000, seed: 11 },
    );
  });

  it('every node spans exactly its own text (parentheses included): the slice parses to the same node', () => {
    fc.assert(
      fc.property(anyTree, fc.constantFrom('', ' ', '  '), (tree, sp) => {
        const src = ` ${print(tree, sp)}  `;
        const root = compileExpression(src, NONE);
        const stack = [root];
        while (stack.length) {
          const e = stack.pop()!;
          const text = src.slice(e.pos, e.end);
          expect(text, src).toBe(text.trim());
          expect(shape(compileExpression(text, NONE)), `${text} in ${src}`).toBe(shape(e));
          stack.push(...children(e));
        }
      }),
      { numRuns: 500, seed: 12 },
    );
  });
});

describe('tokens', () => {
  it('reads numbers, strings with escapes and names with their ranges', () => {
    const t = tokenize(` .5 1. 1e3 2E+1 1e-2 'a\\'b' "x\\ny\\q" sc_ore $a é `);
    expect(t.map((x) => [x.kind, x.value ?? x.text, x.pos, x.end])).toEqual([
      ['number', 0.5, 1, 3], ['number', 1, 4, 6], ['number', 1000, 7, 10], ['number', 20, 11, 15], ['number', 0.01, 16, 20],
      ['string', "a'b", 21, 27], ['string', 'x\nyq', 28, 36], ['name', 'sc_ore', 37, 43], ['name', '$a', 44, 46], ['name', 'é', 47, 48],
      ['end', '', 49, 49],
    ]);
    expect(tokenize('a<=b>>>c?.5:1').map((x) => x.text)).toEqual(['a', '<=', 'b', '>>>', 'c', '?', '.5', ':', '1', '']);
  });
});

describe('errors: position and reason', () => {
  const cases: [string, RegExp, number, number][] = [
    ['score >', /expected an expression after ">", found the end/, 7, 8],
    ['score > > 1', /expected an expression after ">", found ">"/, 8, 9],
    ['(score > 0', /^Unclosed \( at character 1: add \)$/, 10, 11],
    ['(score > 0 ok)', /expected \) to close the \( at character 1, found "ok"/, 11, 13],
    ['score > 0)', /unmatched "\)"/, 9, 10],
    ['abs(score', /Unclosed \( at character 4/, 9, 10],
    ['max(score ok) > 1', /expected , or \) in the call, found "ok"/, 10, 12],
    ['max(score,) > 1', /expected an expression after ",", found "\)"/, 10, 11],
    ['max(,score) > 1', /empty element in the call/, 4, 5],
    ['score in [1 2]', /expected , or \] in the list, found "2"/, 12, 13],
    ['score in [1,,2]', /empty element in the list/, 12, 13],
    ['score in [1', /Unclosed \[ at character 10/, 11, 12],
    ['ok ? 1', /expected ":" of the \?: whose \? is at character 4/, 6, 7],
    ['score === 1', /operator === is not supported: use ==/, 6, 9],
    ['score !== 1', /use !=/, 6, 9],
    ['score = 1', /use == to compare/, 6, 7],
    ['ok & ok', /operator & is not supported: use && \(and\)/, 3, 4],
    ['ok | ok', /use \|\| \(or\)/, 3, 4],
    ['~score > 0', /use ! \(not\)/, 0, 1],
    ['score << 1 > 0', /no bitwise operators/, 6, 8],
    ['state.length > 0', /member access/, 5, 6],
    ['votes[0] > 0', /member access/, 5, 6],
    ['this > 0', /"this" is not part of the language/, 0, 4],
    ['score > 0 ok', /unexpected "ok" after a complete expression \(trailing tokens\)/, 10, 12],
    ['score > 0, ok', /unexpected "," after a complete expression/, 9, 13],
    ['ok "x"', /unexpected string "x" after a complete expression/, 3, 6],
    ['state == "math', /^Unclosed quote: the string opened here needs a closing "$/, 9, 14],
    ["state == 'a\\'", /closing '/, 9, 13],
    ['score # 1', /unexpected character "#"/, 6, 7],
    ['score > 0 😀', /unexpected character "😀"/, 10, 12],
    ['`x` == state', /unexpected character "`": strings use ' or "/, 0, 1],
    ['2score > 1', /names cannot start with a digit \(2s…\)/, 0, 2],
    ['1e > 0', /expected digits after the exponent of the number 1e/, 0, 2],
    ['1.5.2 > 0', /unexpected "\." after the number 1\.5/, 3, 4],
    ['and ok', /expected an expression, found "and"/, 0, 3],
    ['not', /expected an expression after "not", found the end/, 3, 4],
    ['1e309 > 0', /number out of range: 1e309/, 0, 5],
    ['() > 0', /expected an expression after "\(", found "\)"/, 1, 2],
  ];
  it.each(cases)('%s', (src, reason, pos, end) => {
    const r = parseExpression(src, F, 'boolean');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.reason).toMatch(reason);
    expect([r.error.pos, r.error.end]).toEqual([pos, end]);
  });
});

describe('fuzz: any text gives a typed AST or an ExprError, never another exception', () => {
  const check = (src: string) => {
    try {
      compileExpression(src, F);
    } catch (e) {
      if (!(e instanceof ExprError)) throw e;
      expect(e.pos).toBeGreaterThanOrEqual(0);
      expect(e.pos).toBeLessThanOrEqual(src.length);
      expect(e.end).toBeGreaterThan(e.pos);
    }
  };

  it('arbitrary strings (full unicode, and text made of the language symbols)', () => {
    const symbols = fc.constantFrom(...'()[],.?:!~+-*/%<>=&|^"\'\\ \n\t0123456789eE_$abnotrsdiu#@`;{}'.split(''), 'and', 'or', 'not', 'in', '1e', '**', 'score', 'ok');
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), fc.array(symbols, { maxLength: 30 }).map((x) => x.join(''))), (src) => {
        check(src);
        check(src + ')');
        check('(' + src);
      }),
      { numRuns: 3000, seed: 21 },
    );
  });

  it('deep nesting and very long expressions are refused with an ExprError, not a stack overflow', () => {
    for (const src of ['('.repeat(5000) + '1' + ')'.repeat(5000), '-'.repeat(20000) + '1', '2 ** '.repeat(3000) + '2', '1 + '.repeat(20000) + '1', 'ok ? 1 : '.repeat(3000) + '1', '[' .repeat(3000)]) {
      expect(() => compileExpression(src, F), src.slice(0, 20)).toThrowError(ExprError);
    }
    // long but within the bounds: parses and evaluates
    expect(evaluate(compileExpression('1 + '.repeat(900) + '1', F), {})).toBe(901);
    expect(evaluate(compileExpression('('.repeat(60) + 'score' + ')'.repeat(60), F), { score: 3 })).toBe(3);
  });
});
