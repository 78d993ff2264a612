import { describe, expect, it } from 'vitest';
import { changeRules } from './timeline';

describe('changeRules', () => {
  const t = [
    { step: 0, patch: { clipHigh: 0.28, lr: 0.001 } },
    { step: 5, patch: { clipHigh: 0.35 } },
    { step: 9, patch: { clipHigh: 0.2, lr: 0.002 } },
  ];
  it('labels each change after the start with the value it replaced', () => {
    expect(changeRules(t)).toEqual([
      { step: 5, label: 'ε_high 0.28 → 0.35' },
      { step: 9, label: 'ε_high 0.35 → 0.2, learning rate 0.001 → 0.002' },
    ]);
  });
  it('says only that a hidden setting changed', () => {
    expect(changeRules(t, ['clipHigh'])[1].label).toBe('ε_high changed, learning rate 0.001 → 0.002');
    expect(changeRules([])).toEqual([]);
  });
});
