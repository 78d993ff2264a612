import { describe, expect, it } from 'vitest';
import { checkGate } from '../../core/gates/index';
import { GATE_PRESETS } from './presets';

describe('gate presets', () => {
  it('each parses in the gates language', () => {
    for (const [name, text] of Object.entries(GATE_PRESETS)) expect(checkGate(text).errors.map((e) => `${name}: ${e.message}`)).toEqual([]);
  });
});

describe('built-in starting points', () => {
  it('keep the import panel\'s preset names, and follow the knobs', async () => {
    const { builtinGates } = await import('./presets');
    const { makeConfig } = await import('../../core/config');
    expect(Object.keys(GATE_PRESETS)).toContain('grpo + dynamic sampling (drop zero-variance groups)');
    expect(Object.keys(GATE_PRESETS)).toContain('binary-rl: OpenClaw Binary RL: A = r; unjudged and 0-scored turns stay queued with mask 0; at-least-one');
    const names = builtinGates(makeConfig({ wRl: 0.5 })).map((p) => p.name);
    expect(names).toEqual(['Binary RL', 'OPD', 'Combine', 'GRPO', 'Dr.GRPO', 'GRPO + dynamic sampling', 'Binary RL, whole-session at-least-one']);
    expect(builtinGates(makeConfig({ wRl: 0.5 }))[2].text).toContain('0.5*rl');
    expect(builtinGates(makeConfig({}))[5].text).toContain('=> drop # dynamic sampling');
    const { builtinGateText } = await import('../../core/gates/builtin');
    expect(GATE_PRESETS['grpo + dynamic sampling (drop zero-variance groups)']).toBe(builtinGateText(makeConfig({ method: 'grpo', dynamicSampling: true })));
    expect(GATE_PRESETS[`combine: ${builtinGates(makeConfig({}))[2].doc}`]).toBe(builtinGateText(makeConfig({ method: 'combine' })));
  });
});
