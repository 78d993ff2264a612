// The type rules of the rule language, applied by the parser as it builds each node (so every
// error is found while parsing, at the offending range): operand types of the operators, lists of
// one element type, both branches of ?: of one type, and the functions' signatures.
import { ExprError, type BinaryOp, type Expr, type FunctionName, type ValueType } from './types';

const FUNCTIONS = new Map<string, string>([
  ['min', 'min(list) or min(a, b, …): the smallest number'],
  ['max', 'max(list) or max(a, b, …): the largest number'],
  ['abs', 'abs(x): absolute value'],
  ['mean', 'mean(list): arithmetic mean (NaN for an empty list)'],
  ['sum', 'sum(list): sum of the numbers'],
  ['count', 'count(list, value): how many elements equal value (== equality: NaN equals nothing)'],
  ['len', 'len(list): number of elements'],
]);
export const FUNCTION_DOCS: Readonly<Record<FunctionName, string>> = Object.fromEntries(FUNCTIONS) as Record<FunctionName, string>;
export const isFunctionName = (name: string): name is FunctionName => FUNCTIONS.has(name);
export const FUNCTION_NAMES: readonly string[] = [...FUNCTIONS.keys()];

const ARITH = new Set<BinaryOp>(['+', '-', '*', '/', '%', '**']);
const ORDER = new Set<BinaryOp>(['<', '<=', '>', '>=']);

type Span = { pos: number; end: number };

const fail = (reason: string, at: Span): never => {
  throw new ExprError(reason, at.pos, at.end);
};

export function listNode(items: Expr[], at: Span): Expr {
  if (items.length === 0) return fail('empty list: a list needs at least one element', at);
  const t = items[0].type;
  if (t !== 'number' && t !== 'string') fail(`a list holds numbers or strings, not ${t}s`, items[0]);
  for (const it of items) if (it.type !== t) fail(`a list must hold one type: ${t} and ${it.type} mixed`, it);
  return { kind: 'list', items, type: t === 'number' ? 'number[]' : 'string[]', ...at };
}

export function unaryNode(op: '-' | '+' | '!' | 'not', arg: Expr, at: Span): Expr {
  if (op === '!' || op === 'not') {
    if (arg.type !== 'boolean') fail(`${op} needs a boolean, got a ${arg.type}`, arg);
    return { kind: 'unary', op: '!', arg, type: 'boolean', ...at };
  }
  if (arg.type !== 'number') fail(`unary ${op} needs a number, got a ${arg.type}`, arg);
  return { kind: 'unary', op, arg, type: 'number', ...at };
}

export function condNode(test: Expr, then: Expr, other: Expr, at: Span): Expr {
  if (test.type !== 'boolean') fail(`the condition before ? must be a boolean, got a ${test.type}`, test);
  if (then.type !== other.type) fail(`both branches of ?: must have one type: ${then.type} and ${other.type}`, { pos: then.pos, end: other.end });
  return { kind: 'cond', test, then, else: other, type: then.type, ...at };
}

/** `raw` is the operator as written (and/or are && and ||). */
export function binaryNode(raw: string, left: Expr, right: Expr, at: Span): Expr {
  const op = (raw === 'and' ? '&&' : raw === 'or' ? '||' : raw) as BinaryOp;
  const node = (type: ValueType): Expr => ({ kind: 'binary', op, left, right, type, ...at });
  const need = (e: Expr, t: ValueType, what: string) => {
    if (e.type !== t) fail(`${what} needs ${t === 'number' ? 'numbers' : 'booleans'}, got a ${e.type}`, e);
  };
  if (ARITH.has(op) || ORDER.has(op)) {
    const what = ARITH.has(op) ? `arithmetic ${raw}` : `comparison ${raw}`;
    need(left, 'number', what);
    need(right, 'number', what);
    return node(ARITH.has(op) ? 'number' : 'boolean');
  }
  if (op === '==' || op === '!=') {
    if (left.type.endsWith('[]')) fail(`${raw} compares single values, not lists (use in, count or len)`, left);
    if (left.type !== right.type) fail(`${raw} compares values of one type: a ${left.type} and a ${right.type}`, at);
    return node('boolean');
  }
  if (op === '&&' || op === '||') {
    need(left, 'boolean', raw);
    need(right, 'boolean', raw);
    return node('boolean');
  }
  // op === 'in'
  if (right.type !== 'number[]' && right.type !== 'string[]') fail(`in needs a list on the right, got a ${right.type}`, right);
  if (`${left.type}[]` !== right.type) fail(`in: a ${left.type} cannot be in a ${right.type}`, at);
  return node('boolean');
}

/** A call of a known function `fn` (the name's range is `name`, the call's `at`). */
export function callNode(fn: FunctionName, args: Expr[], at: Span): Expr {
  const bad = (reason: string): never => fail(`${fn}: ${reason}; ${FUNCTIONS.get(fn)}`, at);
  const node = (type: ValueType): Expr => ({ kind: 'call', fn, args, type, ...at });
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
