import { describe, expect, it } from 'vitest';
import { nameable, proposalNumbers, ruleFileWith } from './rule-proposal';
import { DEFAULT_BEHAVIORS } from '../import/import.svelte';

describe('naming a behavior in the viewer', () => {
  it('offers discovered behaviors only: not unclassified, not a rule\'s label or the fallback (as names in metric keys)', () => {
    const rules = { rules: [{ label: 'search first', toolsInclude: ['search'] }], fallback: 'other' };
    expect(nameable('analyze-question-enumerated', rules)).toBe(true);
    expect(nameable('search_first', rules)).toBe(false);
    expect(nameable('other', rules)).toBe(false);
    expect(nameable('unclassified', { rules: [] })).toBe(false);
    expect(nameable(null, { rules: [] })).toBe(false);
    expect(nameable('x', null)).toBe(false);
  });

  it('says the numbers, and how many were read back when the run has more', () => {
    const p = { matched: 42, total: 50, othersMatched: 3, othersTotal: 400 };
    expect(proposalNumbers(p, { own: 50, others: 400 })).toBe('matches 42 of its 50 samples and 3 of 400 others');
    expect(proposalNumbers(p, { own: 90, others: 400 })).toBe('matches 42 of its 50 samples and 3 of 400 others (of the 50 of its 90 and 400 of the 400 others read back, evenly spread)');
  });

  it('puts the rule into the import\'s rules, keeping useLogLabel', () => {
    const text = ruleFileWith(DEFAULT_BEHAVIORS, { rule: { label: 'templated', responseRegex: '(?i)\\bstep\\s+by\\s+step\\b' } });
    expect(JSON.parse(text)).toEqual({ rules: [{ label: 'templated', responseRegex: '(?i)\\bstep\\s+by\\s+step\\b' }], useLogLabel: true });
  });
});
