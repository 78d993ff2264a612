import { describe, expect, it } from 'vitest';
import { ConfigError, MAX_UNKNOWN_REPORTS, applyPatch, checkField, encodeQueryValue, configErrors, configFromJson, configFromQuery, configFromQueryStrict, configToJson, configToQuery, defaultConfig, makeConfig, parseField } from './index';
import { parsePreset } from '../presets';

describe('config', () => {
  it('defaults are the documented ones', () => {
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

// Issue 10 §1: hostile or careless input (URL, JSON, presets, --set) always ends in a clear error
// or a valid config.
describe('config input hardening', () => {
  const valid = (c: Record<string, unknown>) => expect(configErrors(c)).toEqual([]);

  it('lenient URL decoding always ends in a valid config (?dModel=30)', () => {
    for (const q of ['?dModel=30', '?dModel=30&heads=7', '?heads=3', '?task=strategies&focusState=3', '?dModel=6&heads=4&dualClip=0.5']) {
      const { config, errors } = configFromQuery(q);
      valid(config);
      expect(errors.length, q).toBeGreaterThan(0);
    }
    const { config, errors } = configFromQuery('?dModel=30');
    expect(config.dModel).toBe(64);
    expect(errors.map((e) => e.field)).toEqual(['dModel']);
    expect(configFromQuery('?dModel=32&heads=8').config).toMatchObject({ dModel: 32, heads: 8 });
  });

  it('Object.prototype names are unknown settings everywhere', () => {
    for (const k of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(checkField(k, 1), k).toBe('unknown setting');
      expect(() => parseField(k, '1'), k).toThrow(new RegExp(`config\\.${k}: unknown setting`));
      expect(configFromQuery(`?${k}=1`).errors, k).toEqual([{ field: k, message: 'unknown setting' }]);
    }
    expect(() => configFromJson('{"constructor":1}')).toThrow(/config\.constructor: unknown setting/);
    expect(() => configFromJson('{"__proto__":{"lr":5}}')).toThrow(/config\.__proto__: unknown setting/);
    expect(() => parsePreset('x', { title: 't', explanation: 'x'.repeat(50), config: { toString: 1 } })).toThrow(/config\.toString: unknown setting/);
  });

  it('a value without a usable toString is described, not a crash', () => {
    expect(() => configFromJson({ steps: { toString: 1 } })).toThrow(/config\.steps: expected a number, got object \{"toString":1\}/);
    expect(() => configFromJson({ task: Object.create(null) })).toThrow(/config\.task: expected one of/);
    expect(() => configFromJson({ v: { toString: 1 } })).toThrow(/config\.v: unsupported config version/);
  });

  it('number text is plain decimal and quoted when bad', () => {
    expect(() => parseField('lr', 'abc')).toThrow('config.lr: expected a decimal number, got "abc"');
    expect(() => parseField('seed', '0x10')).toThrow(/got "0x10"/);
    for (const t of ['Infinity', '1e', ' ', '0b1', '1_000']) expect(() => parseField('lr', t), t).toThrow(/decimal/);
    expect(parseField('lr', '3e-4')).toBe(3e-4);
    expect(parseField('seed', '+7')).toBe(7);
    expect(parseField('clipHigh', '.3')).toBe(0.3);
  });

  it('duplicate keys: one report per key, naming the values, the last one used', () => {
    const { config, errors } = configFromQuery('?foo=1&foo=1&lr=0.1&lr=0.2&seed=3&seed=3');
    expect(errors.map((e) => e.field)).toEqual(['foo', 'lr']);
    expect(errors[1].message).toContain('"0.1", "0.2"');
    expect(config.lr).toBe(0.2);
    expect(config.seed).toBe(3);
    const bad = configFromQuery('?lr=0.1&lr=abc');
    expect(bad.errors).toEqual([{ field: 'lr', message: 'expected a decimal number, got "abc"' }]);
    expect(bad.config.lr).toBe(defaultConfig().lr);
  });

  it('caps unknown-key reports and the query size', () => {
    const many = Array.from({ length: 2000 }, (_, i) => `k${i}=1`).join('&');
    const r = configFromQuery(`?seed=5&${many}`);
    expect(r.errors.length).toBeLessThanOrEqual(MAX_UNKNOWN_REPORTS + 2);
    expect(r.errors.at(-1)!.message).toMatch(/more unknown settings/);
    expect(r.config.seed).toBe(5);
    const long = configFromQuery(`?seed=5&lr=0.01&x=${'a'.repeat(10_000)}`);
    expect(long.errors).toEqual([expect.objectContaining({ field: '(url)' })]);
    expect(long.config).toMatchObject({ seed: 5, lr: 0.01 });
  });
});

// Issue 16 §2: a lone surrogate in free text (a gate rule's label) made the URL encoder throw, and
// after Apply the URL stopped following the settings.
describe('unpaired surrogates', () => {
  const rule = 'true => drop # \ud800';
  it('a text setting refuses them with a message naming the character', () => {
    expect(checkField('gate', rule)).toMatch(/^character 16 is half of a character pair \(an unpaired surrogate, U\+D800\)/);
    expect(checkField('gate', 'true => drop # \udc00 x')).toMatch(/character 16 .*U\+DC00/);
    expect(() => makeConfig({ gate: rule })).toThrow(/config\.gate: character 16/);
    expect(() => parseField('gate', rule)).toThrow(/config\.gate/);
    expect(checkField('gate', 'true => drop # 😀 ok')).toBeNull(); // a proper pair is one character
  });
  it('the query encoder never throws: an unpaired surrogate is written as U+FFFD', () => {
    expect(() => encodeURIComponent('\ud800')).toThrow(URIError); // what the page's encoder did
    expect(encodeQueryValue('# \ud800')).toBe('%23+%EF%BF%BD');
    const unchecked = { ...defaultConfig(), gate: rule }; // a config that skipped validation
    expect(configToQuery(unchecked)).toBe('v=1&gate=true+%3D%3E+drop+%23+%EF%BF%BD');
  });
});
