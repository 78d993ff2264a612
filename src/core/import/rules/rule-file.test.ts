// A proposed rule written into a --behaviors rule file (rule-file.ts): added after the rules there,
// or in place of the rules of its label; the rest kept; the result accepted by the import's parser.
import { describe, expect, it } from 'vitest';
import { parseBehaviorRuleSet } from './rules';
import { withBehaviorRule } from './rule-file';

const RULE = { label: 'template', responseRegex: '(?i)\\bstep\\s+by\\s+step\\s*:' };

describe('withBehaviorRule', () => {
  it('makes a new file whose other behaviors are discovered (no fallback), accepted by the parser', () => {
    for (const text of [null, '', '  \n']) {
      const r = withBehaviorRule(text, RULE);
      expect(JSON.parse(r.text)).toEqual({ rules: [RULE] });
      expect(parseBehaviorRuleSet(JSON.parse(r.text))).toEqual({ rules: [RULE] });
      expect(r.replaced).toBe(0);
      expect(r.text.endsWith('}\n')).toBe(true);
    }
  });

  it('adds the rule after the rules already there and keeps fallback and useLogLabel', () => {
    const before = { rules: [{ label: 'search', toolsInclude: ['search'] }], fallback: 'other', useLogLabel: true };
    const r = withBehaviorRule(`\uFEFF${JSON.stringify(before)}`, RULE);
    expect(JSON.parse(r.text)).toEqual({ ...before, rules: [...before.rules, RULE] });
  });

  it('replaces the rules of the same label where the first stood, the others in their order', () => {
    const before = { rules: [{ label: 'a', minTokens: 3 }, { label: 'template', maxTokens: 9 }, { label: 'b', firstAction: 'x' }, { label: 'template', toolSeq: ['t'] }] };
    const r = withBehaviorRule(JSON.stringify(before), RULE);
    expect(JSON.parse(r.text).rules).toEqual([{ label: 'a', minTokens: 3 }, RULE, { label: 'b', firstAction: 'x' }]);
    expect(r.replaced).toBe(2);
  });

  it('refuses a file that is not JSON or not a rule set, and a bad rule, by name', () => {
    expect(() => withBehaviorRule('{"rules": [', RULE)).toThrow(/the rule file is not JSON/);
    expect(() => withBehaviorRule('{"rules": [{"label": "x"}]}', RULE)).toThrow(/behaviors.rules\[0\]: a rule needs at least one condition/);
    expect(() => withBehaviorRule(null, { label: 'x', responseRegex: '(' })).toThrow(/responseRegex: invalid regex/);
  });
});
