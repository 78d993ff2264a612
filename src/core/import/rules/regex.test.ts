// User regexes of import rules: a pattern RE2 can run answers at once even where backtracking would
// blow up; lookarounds, backreferences and Python's syntax are accepted and run on JavaScript's
// engine under the per-file budget, which stops the import naming the rule, the file and the line;
// without an engine a regex rule is refused by name. No wall-time assertions (the budget is a
// deadline the guard enforces; the test only reads what it says).
import { describe, expect, it } from 'vitest';
import { nodeRegexEngine } from '../../../io/regex/node';
import { emptySample } from '../formats/common';
import { measureLogs } from '../analyze';
import { memorySource } from '../sources';
import { BehaviorClassifier, StateClassifier, parseBehaviorRuleSet, parseStatesSpec } from './rules';

const sample = (prompt: string, response = '') => ({ ...emptySample('f', 1), prompt, response });

describe('import rule regexes', () => {
  it('(a+)+$ on 41 characters (catastrophic on a backtracking engine) matches as defined on RE2', () => {
    const s = new StateClassifier({ kind: 'regex', pattern: '(a+)+$' }, nodeRegexEngine());
    expect(s.classify(sample('a'.repeat(41) + '!'))).toBe('unknown');
    expect(s.classify(sample('b' + 'a'.repeat(41)))).toBe('a'.repeat(41));
    const b = new BehaviorClassifier(parseBehaviorRuleSet({ rules: [{ label: 'nested', responseRegex: '^(?:a|aa)+$' }], fallback: 'other' }), nodeRegexEngine());
    expect(b.classify(sample('', 'a'.repeat(5000) + 'b')).behavior).toBe('other');
    expect(b.classify(sample('', 'a'.repeat(5000))).behavior).toBe('nested');
  });

  it('flags and named groups as in JavaScript, Python named groups and (?i) too', () => {
    expect(new StateClassifier({ kind: 'regex', pattern: 'task: (?<state>\\w+)', flags: 'i' }, nodeRegexEngine()).classify(sample('TASK: Math'))).toBe('Math');
    expect(new StateClassifier(parseStatesSpec({ kind: 'regex', pattern: '(?i)task: (?P<state>\\w+)' }), nodeRegexEngine()).classify(sample('TASK: Code'))).toBe('Code');
    const b = new BehaviorClassifier(parseBehaviorRuleSet({ rules: [{ label: 'loud', responseRegex: '(?i)^final answer' }], fallback: 'other' }), nodeRegexEngine());
    expect(b.classify(sample('', 'FINAL ANSWER: 4')).behavior).toBe('loud');
  });

  it("TRL's think_format_reward pattern and a backreference run on the backtracking engine", () => {
    const spec = parseBehaviorRuleSet({
      rules: [
        { label: 'think', responseRegex: '^<think>(?!.*<think>)(.*?)</think>.*$' },
        { label: 'echo', responseRegex: '\\b(\\w+) \\1\\b' },
        { label: 'last-para-yes', responseRegex: '(?:^|\\n\\n)(?![\\s\\S]*\\n\\n)Yes' },
      ],
      fallback: 'other',
    });
    const b = new BehaviorClassifier(spec, nodeRegexEngine());
    expect(b.classify(sample('', '<think>plan</think>answer')).behavior).toBe('think');
    expect(b.classify(sample('', '<think>a<think>b</think>c')).behavior).not.toBe('think');
    expect(b.classify(sample('', 'so so it goes')).behavior).toBe('echo');
    expect(b.classify(sample('', 'Maybe.\n\nYes, it is.')).behavior).toBe('last-para-yes');
    expect(b.classify(sample('', 'Yes.\n\nNo.')).behavior).toBe('other');
  });

  it('a pattern that is not valid JavaScript, or no engine, is refused naming the rule', () => {
    expect(() => parseBehaviorRuleSet({ rules: [{ label: 'bad', responseRegex: '(?<=a' }], fallback: 'other' })).toThrow(/^behaviors\.rules\[0\]\.responseRegex: invalid regex/);
    expect(() => parseStatesSpec({ kind: 'regex', pattern: '\\Astate' })).toThrow(/letter A in JavaScript/);
    expect(() => new StateClassifier({ kind: 'regex', pattern: 'x' })).toThrow(/^states\.pattern: regex rules need a regex engine/);
  });

  it('a pattern that backtracks past the budget stops the import, naming the rule, the file and the line', async () => {
    const lines = ['ok', 'fine', `${'a'.repeat(40)}!`].map((r, i) => JSON.stringify({ step: 1, state: 's', prompt: 'p', response: r, reward: i ? 1 : 0 }));
    const spec = { states: { kind: 'field' as const, field: 'state' }, behaviors: { rules: [{ label: 'slow', responseRegex: '^(?=a)(a+)+$' }], fallback: 'other' }, eps: 0.05 };
    await expect(measureLogs([memorySource('run/1.jsonl', lines.join('\n'))], spec, { regex: nodeRegexEngine(200) })).rejects.toThrow(
      /^behaviors\.rules\[0\]\.responseRegex \(slow\): the regex ran past its budget \(0\.2 s of backtracking per file\) on run\/1\.jsonl line 3, so the import stopped/,
    );
  }, 60_000);
});
