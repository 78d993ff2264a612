// What a rule decides, and the one decision type a gate gives each sample.
//   a rule's action:   drop | mask0 | mask1 [TERM (+ TERM)*]      TERM := [WEIGHT [*]] SOURCE
//   SOURCE:            rl | rl_centered | rl_zscore | opd
// Names are looked up in Maps (never with `in`), so "constructor" or "__proto__" is an unknown
// decision, not a property of Object.prototype.

export type DecisionKind = 'drop' | 'mask0' | 'mask1';
export type RlSource = 'rl' | 'rl_centered' | 'rl_zscore';

export const DECISION_DOCS = new Map<DecisionKind, string>([
  ['drop', 'not queued (no compute, no signal)'],
  ['mask0', 'queued with loss mask 0 (costs compute, no gradient)'],
  ['mask1', 'queued with loss mask 1; the advantage is the sum of the terms (none: A = 0)'],
]);
export const RL_SOURCE_DOCS = new Map<RlSource, string>([
  ['rl', 'the reward r (A = w·r; OpenClaw Binary RL, Combine)'],
  ['rl_centered', 'r − group mean (Dr.GRPO)'],
  ['rl_zscore', '(r − group mean) / (group std + 1e-6) (GRPO)'],
]);
export const isDecisionKind = (w: string): w is DecisionKind => DECISION_DOCS.has(w as DecisionKind);
export const isRlSource = (w: string): w is RlSource => RL_SOURCE_DOCS.has(w as RlSource);
/** Every word that may stand in a decision (the editor completes them). */
export const DECISION_WORDS: readonly string[] = [...DECISION_DOCS.keys(), ...RL_SOURCE_DOCS.keys(), 'opd'];
/** Largest weight of an advantage term. */
export const WEIGHT_MAX = 100;

/** The right side of a rule: what it does with the samples it matches. */
export interface RuleAction {
  decision: DecisionKind;
  /** RL term: source and weight; null = none. */
  rl: { source: RlSource; weight: number } | null;
  /** Weight of the OPD teacher term; null = none. */
  opd: number | null;
}

/** What a gate decided for one sample: the one decision type from the gate to the batch, the metrics and the traces. */
export interface GateDecision {
  /** Index of the deciding rule; rules.length when none matched (dropped). */
  rule: number;
  queued: boolean;
  lossMask: 0 | 1;
  /** Scalar added to every response token's advantage (the weighted RL term). */
  reward: number;
  /** Weight of the per-token teacher term (logπ_T − logπ_old); 0 = no teacher. */
  opdWeight: number;
  /** The rule names an OPD term and the sample has a hint (its longest +1 hint becomes the teacher's context). */
  usesHint: boolean;
}

/** The text of an action: the inverse of parsing it. */
export function formatDecision(r: RuleAction): string {
  const terms: string[] = [];
  const w = (x: number) => (x === 1 ? '' : `${x}*`);
  if (r.rl) terms.push(`${w(r.rl.weight)}${r.rl.source}`);
  if (r.opd !== null) terms.push(`${w(r.opd)}opd`);
  return [r.decision, terms.join(' + ')].filter(Boolean).join(' ');
}
