/**
 * The page's side of "from a discovered behavior to a rule" (pure): which behaviors the viewer offers
 * to name (discovered ones: no rule of the import's rules names them, and not the unclassified
 * bucket), the numbers in words, and the rule file with the proposed rule in it
 * (src/core/import/rules/rule-file.ts: the file the import and watch accept with --behaviors).
 */
import { UNCLASSIFIED, safeName, withBehaviorRule, type BehaviorRuleSet, type RuleProposal } from '../../core/import/index';

/** A proposed rule and how many samples of the behavior and of the others the run has (the proposal counts those read back). */
export interface Proposed {
  proposal: RuleProposal;
  inRun: { own: number; others: number };
}

/** Whether the viewer offers to name `behavior`: a discovered behavior of a run measured with `rules`. */
export function nameable(behavior: string | null | undefined, rules: BehaviorRuleSet | null): behavior is string {
  if (!behavior || behavior === UNCLASSIFIED || !rules) return false;
  if (rules.fallback !== undefined && safeName(rules.fallback) === behavior) return false;
  return !rules.rules.some((r) => safeName(r.label) === behavior);
}

/** "matches 42 of its 50 samples and 3 of 400 others", and how many were read back when the run has more. */
export function proposalNumbers(p: Pick<RuleProposal, 'matched' | 'total' | 'othersMatched' | 'othersTotal'>, inRun: { own: number; others: number }): string {
  const read = p.total < inRun.own || p.othersTotal < inRun.others ? ` (of the ${p.total} of its ${inRun.own} and ${p.othersTotal} of the ${inRun.others} others read back, evenly spread)` : '';
  return `matches ${p.matched} of its ${p.total} samples and ${p.othersMatched} of ${p.othersTotal} others${read}`;
}

/** The import's rules text with the proposed rule in it (replacing the rules of the same name). */
export function ruleFileWith(rulesText: string, p: Pick<RuleProposal, 'rule'>): string {
  return withBehaviorRule(rulesText, p.rule).text;
}
