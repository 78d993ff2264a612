// A gate: ordered rules over the sample fields, first match wins. Each rule gives a decision
// (drop, queue with loss mask 0, queue with loss mask 1) and, for mask 1, the advantage source:
// the RL reward (raw, group-centered or group z-scored) and/or the OPD teacher term, each weighted.
// A sample that no rule matches is dropped (reported as its own count).
//
// Text form, one rule per line:   EXPR => DECISION  [# label]
//   DECISION := drop | mask0 | mask1 [TERM (+ TERM)*]      TERM := [WEIGHT [*]] SOURCE
//   SOURCE   := rl | rl_centered | rl_zscore | opd
// e.g.  votes_pos > 0 && votes_neg > 0 => drop # votes disagree
//       hint_accepted && reward != 0 => mask1 rl + opd
import { evaluate, fieldsOf } from './evaluate';
import { GROUP_FIELDS, SAMPLE_FIELDS } from './fields';
import { compileExpression } from './parse';
import { ExprError, type Expr, type FieldRecord, type FieldTable } from './types';

export type Decision = 'drop' | 'mask0' | 'mask1';
export type RlSource = 'rl' | 'rl_centered' | 'rl_zscore';
export const RL_SOURCES: Record<RlSource, string> = {
  rl: 'the reward r (A = w·r; OpenClaw Binary RL, Combine)',
  rl_centered: 'r − group mean (Dr.GRPO)',
  rl_zscore: '(r − group mean) / (group std + 1e-6) (GRPO)',
};
export const DECISIONS: Record<Decision, string> = {
  drop: 'not queued (no compute, no signal)',
  mask0: 'queued with loss mask 0 (costs compute, no gradient)',
  mask1: 'queued with loss mask 1; the advantage is the sum of the terms (none: A = 0)',
};
export const OPD_DOC = 'the teacher term logπ_T(a | s + hint) − logπ_old(a | s) per token, with the longest +1 hint (0 when the turn has no hint)';
/** Added to the group std before dividing (GRPO's epsilon). */
export const STD_EPS = 1e-6;
const WEIGHT_MAX = 100;

export interface Rule {
  when: string;
  then: string;
  label: string;
  expr: Expr;
  decision: Decision;
  /** RL term: source and weight; null = none. */
  rl: { source: RlSource; weight: number } | null;
  /** Weight of the OPD teacher term; null = none. */
  opd: number | null;
}

export interface Gate {
  rules: Rule[];
  /** Fields the gate reads (conditions and advantage sources). */
  reads: ReadonlySet<string>;
  /** Serve sessions in groups sharing a prompt (the gate reads group fields). */
  grouped: boolean;
}

/** A bad rule: which rule (0-based), which part, where (characters in that part) and why. */
export class GateError extends Error {
  constructor(
    readonly rule: number,
    readonly part: 'rule' | 'when' | 'then',
    readonly reason: string,
    readonly pos: number,
    readonly end: number = pos + 1,
  ) {
    super(`rule ${rule + 1}${part === 'rule' ? '' : ` (${part})`}, character ${pos + 1}: ${reason}`);
    this.name = 'GateError';
  }
}

/** Where the " => " of a rule line is (outside string literals), or −1. */
function arrowAt(line: string): number {
  let quote: string | null = null;
  for (let i = 0; i < line.length - 1; i++) {
    const c = line[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '=' && line[i + 1] === '>') return i;
  }
  return -1;
}

/** Parse one rule line "EXPR => DECISION # label"; positions in errors are within the line. */
export function parseRuleLine(line: string, index = 0): Rule {
  const arrow = arrowAt(line);
  if (arrow < 0) throw new GateError(index, 'rule', 'expected "CONDITION => DECISION" (no => found)', line.length, line.length + 1);
  const rest = line.slice(arrow + 2);
  const hash = rest.indexOf('#');
  const then = hash >= 0 ? rest.slice(0, hash) : rest;
  const label = hash >= 0 ? rest.slice(hash + 1).trim() : '';
  const lead = (s: string) => s.length - s.trimStart().length;
  const whenRaw = line.slice(0, arrow);
  try {
    return makeRule(whenRaw.trim(), then.trim(), label, index);
  } catch (e) {
    if (!(e instanceof GateError)) throw e;
    const off = e.part === 'when' ? lead(whenRaw) : e.part === 'then' ? arrow + 2 + lead(then) : 0;
    throw new GateError(index, 'rule', e.reason, e.pos + off, e.end + off);
  }
}

/** A rule from its parts; errors carry positions within `when` or `then`. */
export function makeRule(when: string, then: string, label: string, index = 0, fields: FieldTable = SAMPLE_FIELDS): Rule {
  if (/[\n\r]/.test(label)) throw new GateError(index, 'rule', 'a label is one line', 0);
  let expr: Expr;
  try {
    expr = compileExpression(when, fields, 'boolean');
  } catch (e) {
    if (e instanceof ExprError) throw new GateError(index, 'when', e.reason, e.pos, e.end);
    throw e;
  }
  return { when, then, label, expr, ...parseDecision(then, index) };
}

const TERM = /^\s*(?:([0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)\s*\*?\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*/i;

/** "mask1 0.5*rl + opd" → decision and advantage terms. */
export function parseDecision(text: string, index = 0): Pick<Rule, 'decision' | 'rl' | 'opd'> {
  const fail = (reason: string, pos: number, end = pos + 1): never => {
    throw new GateError(index, 'then', reason, pos, end);
  };
  const m = /^\s*([A-Za-z0-9_]+)/.exec(text);
  if (!m) return fail(`expected a decision: ${Object.keys(DECISIONS).join(', ')}`, 0, Math.max(1, text.length));
  const word = m[1];
  if (!(word in DECISIONS)) return fail(`unknown decision "${word}": expected ${Object.keys(DECISIONS).join(', ')}`, m.index, m[0].length);
  const decision = word as Decision;
  let i = m[0].length;
  const out: Pick<Rule, 'decision' | 'rl' | 'opd'> = { decision, rl: null, opd: null };
  if (text.slice(i).trim() === '') return out;
  if (decision !== 'mask1') return fail(`${decision} takes no advantage terms (only mask1 trains)`, i + text.slice(i).length - text.slice(i).trimStart().length, text.length);
  for (let first = true; i < text.length; first = false) {
    if (!first) {
      const plus = /^\s*\+\s*/.exec(text.slice(i));
      if (!plus) return fail(`expected + between advantage terms, got "${text.slice(i).trim()}"`, i + lead(text.slice(i)), text.length);
      i += plus[0].length;
    }
    const t = TERM.exec(text.slice(i));
    if (!t) return fail('expected an advantage term: [weight*] rl | rl_centered | rl_zscore | opd', i + lead(text.slice(i)), text.length);
    const start = i + lead(text.slice(i));
    const weight = t[1] === undefined ? 1 : Number(t[1]);
    const source = t[2];
    const end = i + t[0].trimEnd().length;
    if (!Number.isFinite(weight) || weight > WEIGHT_MAX) fail(`weight ${t[1]} is outside [0, ${WEIGHT_MAX}]`, start, end);
    if (source === 'opd') {
      if (out.opd !== null) fail('opd appears twice', start, end);
      out.opd = weight;
    } else if (source in RL_SOURCES) {
      if (out.rl !== null) fail('one RL term per rule (rl, rl_centered or rl_zscore)', start, end);
      out.rl = { source: source as RlSource, weight };
    } else fail(`unknown advantage source "${source}": expected rl, rl_centered, rl_zscore or opd`, start, end);
    i += t[0].length;
  }
  return out;
}

const lead = (s: string) => s.length - s.trimStart().length;

/** The text of a decision: the inverse of parseDecision. */
export function formatDecision(r: Pick<Rule, 'decision' | 'rl' | 'opd'>): string {
  const terms: string[] = [];
  const w = (x: number) => (x === 1 ? '' : `${x}*`);
  if (r.rl) terms.push(`${w(r.rl.weight)}${r.rl.source}`);
  if (r.opd !== null) terms.push(`${w(r.opd)}opd`);
  return [r.decision, terms.join(' + ')].filter(Boolean).join(' ');
}

export function ruleLine(r: Pick<Rule, 'when' | 'then' | 'label'>): string {
  return `${r.when} => ${r.then}${r.label ? ` # ${r.label}` : ''}`;
}

export function ruleName(gate: Gate, i: number): string {
  return i >= gate.rules.length ? 'no rule matched (dropped)' : gate.rules[i].label || `rule ${i + 1}`;
}

function finish(rules: Rule[]): Gate {
  if (rules.length === 0) throw new GateError(0, 'rule', 'a gate needs at least one rule', 0);
  const reads = new Set<string>();
  for (const r of rules) {
    fieldsOf(r.expr, reads);
    if (r.decision === 'mask1' && r.rl) {
      reads.add('reward');
      if (r.rl.source !== 'rl') reads.add('group_reward_mean').add('group_reward_std');
    }
    if (r.decision === 'mask1' && r.opd !== null) reads.add('hint_len');
  }
  return { rules, reads, grouped: GROUP_FIELDS.some((f) => reads.has(f)) };
}

/** Parse a gate's text (one rule per line; blank lines ignored). Throws the first GateError. */
export function parseGateText(text: string): Gate {
  const { gate, errors } = checkGateText(text);
  if (errors.length) throw errors[0];
  return gate!;
}

/** Every error of a gate's text (the editor shows all), and the gate when there is none. */
export function checkGateText(text: string): { gate: Gate | null; errors: GateError[]; lines: number[] } {
  const rules: Rule[] = [];
  const errors: GateError[] = [];
  const lines: number[] = [];
  text.split('\n').forEach((line, n) => {
    if (line.trim() === '') return;
    const index = lines.length;
    lines.push(n);
    try {
      rules.push(parseRuleLine(line.replace(/\r$/, ''), index));
    } catch (e) {
      if (e instanceof GateError) errors.push(e);
      else throw e;
    }
  });
  if (!errors.length && !rules.length) errors.push(new GateError(0, 'rule', 'a gate needs at least one rule', 0));
  return { gate: errors.length ? null : finish(rules), errors, lines };
}

/** A gate from JSON: { rules: ["EXPR => DECISION # label" | { when, then, label? }, …] }. */
export function parseGateJson(obj: unknown): Gate {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) throw new GateError(0, 'rule', 'expected an object { "rules": [...] }', 0);
  const o = obj as Record<string, unknown>;
  for (const k of Object.keys(o)) if (k !== 'rules' && k !== 'name' && k !== 'description') throw new GateError(0, 'rule', `unknown key "${k}" (expected rules, name, description)`, 0);
  if (!Array.isArray(o.rules)) throw new GateError(0, 'rule', '"rules" must be a list', 0);
  const rules = o.rules.map((r: unknown, i) => {
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
    if (arrowAt(x.when) >= 0) throw new GateError(i, 'when', '"when" holds the condition only (no =>)', arrowAt(x.when), arrowAt(x.when) + 2);
    return makeRule(x.when, x.then, (x.label as string | undefined) ?? '', i);
  });
  return finish(rules);
}

/** The canonical text of a gate (parseGateText(gateText(g)) gives the same rules). */
export function gateText(g: Gate): string {
  return g.rules.map(ruleLine).join('\n');
}

/** What a gate decided for one sample. */
export interface GateOutcome {
  /** Index of the deciding rule; rules.length when none matched (dropped). */
  rule: number;
  queued: boolean;
  lossMask: 0 | 1;
  /** Scalar added to every response token's advantage (the weighted RL term). */
  reward: number;
  /** Weight of the per-token teacher term; 0 = no teacher. */
  opdWeight: number;
  /** The rule names an OPD term (the sample's longest +1 hint becomes the teacher's context). */
  usesHint: boolean;
}

/** Index of the first rule whose condition holds for the record (rules.length: none). */
export function matchRule(gate: Gate, record: FieldRecord): number {
  for (let i = 0; i < gate.rules.length; i++) {
    let hit: unknown;
    try {
      hit = evaluate(gate.rules[i].expr, record);
    } catch (e) {
      if (e instanceof ExprError) throw new GateError(i, 'when', e.reason, e.pos, e.end);
      throw e;
    }
    if (hit === true) return i;
  }
  return gate.rules.length;
}

function rlTerm(source: RlSource, rec: FieldRecord): number {
  const r = rec.reward as number;
  if (source === 'rl') return r;
  const mean = rec.group_reward_mean as number;
  return source === 'rl_centered' ? r - mean : (r - mean) / ((rec.group_reward_std as number) + STD_EPS);
}

/** The decision of one rule for a record (the record must hold the fields the rule reads). */
export function outcomeOf(gate: Gate, rule: number, rec: FieldRecord): GateOutcome {
  const r = gate.rules[rule];
  if (!r || r.decision === 'drop') return { rule, queued: false, lossMask: 0, reward: 0, opdWeight: 0, usesHint: false };
  if (r.decision === 'mask0') return { rule, queued: true, lossMask: 0, reward: 0, opdWeight: 0, usesHint: false };
  const hasHint = (rec.hint_len as number) > 0;
  return {
    rule,
    queued: true,
    lossMask: 1,
    reward: r.rl ? r.rl.weight * rlTerm(r.rl.source, rec) : 0,
    opdWeight: r.opd !== null && hasHint ? r.opd : 0,
    usesHint: r.opd !== null && hasHint,
  };
}

/** Apply a gate to records: first matching rule per record, and its decision. Pure. */
export function applyGate(gate: Gate, records: readonly FieldRecord[]): GateOutcome[] {
  return records.map((rec) => outcomeOf(gate, matchRule(gate, rec), rec));
}

/** How many records each rule decided (index rules.length: none matched). */
export function ruleCounts(gate: Gate, outcomes: readonly GateOutcome[]): number[] {
  const counts = new Array<number>(gate.rules.length + 1).fill(0);
  for (const o of outcomes) counts[o.rule]++;
  return counts;
}
