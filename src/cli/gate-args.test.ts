// The walk of a gate on the command line: each --gate-rule flag and each rule of the --gate file is
// parsed once (gateSetting), a bad flag's error names that flag, and the config's check and the loop
// take the kept gate without parsing a rule again.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { makeConfig } from '../core/config';
import { gateOf } from '../core/gates/builtin';
import { UsageError } from './args';
import { gateSetting } from './gate-args';

// Every rule line goes through the grammar's parseRule (gates/syntax.ts): count them.
const parsed = vi.hoisted(() => ({ rules: 0 }));
vi.mock('../core/gates/syntax', async (importOriginal) => {
  const m = await importOriginal<typeof import('../core/gates/syntax')>();
  return { ...m, parseRule: (...a: Parameters<typeof m.parseRule>) => (parsed.rules++, m.parseRule(...a)) };
});

const file = (name: string, text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'gate-args-')), name);
  writeFileSync(path, text);
  return path;
};

describe('gateSetting (--gate-rule, --gate FILE)', () => {
  it('parses each rule once: the flags, the file, then neither the config check nor the loop again', () => {
    const gateFile = file('g.txt', '!has_next_state  =>  mask0 # no next state\ntrue => mask1 rl\n');
    const before = parsed.rules;
    const text = gateSetting(['votes_pos > 0 && votes_neg > 0 => drop # votes disagree', 'score < 0 => mask0'], gateFile);
    expect(parsed.rules - before).toBe(4);
    expect(text).toBe('votes_pos > 0 && votes_neg > 0 => drop # votes disagree\nscore < 0 => mask0\n!has_next_state => mask0 # no next state\ntrue => mask1 rl');
    const config = makeConfig({ task: 'assistant', gate: text }); // resolveConfig: the config is checked (checkField('gate'))
    const gate = gateOf(config); // the loop, every serve round
    expect(gate.rules.map((r) => r.label)).toEqual(['votes disagree', '', 'no next state', '']);
    expect(parsed.rules - before).toBe(4);
  });

  it('a bad flag is a bad command line naming the flag and its rule number; no flags and no file: no gate', () => {
    const bad = () => gateSetting(['true => mask1 rl', 'votes_pso > 0 => drop']);
    expect(bad).toThrow(UsageError);
    expect(bad).toThrow(/^--gate-rule "votes_pso > 0 => drop": rule 2, character 1: unknown field "votes_pso".*votes_pos/);
    expect(() => gateSetting(['true => drop\ntrue => mask0'])).toThrow(/a rule is one line/);
    expect(() => gateSetting([], file('bad.json', JSON.stringify({ rules: ['true => mask1 rl', 'score > => drop'] })))).toThrow(/^--gate .*bad\.json: rule 2, character \d+: /);
    expect(gateSetting([])).toBeUndefined();
  });
});
