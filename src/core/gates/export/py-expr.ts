// A typed expression of the rule language (the AST the lab's parser builds, types.ts) printed as a
// Python expression over a record `r`. Every operator whose Python meaning differs from the
// language's is a call of a runtime helper (py-runtime.ts, py-pow.ts); the rest are Python operators
// on floats and booleans, fully parenthesized (Python chains `a < b < c` and binds `not` and `**`
// differently). Evaluation order and laziness are the lab's: operands left to right, && || and ?:
// short-circuit (Python's and / or / if-else), a call's arguments all evaluated before the call.
// Python refuses more than 200 nested brackets: a subexpression deeper than HOIST_DEPTH levels
// becomes its own function, called where it stood (so it is still evaluated only when reached).
import type { Expr } from '../types';

/** Levels of the printed expression before a subexpression is hoisted into its own function. */
const HOIST_DEPTH = 24;

/** A Python string literal of `s`, ASCII only (code points; a lone surrogate stays one, as json.loads keeps it). */
export function pyString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (c >= 0x20 && c < 0x7f) out += ch;
    else if (c < 0x100) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c < 0x10000) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += `\\U${c.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** A Python float literal of a finite number (JavaScript's shortest round-trip digits; Python reads them back to the same double). */
export function pyFloat(v: number): string {
  if (!Number.isFinite(v)) throw new Error(`pyFloat: ${v} has no literal`);
  if (Object.is(v, -0)) return '-0.0';
  const s = String(v);
  return /[.e]/.test(s) ? s : `${s}.0`;
}

const OPERATORS = new Map<string, string>([
  ['+', '+'], ['-', '-'], ['*', '*'], ['<', '<'], ['<=', '<='], ['>', '>'], ['>=', '>='], ['==', '=='], ['!=', '!='], ['&&', 'and'], ['||', 'or'],
]);
const HELPERS = new Map<string, string>([['/', '_div'], ['%', '_mod'], ['**', '_pow'], ['in', '_in']]);
const CALLS = new Map<string, string>([['abs', 'math.fabs'], ['min', '_min'], ['max', '_max'], ['sum', '_sum'], ['mean', '_mean'], ['len', '_len'], ['count', '_count']]);

interface Printed {
  code: string;
  depth: number;
}

/** Prints expressions; hoisted subexpressions are collected as Python function definitions. */
export class PyPrinter {
  readonly defs: string[] = [];

  constructor(private readonly prefix: string) {}

  /** The Python expression of `e` (reads the record `r`). */
  print(e: Expr): string {
    return this.node(e).code;
  }

  private node(e: Expr): Printed {
    const p = this.raw(e);
    if (p.depth <= HOIST_DEPTH) return p;
    const name = `${this.prefix}${this.defs.length}`;
    this.defs.push(`def ${name}(r):\n    return ${p.code}\n`);
    return { code: `${name}(r)`, depth: 1 };
  }

  private all(es: readonly Expr[]): { codes: string[]; depth: number } {
    const ps = es.map((x) => this.node(x));
    return { codes: ps.map((p) => p.code), depth: Math.max(0, ...ps.map((p) => p.depth)) };
  }

  private raw(e: Expr): Printed {
    switch (e.kind) {
      case 'literal':
        return { code: typeof e.value === 'number' ? pyFloat(e.value) : typeof e.value === 'string' ? pyString(e.value) : e.value ? 'True' : 'False', depth: 0 };
      case 'field':
        return { code: `_f(r, ${pyString(e.name)}, ${pyString(e.type)}, ${e.pos})`, depth: 1 };
      case 'list': {
        const a = this.all(e.items);
        return { code: `[${a.codes.join(', ')}]`, depth: a.depth + 1 };
      }
      case 'unary': {
        const a = this.node(e.arg);
        return { code: e.op === '!' ? `(not ${a.code})` : `(${e.op}${a.code})`, depth: a.depth + 1 };
      }
      case 'cond': {
        const a = this.all([e.test, e.then, e.else]);
        return { code: `(${a.codes[1]} if ${a.codes[0]} else ${a.codes[2]})`, depth: a.depth + 1 };
      }
      case 'binary': {
        const a = this.all([e.left, e.right]);
        const helper = HELPERS.get(e.op);
        if (helper) return { code: `${helper}(${a.codes[0]}, ${a.codes[1]})`, depth: a.depth + 1 };
        return { code: `(${a.codes[0]} ${OPERATORS.get(e.op)!} ${a.codes[1]})`, depth: a.depth + 1 };
      }
      case 'call': {
        const a = this.all(e.args);
        const fn = CALLS.get(e.fn)!;
        // min(a, b, …) is min of the list of its arguments, as the lab's nums() reads them
        const args = (e.fn === 'min' || e.fn === 'max') && e.args.length > 1 ? `[${a.codes.join(', ')}]` : a.codes.join(', ');
        return { code: `${fn}(${args})`, depth: a.depth + 2 };
      }
    }
  }
}
