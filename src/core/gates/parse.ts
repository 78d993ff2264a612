// Expressions alone (behavior rules of the importer, the editor's checks): text → typed AST through
// the one grammar (syntax.ts), or an ExprError with the position and the reason.
import { parseTypedExpression } from './syntax';
import { ExprError, type Expr, type FieldTable, type ValueType } from './types';

export { FUNCTION_DOCS } from './typing';

/**
 * Parse `src` against a field table. Returns the typed AST, or throws ExprError with the position
 * and the reason. `expect` checks the result type (a rule condition must be a boolean).
 */
export function compileExpression(src: string, fields: FieldTable, expect?: ValueType): Expr {
  if (typeof src !== 'string') throw new ExprError('expected an expression (text)', 0);
  return parseTypedExpression(src, fields, expect);
}
