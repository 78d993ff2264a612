// The `gate` setting in the config table: validated with the gate parser's errors (rule, character,
// reason) named as config.gate, in configs, presets, the URL-query codec and experiment variants.
import { describe, expect, it } from 'vitest';
import { ConfigError, checkField, configFromQuery, configToQuery, makeConfig } from '../config';
import { parseExperimentSpec, variantConfig, differingSettings } from '../experiment/spec';
import { parsePreset } from '../presets';

const GATE = 'votes_pos > 0 && votes_neg > 0 => drop # votes disagree\ntrue => mask1 rl';

describe('config setting gate', () => {
  it('accepts empty (built-in), whitespace and valid rules; rejects bad rules with position and reason', () => {
    expect(checkField('gate', '')).toBeNull();
    expect(checkField('gate', ' \n ')).toBeNull();
    expect(checkField('gate', GATE)).toBeNull();
    expect(checkField('gate', 3)).toMatch(/expected a string/);
    expect(checkField('gate', 'x'.repeat(2001))).toMatch(/over the limit of 2000/);
    expect(checkField('gate', 'true => mask1 rl\nvotes_pos > "a" => drop')).toMatch(/^rule 2, character \d+: /);
    expect(() => makeConfig({ gate: 'scroe > 0 => drop' })).toThrow(ConfigError);
    expect(() => makeConfig({ gate: 'scroe > 0 => drop' })).toThrow(/^config\.gate: rule 1, character 1: unknown field "scroe".*score/);
    expect(() => makeConfig({ gate: 'true => keep' })).toThrow(/^config\.gate: rule 1, character \d+: /);
  });

  it('round-trips through the core query codec', () => {
    const c = makeConfig({ gate: GATE, seed: 4 });
    const q = configToQuery(c);
    expect(q).not.toMatch(/%20/);
    expect(configFromQuery(q)).toEqual({ config: c, errors: [] });
  });

  it('presets and experiment variants carry a gate; a bad one is named by its path', () => {
    expect(parsePreset('p', { title: 'T', explanation: 'x'.repeat(40), config: { gate: GATE } }).resolved.gate).toBe(GATE);
    expect(() => parsePreset('p', { title: 'T', explanation: 'x'.repeat(40), config: { gate: 'true =>' } })).toThrow(/preset p: config\.gate: rule 1/);
    const spec = parseExperimentSpec({ version: 1, name: 'gates', base: { method: 'binary-rl' }, variants: [{ name: 'built-in', patch: {} }, { name: 'votes disagree', patch: { gate: GATE } }], seeds: [1, 2], steps: 3 });
    expect(variantConfig(spec, 1, 2).gate).toBe(GATE);
    expect(variantConfig(spec, 0, 2).gate).toBe('');
    expect(differingSettings(spec)).toContain('gate');
    expect(() => parseExperimentSpec({ version: 1, name: 'g', base: {}, variants: [{ name: 'a', patch: { gate: 'votes_pso > 0 => drop' } }], seeds: [1], steps: 1 })).toThrow(/variants\[0\]\.patch\.gate: rule 1, character 1: unknown field/);
  });
});
