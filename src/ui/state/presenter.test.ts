import { describe, expect, it } from 'vitest';
import { makeConfig } from '../../core/config';
import { hiddenKeys, redact, shown } from './presenter';

const config = makeConfig({ clipHigh: 0.28, updatesPerRollout: 8, piOldSource: 'rollout' });

describe('presenter', () => {
  it('hides the chosen keys until the checkpoint, and nothing when not presenting', () => {
    const p = { on: true, hide: ['clipHigh' as const], pauseAt: 10 };
    expect(hiddenKeys(p, 9)).toEqual(['clipHigh']);
    expect(hiddenKeys(p, 10)).toEqual([]);
    expect(hiddenKeys({ ...p, pauseAt: null }, 500)).toEqual(['clipHigh']);
    expect(hiddenKeys({ ...p, on: false }, 0)).toEqual([]);
  });

  it('takes hidden values out of text (numbers and enum words), leaves the rest', () => {
    expect(redact('Clip-higher (ε_high 0.28 vs 0.2): all 8 updates', config, ['clipHigh', 'updatesPerRollout'])).toBe('Clip-higher (ε_high ? vs 0.2): all ? updates');
    expect(redact('π_old from the rollout weights', config, ['piOldSource'])).toBe('π_old from the ? weights');
    expect(redact('step 18 of 28.5', config, ['updatesPerRollout'])).toBe('step 18 of 28.5');
    expect(redact('anything 0.28', config, [])).toBe('anything 0.28');
  });

  it('shows a value or a question mark', () => {
    expect(shown(config, 'clipHigh', ['clipHigh'])).toBe('?');
    expect(shown(config, 'clipHigh', [])).toBe('0.28');
  });
});
