import { describe, expect, it } from 'vitest';
import { MetricHistory } from './history';

describe('MetricHistory', () => {
  it('splits frames into sorted per-metric columns', () => {
    const h = new MetricHistory();
    h.append([
      { step: 0, 'support/token_entropy': 2, 'support/behavior_entropy/s0': 1 },
      { step: 2, 'support/token_entropy': 1.9, 'support/behavior_entropy/s1': 0.5 },
      { step: 1, 'support/token_entropy': 1.95 },
      { 'support/token_entropy': 9 },
    ]);
    expect(h.series('support/token_entropy').map((p) => p.step)).toEqual([0, 1, 2]);
    expect(h.latest('support/token_entropy')).toBe(1.9);
    expect(h.states()).toEqual(['s0', 's1']);
    expect(h.frames().length).toBe(3);
    expect(h.series('nope')).toEqual([]);
    h.clear();
    expect(h.keys()).toEqual([]);
  });
});
