import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExprError, SAMPLE_FIELDS, compileExpression, evaluate, fieldsOf, matches, parseExpression, type FieldTable, type Value } from './index';

const F: FieldTable = {
  score: { type: 'number', doc: '', range: '' },
  votes: { type: 'number[]', doc: '', range: '' },
  votes_pos: { type: 'number', doc: '', range: '' },
  votes_neg: { type: 'number', doc: '', range: '' },
  ok: { type: 'boolean', doc: '', range: '' },
  state: { type: 'string', doc: '', range: '' },
};
const REC = { score: 1, votes: [1, 1, -1], votes_pos: 2, votes_neg: 1, ok: false, state: 'math' };
const ev = (src: string, rec: Record<string, unknown> = REC) => evaluate(compileExpression(src, F), rec);
const err = (src: string) => {
  const r = parseExpression(src, F, 'boolean');
  if (r.ok) throw new Error(`expected an error for ${src}`);
  return r.error;
};

describe('expressions', () => {
  it('evaluates arithmetic, comparison, logic, in, ternary and functions like a plain TS reference', () => {
    const cases: [string, Value][] = [
      ['score * 2 + votes_pos ** 2 - 1 / 4', 1 * 2 + 2 ** 2 - 1 / 4],
      ['votes_pos % 2', 0],
      ['-score', -1],
      ['score > 0 && votes_neg >= 1', true],
      ['score > 0 and not ok', true],
      ['ok or votes_pos < 2', false],
      ['!(score == 1)', false],
      ['score in [1, -1]', true],
      ['state in ["code", "math"]', true],
      ['state != "math"', false],
      ['count(votes, 1)', 2],
      ['len(votes)', 3],
      ['sum(votes)', 1],
      ['mean(votes)', 1 / 3],
      ['min(votes)', -1],
      ['max(votes_pos, votes_neg, 7)', 7],
      ['abs(-score - 2)', 3],
      ['ok ? 1 : 2', 2],
      ['score == 1 ? "yes" : "no"', 'yes'],
      ['1 + 2 * 3 == 7 && 2 ** 3 ** 2 == 512', true],
    ];
    for (const [src, want] of cases) expect(ev(src), src).toEqual(want);
  });

  it('short-circuits && and || (the right side is not read)', () => {
    expect(ev('ok && votes_pos > 0', { ok: false })).toBe(false);
    expect(ev('!ok || votes_pos > 0', { ok: false })).toBe(true);
  });

  it('types every node: the result type matches the value', () => {
    for (const src of ['score + 1', 'votes', 'state', 'ok', '[1, 2]', '["a"]', 'ok ? state : "x"']) {
      const e = compileExpression(src, F);
      expect(matches(ev(src), e.type), src).toBe(true);
    }
  });

  it('reports an unknown field with the nearest name and its position', () => {
    const e = err('votes_pos > 0 && socre > 0');
    expect(e.reason).toBe('unknown field "socre"; did you mean "score"?');
    expect([e.pos, e.end]).toEqual([17, 22]);
    expect(err('vote > 1').reason).toContain('did you mean "votes"');
    expect(err('banana > 1').reason).toBe('unknown field "banana"');
  });

  it('reports type mismatches at the offending operand', () => {
    const e = err('score + ok > 1');
    expect(e.reason).toBe('arithmetic + needs numbers, got a boolean');
    expect([e.pos, e.end]).toEqual([8, 10]);
    expect(err('ok > 1').reason).toContain('comparison > needs numbers');
    expect(err('state == 1').reason).toContain('one type');
    expect(err('votes == 1').reason).toContain('not lists');
    expect(err('score in ["a"]').reason).toContain('cannot be in');
    expect(err('score').reason).toBe('the expression is a number, expected a boolean');
    expect(err('not score').reason).toBe('not needs a boolean, got a number');
    expect(err('mean(score) > 0').reason).toContain('mean: takes one list of numbers');
    expect(err('[1, "a"] == 1').reason).toContain('one type');
  });

  it('reports trailing tokens, syntax errors and unsupported syntax with positions', () => {
    const t = err('score > 0 votes_pos');
    expect(t.reason).toContain('trailing tokens');
    expect(t.pos).toBe(10);
    expect(err('score >').pos).toBe(7);
    expect(err('(score > 0').reason).toContain('Unclosed (');
    expect(err('state.length > 0').reason).toContain('member access');
    expect(err('votes[0] > 0').reason).toContain('member access');
    expect(err('score === 1').reason).toContain('use ==');
    expect(err('score & 1').reason).toContain('use &&');
    expect(err('this').reason).toContain('this');
    expect(err('exp(score) > 0').reason).toContain('unknown function "exp"');
    expect(err('mean > 0').reason).toContain('mean is a function');
    expect(err('').reason).toBe('empty expression');
    expect(err('null == null').reason).toMatch(/unknown field "null"/);
  });

  it('reports a field missing from a record (imported logs) at its position, no crash', () => {
    const e = compileExpression('score > 0 && votes_neg == 0', F);
    expect(() => evaluate(e, { score: 1 })).toThrowError(/field "votes_neg" is missing in this record/);
    expect(() => evaluate(e, { score: '1' })).toThrowError(ExprError);
  });

  it('lists the fields an expression reads', () => {
    expect([...fieldsOf(compileExpression('score > 0 && count(votes, 1) > votes_neg', F))].sort()).toEqual(['score', 'votes', 'votes_neg']);
  });

  it('knows the documented sample fields, and not the hidden behavior label', () => {
    for (const [k, f] of Object.entries(SAMPLE_FIELDS)) {
      expect(f.doc.length, k).toBeGreaterThan(10);
      expect(f.range.length, k).toBeGreaterThan(0);
    }
    expect(Object.keys(SAMPLE_FIELDS)).not.toContain('behavior');
    const e = parseExpression('behavior == "verify"', SAMPLE_FIELDS, 'boolean');
    expect(e.ok).toBe(false);
  });
});

// ---- fuzz: no input crashes the parser or the evaluator, and none runs code ------------------

const TOKENS = [
  'score', 'votes', 'ok', 'state', 'votes_pos', 'constructor', '__proto__', 'prototype', 'toString', 'valueOf', 'this',
  'globalThis', 'process', 'eval', 'Function', 'require', 'import', 'new', 'window', 'alert', '=>', '=', '==', '===',
  '!=', '<', '<=', '>', '>=', '&&', '||', 'and', 'or', 'not', 'in', '!', '+', '-', '*', '/', '%', '**', '?', ':', '(',
  ')', '[', ']', '{', '}', ',', ';', '.', '?.', '"', "'", '`', '${', '\\', '0', '1', '-1', '0.5', '1e309', 'NaN',
  'Infinity', 'true', 'false', 'null', 'undefined', '"math"', "'x'", 'min', 'max', 'abs', 'mean', 'sum', 'count', 'len',
  ' ', '\n', '\t', '#', '@', '$', '\u00e9', '\u{1F600}',
];

const sourceArb = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.array(fc.constantFrom(...TOKENS), { maxLength: 14 }).map((xs) => xs.join(' ')),
  fc.array(fc.constantFrom(...TOKENS), { maxLength: 14 }).map((xs) => xs.join('')),
);

const recordArb = fc.record({
  score: fc.oneof(fc.integer({ min: -1, max: 1 }), fc.double()),
  votes: fc.array(fc.integer({ min: -1, max: 1 }), { maxLength: 5 }),
  votes_pos: fc.nat(5),
  ok: fc.boolean(),
  state: fc.constantFrom('math', 'code', ''),
});

describe('fuzz (fast-check)', () => {
  it('any text either parses to a typed AST or gives an ExprError with a position inside the text', () => {
    fc.assert(
      fc.property(sourceArb, (src) => {
        const r = parseExpression(src, F);
        if (r.ok) return matches(evaluate(r.expr, REC), r.expr.type) || r.expr.type.endsWith('[]');
        expect(r.error).toBeInstanceOf(ExprError);
        expect(r.error.pos).toBeGreaterThanOrEqual(0);
        expect(r.error.pos).toBeLessThanOrEqual(src.length);
        return true;
      }),
      { numRuns: 3000, seed: 42 },
    );
  });

  it('evaluation reads only the declared fields of the record and calls nothing', () => {
    const globals = { eval: globalThis.eval, Function: globalThis.Function };
    let called = 0;
    globalThis.eval = (() => (called++, undefined)) as typeof eval;
    try {
      fc.assert(
        fc.property(sourceArb, recordArb, (src, rec) => {
          const read: PropertyKey[] = [];
          const proxy = new Proxy(rec, {
            get: (t, k) => (read.push(k), Reflect.get(t, k)),
            getOwnPropertyDescriptor: (t, k) => (read.push(k), Reflect.getOwnPropertyDescriptor(t, k)),
            has: (t, k) => (read.push(k), Reflect.has(t, k)),
          });
          const r = parseExpression(src, F);
          if (!r.ok) return true;
          try {
            evaluate(r.expr, proxy);
          } catch (e) {
            if (!(e instanceof ExprError)) throw e;
          }
          for (const k of read) expect(Object.keys(F)).toContain(k);
          return true;
        }),
        { numRuns: 2000, seed: 7 },
      );
    } finally {
      globalThis.eval = globals.eval;
    }
    expect(called).toBe(0);
  });

  it('well-typed generated expressions evaluate to a value of their type', () => {
    const num: fc.Arbitrary<string> = fc.letrec<{ n: string; b: string }>((tie) => ({
      n: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom('score', 'votes_pos', '1', '0.5', '-2', 'len(votes)', 'count(votes, 1)', 'mean(votes)', 'min(votes)'),
        fc.tuple(tie('n'), fc.constantFrom('+', '-', '*', '/', '%', '**'), tie('n')).map(([a, o, b]) => `(${a} ${o} ${b})`),
        fc.tuple(tie('b'), tie('n'), tie('n')).map(([c, a, b]) => `(${c} ? ${a} : ${b})`),
        tie('n').map((a) => `abs(${a})`),
      ),
      b: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom('ok', 'true', 'state == "math"', 'score in [1, -1]'),
        fc.tuple(tie('n'), fc.constantFrom('<', '<=', '>', '>=', '==', '!='), tie('n')).map(([a, o, b]) => `${a} ${o} ${b}`),
        fc.tuple(tie('b'), fc.constantFrom('&&', '||', 'and', 'or'), tie('b')).map(([a, o, b]) => `(${a} ${o} ${b})`),
        tie('b').map((a) => `not (${a})`),
      ),
    })).n;
    fc.assert(
      fc.property(num, recordArb, (src, rec) => {
        const e = compileExpression(src, F, 'number');
        return typeof evaluate(e, rec) === 'number';
      }),
      { numRuns: 1500, seed: 3 },
    );
  });
});
