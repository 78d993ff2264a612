// The rule language and gates. Expression API for any plain record of fields (also used on
// imported logs): parseExpression / compileExpression → typed AST, evaluate(ast, record).
// Gates: compileGate(text) is the one way from a gate's text to the compiled gate (once per text;
// checkGate gives every error, gateTextError the config's message, compileGateJson reads the JSON
// form, joinedGateText joins compiled gates; gateOf in builtin.ts is a config's gate). The parts a
// gate is built of (parseRuleLine, makeRule, gateFromRules in gate.ts) are not exported here.
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
export { checkGate, compileGate, compileGateJson, gateParses, gateTextError, joinedGateText, type GateCheck } from './compile';
export {
  applyGate, decideInOrder, formatDecision, gateText, GateError, matchRule, MAX_GATE_CHARS, MAX_RULES, outcomeOf, ruleCounts, ruleLine, ruleName, STD_EPS,
  type Decision, type Gate, type GateDecision, type JudgingOrder, type Rule, type RlSource, type RuleAction,
} from './gate';
export * from './types';
export * from './funnel';
