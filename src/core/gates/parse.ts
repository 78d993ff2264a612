// Parsing with jsep (a maintained expression parser; it only builds a tree, it never evaluates),
// with character positions recorded on every token by two parser hooks, then converted to our own
// typed AST. Word operators `and`, `or`, `not`, `in` are added; anything jsep accepts that the
// language does not (member access, `this`, bitwise operators, several expressions) is rejected
// here with its position.
import jsep from 'jsep';
import { nearestName } from './nearest';
import { ExprError, type BinaryOp, type Expr, type FieldTable, type FunctionName, type ValueType } from './types';

type J = jsep.Expression & { start?: number; stop?: number };

const starts: number[] = [];
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  jsep.addBinaryOp('or', 1);
  jsep.addBinaryOp('and', 2);
  jsep.addBinaryOp('in', 7);
  jsep.addUnaryOp('not');
  jsep.removeLiteral('null');
  jsep.hooks.add('gobble-token', function (this: jsep.HookScope, env) {
    starts.push(this.index);
    // jsep returns number literals without its after-token hook: parse them here so they get one
    const c = this.code;
    if ((c >= 48 && c <= 57) || c === 46) env.node = this.gobbleNumericLiteral();
  });
  jsep.hooks.add('after-token', function (this: jsep.HookScope, env) {
    const start = starts.pop();
    if (env.node && start !== undefined) {
      const n = env.node as J;
      n.start = start;
      n.stop = trimEnd(this.expr, this.index);
    }
  });
}

function trimEnd(src: string, i: number): number {
  while (i > 0 && /\s/.test(src[i - 1])) i--;
  return i;
}

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

const ARITH = new Set(['+', '-', '*', '/', '%', '**']);
const ORDER = new Set(['<', '<=', '>', '>=']);
const ALIAS: Record<string, BinaryOp> = { and: '&&', or: '||' };
const HINTS: Record<string, string> = {
  '===': 'use ==', '!==': 'use !=', '&': 'use && (and)', '|': 'use || (or)', '^': 'not supported',
  '<<': 'not supported', '>>': 'not supported', '>>>': 'not supported', '??': 'not supported', '~': 'use ! (not)',
};

/**
 * Parse `src` against a field table. Returns the typed AST, or throws ExprError with the position
 * and the reason. `expect` checks the result type (a rule condition must be a boolean).
 */
export function compileExpression(src: string, fields: FieldTable, expect?: ValueType): Expr {
  if (typeof src !== 'string') throw new ExprError('expected an expression (text)', 0);
  if (src.trim() === '') throw new ExprError('empty expression', 0, Math.max(1, src.length));
  install();
  starts.length = 0;
  let tree: J;
  try {
    tree = jsep(src) as J;
  } catch (e) {
    const err = e as { index?: number; description?: string; message?: string };
    const pos = typeof err.index === 'number' ? Math.min(err.index, src.length) : 0;
    throw new ExprError(err.description ?? String(err.message ?? e), pos);
  } finally {
    starts.length = 0;
  }
  if (tree.type === 'Compound') {
    const body = tree.body as J[];
    const second = body[1] as J | undefined;
    const pos = second ? span(second, src)[0] : 0;
    throw new ExprError(`unexpected "${src.slice(pos).trim().split(/\s+/)[0]}" after a complete expression (trailing tokens)`, pos, src.length);
  }
  const out = convert(tree, src, fields);
  if (expect && out.type !== expect) throw new ExprError(`the expression is a ${out.type}, expected a ${expect}`, out.pos, out.end);
  return out;
}

/** Character range of a jsep node: hooks mark tokens; composite nodes span their children. */
function span(n: J, src: string): [number, number] {
  if (typeof n.start === 'number' && typeof n.stop === 'number') return [n.start, n.stop];
  switch (n.type) {
    case 'BinaryExpression':
      return [span(n.left as J, src)[0], span(n.right as J, src)[1]];
    case 'ConditionalExpression':
      return [span(n.test as J, src)[0], span(n.alternate as J, src)[1]];
    case 'Compound': {
      const b = n.body as J[];
      return b.length ? [span(b[0], src)[0], span(b[b.length - 1], src)[1]] : [0, src.length];
    }
    default:
      return [0, src.length];
  }
}

function convert(n: J, src: string, fields: FieldTable): Expr {
  const [pos, end] = span(n, src);
  const fail = (reason: string, p = pos, e = end): never => {
    throw new ExprError(reason, p, e);
  };
  const sub = (m: jsep.Expression) => convert(m as J, src, fields);
  switch (n.type) {
    case 'Literal': {
      const v = n.value;
      if (typeof v === 'number') return Number.isFinite(v) ? { kind: 'literal', value: v, type: 'number', pos, end } : fail(`number out of range: ${String(n.raw)}`);
      if (typeof v === 'boolean') return { kind: 'literal', value: v, type: 'boolean', pos, end };
      if (typeof v === 'string') return { kind: 'literal', value: v, type: 'string', pos, end };
      return fail(`unsupported literal ${String(n.raw)}`);
    }
    case 'Identifier': {
      const name = n.name as string;
      if (Object.hasOwn(fields, name)) return { kind: 'field', name, type: fields[name].type, pos, end };
      if (Object.hasOwn(FUNCTIONS, name)) fail(`${name} is a function: write ${name}(…)`);
      const near = nearestName(name, Object.keys(fields));
      return fail(`unknown field "${name}"${near ? `; did you mean "${near}"?` : ''}`);
    }
    case 'ArrayExpression': {
      const items = (n.elements as (J | null)[]).map((m) => (m ? sub(m) : fail('empty element in a list')));
      if (items.length === 0) return fail('empty list: a list needs at least one element');
      const t = items[0].type;
      if (t !== 'number' && t !== 'string') fail(`a list holds numbers or strings, not ${t}s`, items[0].pos, items[0].end);
      for (const it of items) if (it.type !== t) fail(`a list must hold one type: ${t} and ${it.type} mixed`, it.pos, it.end);
      return { kind: 'list', items, type: t === 'number' ? 'number[]' : 'string[]', pos, end };
    }
    case 'UnaryExpression': {
      const op = n.operator as string;
      const arg = sub(n.argument as jsep.Expression);
      if (op === '!' || op === 'not') {
        if (arg.type !== 'boolean') fail(`${op} needs a boolean, got a ${arg.type}`, arg.pos, arg.end);
        return { kind: 'unary', op: '!', arg, type: 'boolean', pos, end };
      }
      if (op === '-' || op === '+') {
        if (arg.type !== 'number') fail(`unary ${op} needs a number, got a ${arg.type}`, arg.pos, arg.end);
        return { kind: 'unary', op, arg, type: 'number', pos, end };
      }
      return fail(`operator ${op} is not supported${HINTS[op] ? `: ${HINTS[op]}` : ''}`);
    }
    case 'BinaryExpression':
      return binary(n, src, fields, pos, end);
    case 'ConditionalExpression': {
      const test = sub(n.test as jsep.Expression);
      const a = sub(n.consequent as jsep.Expression);
      const b = sub(n.alternate as jsep.Expression);
      if (test.type !== 'boolean') fail(`the condition before ? must be a boolean, got a ${test.type}`, test.pos, test.end);
      if (a.type !== b.type) fail(`both branches of ?: must have one type: ${a.type} and ${b.type}`, a.pos, b.end);
      return { kind: 'cond', test, then: a, else: b, type: a.type, pos, end };
    }
    case 'CallExpression':
      return call(n, src, fields, pos, end);
    case 'MemberExpression':
      return fail('member access (. or [ ]) is not part of the language: fields are plain names');
    case 'ThisExpression':
      return fail('"this" is not part of the language');
    default:
      return fail(`unsupported syntax (${n.type})`);
  }
}

function binary(n: J, src: string, fields: FieldTable, pos: number, end: number): Expr {
  const raw = n.operator as string;
  const op = (ALIAS[raw] ?? raw) as BinaryOp;
  const left = convert(n.left as J, src, fields);
  const right = convert(n.right as J, src, fields);
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
  if (op === 'in') {
    if (right.type !== 'number[]' && right.type !== 'string[]') throw new ExprError(`in needs a list on the right, got a ${right.type}`, right.pos, right.end);
    if (`${left.type}[]` !== right.type) throw new ExprError(`in: a ${left.type} cannot be in a ${right.type}`, pos, end);
    return node('boolean');
  }
  throw new ExprError(`operator ${raw} is not supported${HINTS[raw] ? `: ${HINTS[raw]}` : ''}`, pos, end);
}

function call(n: J, src: string, fields: FieldTable, pos: number, end: number): Expr {
  const callee = n.callee as J;
  if (callee.type !== 'Identifier') throw new ExprError('only the functions min, max, abs, mean, sum, count, len can be called', pos, end);
  const name = callee.name as string;
  const [cp, ce] = [pos, pos + name.length];
  if (!Object.hasOwn(FUNCTIONS, name)) {
    const near = nearestName(name, Object.keys(FUNCTIONS));
    throw new ExprError(`unknown function "${name}"${near ? `; did you mean "${near}"?` : ''} (functions: ${Object.keys(FUNCTIONS).join(', ')})`, cp, ce);
  }
  const fn = name as FunctionName;
  const args = (n.arguments as J[]).map((a) => convert(a, src, fields));
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
