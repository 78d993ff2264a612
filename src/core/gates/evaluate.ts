// The evaluator: walks our typed AST over a plain record. It reads only the record's own
// properties named by the AST's fields (checked against the table at parse time), so no input can
// reach prototypes or run code. A record whose field is missing or of the wrong type is an
// ExprError at that field's position (imported logs may lack a field).
import { ExprError, type Expr, type FieldRecord, type Value, type ValueType } from './types';

function fieldValue(e: Expr & { kind: 'field' }, record: FieldRecord): Value {
  const v = Object.hasOwn(record, e.name) ? record[e.name] : undefined;
  if (!matches(v, e.type)) {
    const got = v === undefined || v === null ? 'missing' : Array.isArray(v) ? 'a list' : `a ${typeof v}`;
    throw new ExprError(`field "${e.name}" is ${got} in this record, expected a ${e.type}`, e.pos, e.end);
  }
  return v as Value;
}

export function matches(v: unknown, t: ValueType): boolean {
  switch (t) {
    case 'number':
      return typeof v === 'number';
    case 'boolean':
      return typeof v === 'boolean';
    case 'string':
      return typeof v === 'string';
    case 'number[]':
      return Array.isArray(v) && v.every((x) => typeof x === 'number');
    case 'string[]':
      return Array.isArray(v) && v.every((x) => typeof x === 'string');
  }
}

const num = (x: Value) => x as number;
const list = (x: Value) => x as readonly (number | string)[];

/** Evaluate a parsed expression on one record. */
export function evaluate(e: Expr, record: FieldRecord): Value {
  switch (e.kind) {
    case 'literal':
      return e.value;
    case 'field':
      return fieldValue(e, record);
    case 'list':
      return e.items.map((i) => evaluate(i, record)) as number[] | string[];
    case 'unary': {
      const a = evaluate(e.arg, record);
      return e.op === '!' ? !a : e.op === '-' ? -num(a) : num(a);
    }
    case 'cond':
      return evaluate(e.test, record) ? evaluate(e.then, record) : evaluate(e.else, record);
    case 'binary':
      return binary(e, record);
    case 'call':
      return call(e, record);
  }
}

function binary(e: Expr & { kind: 'binary' }, record: FieldRecord): Value {
  // short-circuit boolean operators
  if (e.op === '&&') return (evaluate(e.left, record) as boolean) && (evaluate(e.right, record) as boolean);
  if (e.op === '||') return (evaluate(e.left, record) as boolean) || (evaluate(e.right, record) as boolean);
  const a = evaluate(e.left, record);
  const b = evaluate(e.right, record);
  switch (e.op) {
    case '+':
      return num(a) + num(b);
    case '-':
      return num(a) - num(b);
    case '*':
      return num(a) * num(b);
    case '/':
      return num(a) / num(b);
    case '%':
      return num(a) % num(b);
    case '**':
      return num(a) ** num(b);
    case '<':
      return num(a) < num(b);
    case '<=':
      return num(a) <= num(b);
    case '>':
      return num(a) > num(b);
    case '>=':
      return num(a) >= num(b);
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case 'in':
      // == equality, as == and count use: NaN is in no list (includes would find it)
      return list(b).some((x) => x === a);
  }
}

function call(e: Expr & { kind: 'call' }, record: FieldRecord): Value {
  const args = e.args.map((a) => evaluate(a, record));
  const nums = (): number[] => (args.length === 1 ? [...(args[0] as readonly number[])] : (args as number[]));
  switch (e.fn) {
    case 'abs':
      return Math.abs(num(args[0]));
    case 'min':
      return nums().reduce((m, x) => Math.min(m, x), Infinity);
    case 'max':
      return nums().reduce((m, x) => Math.max(m, x), -Infinity);
    case 'sum':
      return nums().reduce((s, x) => s + x, 0);
    case 'mean': {
      const xs = nums();
      return xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN;
    }
    case 'len':
      return list(args[0]).length;
    case 'count':
      return list(args[0]).filter((x) => x === args[1]).length;
  }
}

/** The field names an expression reads. */
export function fieldsOf(e: Expr, out = new Set<string>()): Set<string> {
  switch (e.kind) {
    case 'field':
      out.add(e.name);
      break;
    case 'list':
      e.items.forEach((i) => fieldsOf(i, out));
      break;
    case 'unary':
      fieldsOf(e.arg, out);
      break;
    case 'binary':
      fieldsOf(e.left, out);
      fieldsOf(e.right, out);
      break;
    case 'cond':
      fieldsOf(e.test, out);
      fieldsOf(e.then, out);
      fieldsOf(e.else, out);
      break;
    case 'call':
      e.args.forEach((a) => fieldsOf(a, out));
      break;
  }
  return out;
}
