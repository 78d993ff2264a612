// User regexes of import rules run on the injected linear-time engine (re2js via src/io/re2.ts):
// the pattern that hung the import on RegExp answers, a pattern the engine cannot run is refused
// naming the rule, and without an engine a regex rule is refused by name. No wall-time assertions.
import { describe, expect, it } from 'vitest';
import { re2Engine } from '../../../io/re2';
import { emptySample } from '../formats/common';
import { BehaviorClassifier, StateClassifier, parseBehaviorRuleSet } from './rules';

const sample = (prompt: string, response = '') => ({ ...emptySample('f', 1), prompt, response });

describe('import rule regexes', () => {
  it('(a+)+$ on 41 characters (catastrophic on a backtracking engine) matches as defined', () => {
    const s = new StateClassifier({ kind: 'regex', pattern: '(a+)+$' }, re2Engine);
    expect(s.classify(sample('a'.repeat(41) + '!'))).toBe('unknown');
    expect(s.classify(sample('b' + 'a'.repeat(41)))).toBe('a'.repeat(41));
    const b = new BehaviorClassifier(parseBehaviorRuleSet({ rules: [{ label: 'nested', responseRegex: '^(a|aa)+$' }], fallback: 'other' }), re2Engine);
    expect(b.classify(sample('', 'a'.repeat(5000) + 'b')).behavior).toBe('other');
    expect(b.classify(sample('', 'a'.repeat(5000))).behavior).toBe('nested');
  });

  it('flags and named groups as in JavaScript', () => {
    expect(new StateClassifier({ kind: 'regex', pattern: 'task: (?<state>\\w+)', flags: 'i' }, re2Engine).classify(sample('TASK: Math'))).toBe('Math');
  });

  it('a pattern the engine cannot run, or no engine, is refused naming the rule', () => {
    const spec = parseBehaviorRuleSet({ rules: [{ label: 'echo', responseRegex: '(a)\\1' }], fallback: 'other' });
    expect(() => new BehaviorClassifier(spec, re2Engine)).toThrow(/^behaviors\.rules\[0\]\.responseRegex \(echo\): re2js refuses the regex "\(a\)\\\\1" .*backreferences/);
    expect(() => new StateClassifier({ kind: 'regex', pattern: 'x(?=y)' }, re2Engine)).toThrow(/^states\.pattern: re2js refuses/);
    expect(() => new StateClassifier({ kind: 'regex', pattern: 'x' })).toThrow(/^states\.pattern: regex rules need a linear-time regex engine/);
  });
});
