// A gate: ordered rules over the sample fields, first match wins. Each rule gives a decision
// (drop, queue with loss mask 0, queue with loss mask 1) and, for mask 1, the advantage source:
// the RL reward (raw, group-centered or group z-scored) and/or the OPD teacher term, each weighted.
// A sample that no rule matches is dropped (reported as its own count).
//
// Text form, one rule per line (the grammar in syntax.ts):   EXPR => DECISION  [# label]
//   DECISION := drop | mask0 | mask1 [TERM (+ TERM)*]      TERM := [WEIGHT [*]] SOURCE
//   SOURCE   := rl | rl_centered | rl_zscore | opd
// e.g.  votes_pos > 0 && votes_neg > 0 => drop # votes disagree
//       hint_accepted && reward != 0 => mask1 rl + opd
import { type GateDecision, type RlSource, type RuleAction } from './decision';
import { evaluate, fieldsOf } from './evaluate';
import { GROUP_FIELDS, SAMPLE_FIELDS } from './fields';
import { parseAction, parseRule, parseTypedExpression } from './syntax';
import { ExprError, type Expr, type FieldRecord, type FieldTable } from './types';

const EFFECTIVE_BEFORE = 'session_effective_before';

export { formatDecision, type DecisionKind as Decision, type GateDecision, type RlSource, type RuleAction } from './decision';
/** Added to the group std before dividing (GRPO's epsilon). */
export const STD_EPS = 1e-6;
/** A gate's text: characters and rules at most (checked before any rule is parsed). */
export const MAX_GATE_CHARS = 50_000;
export const MAX_RULES = 200;

export interface Rule extends RuleAction {
  /** The condition's and the action's text as written (trimmed), and the label ('' = none). */
  when: string;
  then: string;
  label: string;
  expr: Expr;
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

/** Run a parse; an ExprError becomes a GateError of rule `index`, part `part`. */
function asGateError<T>(index: number, part: GateError['part'], f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof ExprError) throw new GateError(index, part, e.reason, e.pos, e.end);
    throw e;
  }
}

/** Parse one rule line "EXPR => DECISION # label"; positions in errors are within the line. */
export function parseRuleLine(line: string, index = 0, fields: FieldTable = SAMPLE_FIELDS): Rule {
  const r = asGateError(index, 'rule', () => parseRule(line, fields));
  return { when: r.when, then: r.then, label: r.label, expr: r.expr, ...r.action };
}

/** A rule from its parts (a JSON gate's { when, then, label }); errors carry positions within `when` or `then`. */
export function makeRule(when: string, then: string, label: string, index = 0, fields: FieldTable = SAMPLE_FIELDS): Rule {
  if (/[\n\r]/.test(label)) throw new GateError(index, 'rule', 'a label is one line', 0);
  const expr = asGateError(index, 'when', () => parseTypedExpression(when, fields, 'boolean'));
  return { when, then, label, expr, ...parseDecision(then, index) };
}

/** "mask1 0.5*rl + opd" → decision and advantage terms. */
export function parseDecision(text: string, index = 0): RuleAction {
  return asGateError(index, 'then', () => parseAction(text));
}

export function ruleLine(r: Pick<Rule, 'when' | 'then' | 'label'>): string {
  return `${r.when} => ${r.then}${r.label ? ` # ${r.label}` : ''}`;
}

export function ruleName(gate: Gate, i: number): string {
  return i >= gate.rules.length ? 'no rule matched (dropped)' : gate.rules[i].label || `rule ${i + 1}`;
}

/** The gate of parsed rules, in order (what it reads, whether it serves groups). */
export function gateFromRules(rules: Rule[]): Gate {
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

/** The canonical text of a gate (compileGate(gateText(g)) gives the same rules). */
export function gateText(g: Gate): string {
  return g.rules.map(ruleLine).join('\n');
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
export function outcomeOf(gate: Gate, rule: number, rec: FieldRecord): GateDecision {
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

/**
 * Where samples stand in the order they were judged (OpenClaw submits turns one by one in that
 * order: PRM completion order; in its record files, PRM file order). `session`: each record's
 * session; `judged`: record indices in judging order (every index once).
 */
export interface JudgingOrder {
  session: readonly (string | number)[];
  judged: readonly number[];
}

/**
 * Apply a gate to records in judging order: first matching rule per record, and its decision.
 * Pure. `session_effective_before` (turns of the same session decided earlier in judging order
 * that this gate queued with loss mask 1: OpenClaw's per-session counter `_session_effective`) is
 * filled in from `order` when the gate reads it; without an order, the records' own values are
 * used (a replay of traced records). Returns the decisions and the records as the gate saw them.
 */
export function decideInOrder(gate: Gate, records: readonly FieldRecord[], order?: JudgingOrder): { decisions: GateDecision[]; records: FieldRecord[] } {
  if (!order || !gate.reads.has(EFFECTIVE_BEFORE)) {
    return { decisions: records.map((rec) => outcomeOf(gate, matchRule(gate, rec), rec)), records: [...records] };
  }
  if (order.judged.length !== records.length || order.session.length !== records.length) throw new Error('decideInOrder: the judging order must list every record once');
  const decisions = new Array<GateDecision>(records.length);
  const seen = new Array<FieldRecord>(records.length);
  const counts = new Map<string | number, number>();
  for (const i of order.judged) {
    if (seen[i] !== undefined) throw new Error(`decideInOrder: record ${i} is twice in the judging order`);
    const key = order.session[i];
    const rec = { ...records[i], [EFFECTIVE_BEFORE]: counts.get(key) ?? 0 };
    const d = outcomeOf(gate, matchRule(gate, rec), rec);
    if (d.queued && d.lossMask === 1) counts.set(key, (counts.get(key) ?? 0) + 1);
    decisions[i] = d;
    seen[i] = rec;
  }
  return { decisions, records: seen };
}

/** The decisions of decideInOrder. */
export function applyGate(gate: Gate, records: readonly FieldRecord[], order?: JudgingOrder): GateDecision[] {
  return decideInOrder(gate, records, order).decisions;
}

/** How many records each rule decided (index rules.length: none matched). */
export function ruleCounts(gate: Gate, outcomes: readonly GateDecision[]): number[] {
  const counts = new Array<number>(gate.rules.length + 1).fill(0);
  for (const o of outcomes) counts[o.rule]++;
  return counts;
}
