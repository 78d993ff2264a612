// Types of the rule language: value types, a field table (name → type + meaning), our own AST, and
// the error every bad input becomes (with the character range and the reason).

export type ValueType = 'number' | 'boolean' | 'string' | 'number[]' | 'string[]';
export type Value = number | boolean | string | readonly number[] | readonly string[];

export interface FieldSpec {
  type: ValueType;
  /** What the field means (shown in the editor's field reference). */
  doc: string;
  /** Range or values, in words (e.g. "−1, 0 or +1"). */
  range: string;
}

/** The fields an expression may read, by name. */
export type FieldTable = Readonly<Record<string, FieldSpec>>;

/** A plain record of field values (a sample, a row of an imported log). */
export type FieldRecord = Readonly<Record<string, unknown>>;

interface Span {
  /** First character of the node in the source (0-based). */
  pos: number;
  /** One past its last character. */
  end: number;
  type: ValueType;
}

export type Expr = Span &
  (
    | { kind: 'literal'; value: number | boolean | string }
    | { kind: 'field'; name: string }
    | { kind: 'list'; items: Expr[] }
    | { kind: 'unary'; op: '-' | '+' | '!'; arg: Expr }
    | { kind: 'binary'; op: BinaryOp; left: Expr; right: Expr }
    | { kind: 'cond'; test: Expr; then: Expr; else: Expr }
    | { kind: 'call'; fn: FunctionName; args: Expr[] }
  );

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '**' | '<' | '<=' | '>' | '>=' | '==' | '!=' | '&&' | '||' | 'in';
export type FunctionName = 'min' | 'max' | 'abs' | 'mean' | 'sum' | 'count' | 'len';

/** A rejected expression: where (character range in the source) and why. */
export class ExprError extends Error {
  constructor(
    readonly reason: string,
    readonly pos: number,
    readonly end: number = pos + 1,
  ) {
    super(`${reason} (at character ${pos + 1})`);
    this.name = 'ExprError';
  }
}
