// Parsing: our own tokenizer + Pratt parser (tokens.ts, syntax.ts) build an untyped syntax tree
// with character positions; here it becomes our typed AST, with every name and type checked and
// each error at the offending range.
import { nearestName } from './nearest';
import { parseSyntax, type Syntax, type SyntaxOp } from './syntax';
import { ExprError, type BinaryOp, type Expr, type FieldTable, type FunctionName, type ValueType } from './types';

const FUNCTIONS: Record<FunctionName, string> = {
  min: 'min(list) or min(a, b, …): the smallest number',
  max: 'max(list) or max(a, b, …): the largest number',
  abs: 'abs(x): absolute value',
  mean: 'mean(list): arithmetic mean (NaN for an empty list)',
  sum: 'sum(list): sum of the numbers',
  count: 'count(list, value): how many elements equal value',
  len: 'len(list): number of elements',
};
export const FUNCTION_DOCS: Readonly<Record<FunctionName, string>> = FUNCTIONS;

const ARITH = new Set<BinaryOp>(['+', '-', '*', '/', '%', '**']);
const ORDER = new Set<BinaryOp>(['<', '<=', '>', '>=']);
const ALIAS: Partial<Record<SyntaxOp, BinaryOp>> = { and: '&&', or: '||' };

/**
 * Parse `src` against a field table. Returns the typed AST, or throws ExprError with the position
 * and the reason. `expect` checks the result type (a rule condition must be a boolean).
 */
export function compileExpression(src: string, fields: FieldTable, expect?: ValueType): Expr {
  if (typeof src !== 'string') throw new ExprError('expected an expression (text)', 0);
  if (src.trim() === '') throw new ExprError('empty expression', 0, Math.max(1, src.length));
  const tree = parseSyntax(src);
  const out = convert(tree, fields);
  if (expect && out.type !== expect) throw new ExprError(`the expression is a ${out.type}, expected a ${expect}`, out.pos, out.end);
  return out;
}

function convert(n: Syntax, fields: FieldTable): Expr {
  const { pos, end } = n;
  const fail = (reason: string, p = pos, e = end): never => {
    throw new ExprError(reason, p, e);
  };
  const sub = (m: Syntax) => convert(m, fields);
  switch (n.kind) {
    case 'number':
      return Number.isFinite(n.value) ? { kind: 'literal', value: n.value, type: 'number', pos, end } : fail(`number out of range: ${n.raw}`);
    case 'boolean':
      return { kind: 'literal', value: n.value, type: 'boolean', pos, end };
    case 'string':
      return { kind: 'literal', value: n.value, type: 'string', pos, end };
    case 'name': {
      const name = n.name;
      if (Object.hasOwn(fields, name)) return { kind: 'field', name, type: fields[name].type, pos, end };
      if (Object.hasOwn(FUNCTIONS, name)) fail(`${name} is a function: write ${name}(…)`);
      const near = nearestName(name, Object.keys(fields));
      return fail(`unknown field "${name}"${near ? `; did you mean "${near}"?` : ''}`);
    }
    case 'list': {
      const items = n.items.map(sub);
      if (items.length === 0) return fail('empty list: a list needs at least one element');
      const t = items[0].type;
      if (t !== 'number' && t !== 'string') fail(`a list holds numbers or strings, not ${t}s`, items[0].pos, items[0].end);
      for (const it of items) if (it.type !== t) fail(`a list must hold one type: ${t} and ${it.type} mixed`, it.pos, it.end);
      return { kind: 'list', items, type: t === 'number' ? 'number[]' : 'string[]', pos, end };
    }
    case 'unary': {
      const arg = sub(n.arg);
      if (n.op === '!' || n.op === 'not') {
        if (arg.type !== 'boolean') fail(`${n.op} needs a boolean, got a ${arg.type}`, arg.pos, arg.end);
        return { kind: 'unary', op: '!', arg, type: 'boolean', pos, end };
      }
      if (arg.type !== 'number') fail(`unary ${n.op} needs a number, got a ${arg.type}`, arg.pos, arg.end);
      return { kind: 'unary', op: n.op, arg, type: 'number', pos, end };
    }
    case 'binary':
      return binary(n.op, sub(n.left), sub(n.right), pos, end);
    case 'cond': {
      const test = sub(n.test);
      const a = sub(n.then);
      const b = sub(n.else);
      if (test.type !== 'boolean') fail(`the condition before ? must be a boolean, got a ${test.type}`, test.pos, test.end);
      if (a.type !== b.type) fail(`both branches of ?: must have one type: ${a.type} and ${b.type}`, a.pos, b.end);
      return { kind: 'cond', test, then: a, else: b, type: a.type, pos, end };
    }
    case 'call':
      return call(n.callee, n.args, fields, pos, end);
  }
}

function binary(raw: SyntaxOp, left: Expr, right: Expr, pos: number, end: number): Expr {
  const op = ALIAS[raw] ?? (raw as BinaryOp);
  const node = (type: ValueType): Expr => ({ kind: 'binary', op, left, right, type, pos, end });
  const need = (e: Expr, t: ValueType, what: string) => {
    if (e.type !== t) throw new ExprError(`${what} needs ${t === 'number' ? 'numbers' : 'booleans'}, got a ${e.type}`, e.pos, e.end);
  };
  if (ARITH.has(op)) {
    need(left, 'number', `arithmetic ${raw}`);
    need(right, 'number', `arithmetic ${raw}`);
    return node('number');
  }
  if (ORDER.has(op)) {
    need(left, 'number', `comparison ${raw}`);
    need(right, 'number', `comparison ${raw}`);
    return node('boolean');
  }
  if (op === '==' || op === '!=') {
    if (left.type.endsWith('[]')) throw new ExprError(`${raw} compares single values, not lists (use in, count or len)`, left.pos, left.end);
    if (left.type !== right.type) throw new ExprError(`${raw} compares values of one type: a ${left.type} and a ${right.type}`, pos, end);
    return node('boolean');
  }
  if (op === '&&' || op === '||') {
    need(left, 'boolean', raw);
    need(right, 'boolean', raw);
    return node('boolean');
  }
  // op === 'in'
  if (right.type !== 'number[]' && right.type !== 'string[]') throw new ExprError(`in needs a list on the right, got a ${right.type}`, right.pos, right.end);
  if (`${left.type}[]` !== right.type) throw new ExprError(`in: a ${left.type} cannot be in a ${right.type}`, pos, end);
  return node('boolean');
}

function call(callee: Syntax, argNodes: Syntax[], fields: FieldTable, pos: number, end: number): Expr {
  if (callee.kind !== 'name') throw new ExprError('only the functions min, max, abs, mean, sum, count, len can be called', pos, end);
  const name = callee.name;
  const [cp, ce] = [pos, pos + name.length];
  if (!Object.hasOwn(FUNCTIONS, name)) {
    const near = nearestName(name, Object.keys(FUNCTIONS));
    throw new ExprError(`unknown function "${name}"${near ? `; did you mean "${near}"?` : ''} (functions: ${Object.keys(FUNCTIONS).join(', ')})`, cp, ce);
  }
  const fn = name as FunctionName;
  const args = argNodes.map((a) => convert(a, fields));
  const bad = (reason: string): never => {
    throw new ExprError(`${fn}: ${reason}; ${FUNCTIONS[fn]}`, pos, end);
  };
  const node = (type: ValueType): Expr => ({ kind: 'call', fn, args, type, pos, end });
  const types = args.map((a) => a.type).join(', ');
  switch (fn) {
    case 'abs':
      if (args.length !== 1 || args[0].type !== 'number') bad(`takes one number, got (${types})`);
      return node('number');
    case 'min':
    case 'max':
      if (args.length === 1 && args[0].type === 'number[]') return node('number');
      if (args.length >= 2 && args.every((a) => a.type === 'number')) return node('number');
      return bad(`takes a list of numbers or two or more numbers, got (${types})`);
    case 'mean':
    case 'sum':
      if (args.length !== 1 || args[0].type !== 'number[]') bad(`takes one list of numbers, got (${types})`);
      return node('number');
    case 'len':
      if (args.length !== 1 || !args[0].type.endsWith('[]')) bad(`takes one list, got (${types})`);
      return node('number');
    case 'count':
      if (args.length !== 2 || !args[0].type.endsWith('[]') || `${args[1].type}[]` !== args[0].type) bad(`takes a list and a value of its element type, got (${types})`);
      return node('number');
  }
}
