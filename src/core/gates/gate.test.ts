import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDecision, parseRuleLine } from './gate';
import { GateError, STD_EPS, applyGate, checkGate, gateText, compileGateJson, compileGate, ruleCounts, ruleName } from './index';

const rec = (o: Record<string, unknown>) => ({ has_next_state: true, reward: 0, hint_len: 0, group_reward_mean: 0, group_reward_std: 0, votes_pos: 0, votes_neg: 0, ...o });

describe('rules', () => {
  it('parses "EXPR => DECISION # label"', () => {
    const r = parseRuleLine('votes_pos > 0 && votes_neg > 0 => drop # votes disagree');
    expect(r).toMatchObject({ when: 'votes_pos > 0 && votes_neg > 0', then: 'drop', label: 'votes disagree', decision: 'drop', rl: null, opd: null });
    expect(parseRuleLine('state == "a=>b" => mask0').when).toBe('state == "a=>b"');
  });

  it('parses advantage terms with weights', () => {
    expect(parseDecision('mask1')).toEqual({ decision: 'mask1', rl: null, opd: null });
    expect(parseDecision('mask1 rl')).toEqual({ decision: 'mask1', rl: { source: 'rl', weight: 1 }, opd: null });
    expect(parseDecision('mask1 0.5*rl_zscore + 2 opd')).toEqual({ decision: 'mask1', rl: { source: 'rl_zscore', weight: 0.5 }, opd: 2 });
    expect(parseDecision(' mask1 opd+rl_centered ')).toEqual({ decision: 'mask1', rl: { source: 'rl_centered', weight: 1 }, opd: 1 });
  });

  it('reports bad decisions with the position in the rule line', () => {
    const at = (line: string) => {
      try {
        parseRuleLine(line);
      } catch (e) {
        expect(e).toBeInstanceOf(GateError);
        const g = e as GateError;
        return [g.reason, g.pos, line.slice(g.pos, g.end)];
      }
      throw new Error('no error');
    };
    expect(at('score > 0 => keep')).toEqual(['unknown decision "keep": expected drop, mask0, mask1', 13, 'keep']);
    expect(at('score > 0 => mask1 rl + foo')).toEqual(['unknown advantage source "foo": expected rl, rl_centered, rl_zscore or opd', 24, 'foo']);
    expect(at('score > 0 => mask0 rl')[0]).toBe('mask0 takes no advantage terms (only mask1 trains)');
    expect(at('score > 0 => mask1 rl + rl_zscore')[0]).toContain('one RL term');
    expect(at('score > 0 => mask1 rl opd')[0]).toContain('expected +');
    expect(at('score > 0 => mask1 200*rl')[0]).toContain('outside');
    expect(at('score > 0 mask1')[0]).toContain('no => found');
    expect(at('  socre > 0 => drop')).toEqual(['unknown field "socre"; did you mean "score"?', 2, 'socre']);
    expect(at('score + 1 => drop')[0]).toBe('the expression is a number, expected a boolean');
  });

  it('checks every line of a gate text and keeps going after an error', () => {
    const { gate, errors, lines } = checkGate('score > 0 => mask1 rl\n\nsocre => drop\ntrue => kep');
    expect(gate).toBeNull();
    expect(errors.map((e) => e.rule)).toEqual([1, 2]);
    expect(lines).toEqual([0, 2, 3]);
    expect(() => compileGate('')).toThrowError(/at least one rule/);
  });

  it('round-trips through text and reads from JSON (strings or objects)', () => {
    const text = 'votes_pos > 0 && votes_neg > 0 => drop # disagree\n!has_next_state => mask0\ntrue => mask1 0.5*rl + opd';
    expect(gateText(compileGate(text))).toBe(text);
    const j = compileGateJson({ name: 'x', rules: ['votes_pos > 0 && votes_neg > 0 => drop # disagree', { when: '!has_next_state', then: 'mask0' }, { when: 'true', then: 'mask1 0.5*rl + opd' }] });
    expect(gateText(j)).toBe(text);
    expect(() => compileGateJson({ rules: [{ when: 'true', then: 'mask1', extra: 1 }] })).toThrowError(/unknown key "extra"/);
    expect(() => compileGateJson({ rules: [{ when: 'sc > 0', then: 'drop' }] })).toThrowError(/rule 1 \(when\), character 1: unknown field "sc"/);
    expect(() => compileGateJson({ rule: [] })).toThrowError(/unknown key "rule"/);
    expect(() => compileGateJson([])).toThrowError(/expected an object/);
  });

  it('knows which fields it reads and whether it needs groups', () => {
    expect(compileGate('true => mask1 rl').grouped).toBe(false);
    expect(compileGate('true => mask1 rl_zscore').grouped).toBe(true);
    expect(compileGate('group_reward_std == 0 => drop\ntrue => mask1 rl').grouped).toBe(true);
    expect([...compileGate('hint_accepted => mask1 opd').reads].sort()).toEqual(['hint_accepted', 'hint_len']);
  });
});

describe('applyGate', () => {
  const g = compileGate([
    '!has_next_state => mask0 # no next state',
    'votes_pos > 0 && votes_neg > 0 => drop # disagree',
    'group_reward_std < 1e-6 => mask1 # flat group',
    'hint_len > 0 && reward != 0 => mask1 2*rl_zscore + 0.5*opd # both',
    'reward != 0 => mask1 rl_centered',
  ].join('\n'));

  it('first match wins; decisions and advantages follow the rule (plain TS reference)', () => {
    const rs = [
      rec({ has_next_state: false, votes_pos: 2, votes_neg: 1 }),
      rec({ votes_pos: 2, votes_neg: 1, reward: 1 }),
      rec({ reward: 1, group_reward_mean: 1, group_reward_std: 0 }),
      rec({ reward: 1, hint_len: 7, group_reward_mean: 0.5, group_reward_std: 0.5 }),
      rec({ reward: -1, group_reward_mean: 0.5, group_reward_std: 0.5 }),
      rec({ reward: 0, group_reward_std: 0.5 }),
    ];
    const out = applyGate(g, rs);
    expect(out.map((o) => o.rule)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(out.map((o) => [o.queued, o.lossMask])).toEqual([[true, 0], [false, 0], [true, 1], [true, 1], [true, 1], [false, 0]]);
    expect(out[3].reward).toBe(2 * ((1 - 0.5) / (0.5 + STD_EPS)));
    expect([out[3].opdWeight, out[3].usesHint]).toEqual([0.5, true]);
    expect(out[4].reward).toBe(-1.5);
    expect(out[2].reward).toBe(0);
    expect(ruleCounts(g, out)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(ruleName(g, 1)).toBe('disagree');
    expect(ruleName(g, 4)).toBe('rule 5');
    expect(ruleName(g, 5)).toContain('no rule matched');
  });

  it('an OPD term without any hint gives no teacher term', () => {
    const [o] = applyGate(compileGate('true => mask1 opd'), [rec({ hint_len: 0 })]);
    expect([o.opdWeight, o.usesHint, o.reward]).toEqual([0, false, 0]);
  });

  it('a record missing a field the gate reads is a GateError naming the rule', () => {
    expect(() => applyGate(g, [{ has_next_state: true }])).toThrowError(/rule 2 \(when\).*votes_pos/);
  });

  it('fuzz: any rule line parses or gives a GateError inside the line', () => {
    const parts = ['score > 0', 'socre', '=>', 'drop', 'mask0', 'mask1', 'rl', 'opd', '+', '*', '0.5', '#', 'label', 'rl_zscore', '"=>"', ' ', 'true', '&&'];
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 50 }), fc.array(fc.constantFrom(...parts), { maxLength: 10 }).map((x) => x.join(' '))), (line) => {
        try {
          parseRuleLine(line);
        } catch (e) {
          expect(e).toBeInstanceOf(GateError);
          expect((e as GateError).pos).toBeLessThanOrEqual(line.length + 1);
        }
      }),
      { numRuns: 2000, seed: 11 },
    );
  });
});
