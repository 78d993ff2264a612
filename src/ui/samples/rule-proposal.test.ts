import { describe, expect, it } from 'vitest';
import { proposalText } from './rule-proposal';

describe('a rule proposal in words', () => {
  it('says both counts with their shares', () => {
    expect(proposalText({ matched: 42, total: 50, othersMatched: 3, othersTotal: 400 })).toBe('matches 42 of its 50 samples (84.0 %) and 3 of 400 others (0.8 %)');
    expect(proposalText({ matched: 50, total: 50, othersMatched: 0, othersTotal: 0 })).toBe('matches 50 of its 50 samples (100 %) and 0 of 0 others (–)');
  });
});
