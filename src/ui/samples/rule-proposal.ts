/**
 * A rule proposed for a named behavior, as the page shows it: the rule (a response regex in the rule
 * files' flavor), how many of the behavior's samples it matches and how many of the others it also
 * matches (over the samples read for the proposal). Pure.
 */
import type { BehaviorRule } from '../../core/import/index';

export interface RuleProposal {
  rule: BehaviorRule & { responseRegex: string };
  /** The behavior's samples the rule matches, of `total` read. */
  matched: number;
  total: number;
  /** The other samples it also matches, of `othersTotal` read. */
  othersMatched: number;
  othersTotal: number;
}

const share = (k: number, n: number) => (n ? `${((100 * k) / n).toFixed(k === n || k === 0 ? 0 : 1)} %` : '–');

/** "matches 42 of its 50 samples (84.0 %) and 3 of 400 others (0.8 %)". */
export function proposalText(p: Pick<RuleProposal, 'matched' | 'total' | 'othersMatched' | 'othersTotal'>): string {
  return `matches ${p.matched} of its ${p.total} samples (${share(p.matched, p.total)}) and ${p.othersMatched} of ${p.othersTotal} others (${share(p.othersMatched, p.othersTotal)})`;
}
