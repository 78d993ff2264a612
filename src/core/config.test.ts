import { describe, expect, it } from 'vitest';
import { ConfigError, applyPatch, configFromJson, configFromQuery, configFromQueryStrict, configToJson, configToQuery, defaultConfig, makeConfig, parseField } from './config';

describe('config', () => {
  it('defaults follow DESIGN.md', () => {
    const c = defaultConfig();
    expect([c.rolloutBatch, c.clipLow, c.clipHigh, c.beta1, c.beta2, c.weightDecay, c.temperature, c.judgeVotes]).toEqual([16, 0.2, 0.28, 0.9, 0.98, 0.1, 0.6, 3]);
    expect([c.entropyCoef, c.klCoef, c.gamma, c.wOpd, c.wRl]).toEqual([0, 0, 1, 1, 1]);
  });

  it('rejects unknown keys, NaN, out of range and wrong types naming the field', () => {
    expect(() => makeConfig({ bogus: 1 })).toThrow(/config\.bogus: unknown/);
    expect(() => makeConfig({ lr: NaN })).toThrow(/config\.lr: expected a finite/);
    expect(() => makeConfig({ clipLow: 2 })).toThrow(/config\.clipLow: 2 is outside/);
    expect(() => makeConfig({ steps: 1.5 })).toThrow(/config\.steps: expected an integer/);
    expect(() => makeConfig({ atLeastOne: 'yes' })).toThrow(/config\.atLeastOne: expected a boolean/);
    expect(() => makeConfig({ method: 'ppo' })).toThrow(/config\.method: expected one of/);
    expect(() => makeConfig({ seed: '3' })).toThrow(/config\.seed: expected a number/);
    expect(() => makeConfig({ dualClip: 0.5 })).toThrow(/config\.dualClip/);
    expect(() => applyPatch(defaultConfig(), { heads: 3 })).toThrow(ConfigError);
  });

  it('JSON round trip', () => {
    const c = makeConfig({ task: 'assistant', method: 'combine', clipHigh: 0.2, atLeastOne: false, lr: 3e-4 });
    expect(configFromJson(configToJson(c))).toEqual(c);
    expect(() => configFromJson('{"v":2}')).toThrow(/config\.v/);
  });

  it('URL round trip writes only non-defaults', () => {
    const c = makeConfig({ task: 'toolchain', staleness: 2, retry503: true, judgeNoise: 0.125 });
    const q = configToQuery(c);
    expect(q).toBe('v=1&task=toolchain&judgeNoise=0.125&staleness=2&retry503=1');
    expect(configFromQueryStrict(q)).toEqual(c);
    expect(configToQuery(defaultConfig())).toBe('v=1');
  });

  it('URL decode reports bad fields and keeps the good ones', () => {
    const { config, errors } = configFromQuery('?v=1&task=assistant&lr=abc&clipHigh=9&foo=1&seed=7&dualClip=0.5');
    expect(config.task).toBe('assistant');
    expect(config.seed).toBe(7);
    expect(config.lr).toBe(defaultConfig().lr);
    expect(config.clipHigh).toBe(0.28);
    expect(config.dualClip).toBe(0);
    expect(errors.map((e) => e.field).sort()).toEqual(['clipHigh', 'dualClip', 'foo', 'lr']);
  });

  it('parses CLI text values', () => {
    expect(parseField('atLeastOne', 'false')).toBe(false);
    expect(parseField('clipHigh', '0.2')).toBe(0.2);
    expect(() => parseField('steps', '')).toThrow(/config\.steps/);
  });
});
