// The one way from a gate's text to a compiled gate. A gate travels as its text (configs, URLs,
// worker messages, bundles) and is parsed once per text on each side of a boundary: every reader
// on that side (the editor's check, the config check, the loop, the panels, the import's replay,
// the CLI) gets the same compiled value from here. The rest of gates/ only builds the parts (a
// rule line: gate.ts; the grammar: syntax.ts) and applies a compiled gate.
import { GateError, gateFromRules, gateText, makeRule, MAX_GATE_CHARS, MAX_RULES, parseRuleLine, type Gate, type Rule } from './gate';
import { scanTokens } from './tokens';

const compiled = new Map<string, Gate>();
const MAX_KEPT = 64;
let parses = 0;

function keep(text: string, gate: Gate): void {
  if (compiled.size >= MAX_KEPT) compiled.delete(compiled.keys().next().value!);
  compiled.set(text, gate);
}

/** A checked gate text: the gate when there is no error, every error, and the editor line of each rule. */
export interface GateCheck {
  gate: Gate | null;
  errors: GateError[];
  /** Editor line of each rule (blank lines skipped). */
  lines: number[];
}

/** Every error of a gate's text (the editor shows all); a text without errors is kept compiled for compileGate. */
export function checkGate(text: string): GateCheck {
  const hit = compiled.get(text);
  if (hit) return { gate: hit, errors: [], lines: linesOf(text) };
  parses++;
  const r = parseGate(text);
  if (r.gate) keep(text, r.gate);
  return r;
}

/** The compiled gate of a text (one rule per line). Throws the text's first GateError. */
export function compileGate(text: string): Gate {
  const r = checkGate(text);
  if (r.errors.length) throw r.errors[0];
  return r.gate!;
}

/** The `gate` setting's check: null when the text compiles to a gate, else its first error (rule, character, reason). */
export function gateTextError(text: string): string | null {
  try {
    compileGate(text);
    return null;
  } catch (e) {
    if (e instanceof GateError) return e.message;
    throw e;
  }
}

/**
 * The gate of JSON `{ rules: ["EXPR => DECISION # label" | { when, then, label? }, …] }` (a CLI's
 * gate file), kept compiled under its canonical text; errors at the rule and part (when, then)
 * they are in.
 */
export function compileGateJson(obj: unknown): Gate {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) throw new GateError(0, 'rule', 'expected an object { "rules": [...] }', 0);
  const o = obj as Record<string, unknown>;
  for (const k of Object.keys(o)) if (k !== 'rules' && k !== 'name' && k !== 'description') throw new GateError(0, 'rule', `unknown key "${k}" (expected rules, name, description)`, 0);
  if (!Array.isArray(o.rules)) throw new GateError(0, 'rule', '"rules" must be a list', 0);
  if (o.rules.length > MAX_RULES) throw new GateError(MAX_RULES, 'rule', `too many rules (${o.rules.length}; at most ${MAX_RULES})`, 0);
  return kept(gateFromRules(o.rules.map((r: unknown, i) => jsonRule(r, i))));
}

function jsonRule(r: unknown, i: number): Rule {
  if (typeof r === 'string') {
    if (/[\n\r]/.test(r)) throw new GateError(i, 'rule', 'a rule is one line', 0);
    return parseRuleLine(r, i);
  }
  if (r === null || typeof r !== 'object') throw new GateError(i, 'rule', 'a rule is "EXPR => DECISION" or { "when", "then", "label" }', 0);
  const x = r as Record<string, unknown>;
  for (const k of Object.keys(x)) if (!['when', 'then', 'label'].includes(k)) throw new GateError(i, 'rule', `unknown key "${k}" (expected when, then, label)`, 0);
  if (typeof x.when !== 'string') throw new GateError(i, 'when', '"when" must be a string', 0);
  if (typeof x.then !== 'string') throw new GateError(i, 'then', '"then" must be a string', 0);
  if (x.label !== undefined && typeof x.label !== 'string') throw new GateError(i, 'rule', '"label" must be a string', 0);
  if (/[\n\r]/.test(x.when) || /[\n\r#]/.test(x.then) || /[\n\r]/.test((x.label as string) ?? '')) throw new GateError(i, 'rule', 'when, then and label are one line each (and then has no #)', 0);
  const arrow = scanTokens(x.when, 'expression').find((t) => t.kind === 'op' && t.text === '=>');
  if (arrow) throw new GateError(i, 'when', '"when" holds the condition only (no =>)', arrow.pos, arrow.end);
  return makeRule(x.when, x.then, (x.label as string | undefined) ?? '', i);
}

/**
 * The canonical text of the gate whose rules are those of `gates`, in order (a CLI's --gate-rule
 * flags, then its --gate file), kept compiled under that text so that the config's check and the
 * loop find it without parsing.
 */
export function joinedGateText(gates: readonly Gate[]): string {
  return gateText(kept(gateFromRules(gates.flatMap((g) => g.rules))));
}

function kept(gate: Gate): Gate {
  const text = gateText(gate);
  const hit = compiled.get(text);
  if (hit) return hit;
  keep(text, gate);
  return gate;
}

/** Parse a gate's text, uncached (one rule per line; blank lines ignored). Bounded: a text over MAX_GATE_CHARS is refused unread, and parsing stops after MAX_RULES rules. */
function parseGate(text: string): GateCheck {
  if (typeof text !== 'string') return { gate: null, errors: [new GateError(0, 'rule', 'expected the gate as text', 0)], lines: [] };
  if (text.length > MAX_GATE_CHARS) return { gate: null, errors: [new GateError(0, 'rule', `gate too long (${text.length} characters; at most ${MAX_GATE_CHARS})`, 0)], lines: [0] };
  const rules: Rule[] = [];
  const errors: GateError[] = [];
  const lines: number[] = [];
  const all = text.split('\n');
  for (let n = 0; n < all.length; n++) {
    const line = all[n];
    if (line.trim() === '') continue;
    const index = lines.length;
    lines.push(n);
    if (index >= MAX_RULES) {
      errors.push(new GateError(index, 'rule', `too many rules (more than ${MAX_RULES}); the rest is not checked`, 0, line.length));
      break;
    }
    try {
      rules.push(parseRuleLine(line.replace(/\r$/, ''), index));
    } catch (e) {
      if (e instanceof GateError) errors.push(e);
      else throw e;
    }
  }
  if (!errors.length && !rules.length) errors.push(new GateError(0, 'rule', 'a gate needs at least one rule', 0));
  return { gate: errors.length ? null : gateFromRules(rules), errors, lines };
}

/** Editor lines of the rules (blank lines skipped), as parseGate gives them. */
function linesOf(text: string): number[] {
  const out: number[] = [];
  text.split('\n').forEach((l, n) => l.trim() !== '' && out.push(n));
  return out;
}

/** How many times a gate text was parsed on this side so far (tests of the walk from editor to loop). */
export function gateParses(): number {
  return parses;
}
