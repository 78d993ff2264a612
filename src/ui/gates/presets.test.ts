import { describe, expect, it } from 'vitest';
import { checkGateText } from '../../core/gates/index';
import { GATE_PRESETS } from './presets';

describe('gate presets', () => {
  it('each parses in the gates language', () => {
    for (const [name, text] of Object.entries(GATE_PRESETS)) expect(checkGateText(text).errors.map((e) => `${name}: ${e.message}`)).toEqual([]);
  });
});
