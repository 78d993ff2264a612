// The rule language and gates. Expression API for any plain record of fields (also used on
// imported logs): parseExpression / compileExpression → typed AST, evaluate(ast, record).
// Gates: compileGate(text) is the one way from a gate's text to the compiled gate (once per text).
import { compileExpression } from './parse';
import { ExprError, type Expr, type FieldTable, type ValueType } from './types';

export type ParseResult = { ok: true; expr: Expr } | { ok: false; error: ExprError };

/** Parse without throwing: the typed AST, or the error with its position and reason. */
export function parseExpression(src: string, fields: FieldTable, expect?: ValueType): ParseResult {
  try {
    return { ok: true, expr: compileExpression(src, fields, expect) };
  } catch (e) {
    if (e instanceof ExprError) return { ok: false, error: e };
    throw e;
  }
}

export { compileExpression, FUNCTION_DOCS } from './parse';
export { evaluate, fieldsOf, matches } from './evaluate';
export { nearestName } from './nearest';
export { SAMPLE_FIELDS, GROUP_FIELDS, type SampleFieldName } from './fields';
export { checkGate, compileGate, gateCompiles, gateParses, keepGate } from './compile';
export * from './gate';
export * from './types';
export * from './funnel';
