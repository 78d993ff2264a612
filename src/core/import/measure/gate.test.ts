// The gate counterfactual on imported samples, against hand-computed funnels; `when` conditions.
import { describe, expect, it } from 'vitest';
import { measureLogs } from '../analyze';
import { BehaviorClassifier, parseBehaviorRuleSet } from '../rules/rules';
import { emptySample } from '../formats/common';
import { memorySource } from '../sources';

const BINARY = ['!has_next_state => mask0 # no next state', 'score == 0 => mask0 # score 0', 'true => mask1 rl # judged'].join('\n');
const GRPO = ['group_reward_std == 0 => drop # zero-variance group', 'true => mask1 rl_zscore'].join('\n');
const jl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('gate counterfactual', () => {
  it('OpenClaw Binary RL rules on records + PRM: the funnel per step', async () => {
    const rec = (turn: number, next: boolean) => ({ session_id: 's', turn, prompt_text: 'p', response_text: 'r', tool_calls: null, next_state: next ? { role: 'user', content: 'ok' } : null, step: 0 });
    const m = await measureLogs(
      [memorySource('r.jsonl', jl([rec(1, true), rec(2, true), rec(3, true), rec(4, false)])), memorySource('r_prm.jsonl', jl([{ session_id: 's', turn: 1, score: 1, votes: [1, 1, 0] }, { session_id: 's', turn: 2, score: 0, votes: [1, -1, 0] }, { session_id: 's', turn: 3, score: -1, votes: [-1, -1, 1] }]))],
      { states: { kind: 'single' }, behaviors: { rules: [], fallback: 'x' }, eps: 0.05, gate: BINARY },
    );
    const s = m.frames[0].scalars;
    // turns 1 and 3 trained with A = ±1; turn 2 (score 0) and 4 (no next state) queued at mask 0
    expect([s['esr/served'], s['esr/queued'], s['esr/masked'], s['esr/dropped']]).toEqual([4, 4, 2, 0]);
    expect(s['esr/effective_rate']).toBe(0.5);
    expect(s['esr/yield']).toBe(0.5);
    expect(m.frames[0].series['gate/rule_counts']).toEqual([1, 1, 2, 0]);
  });

  it('GRPO zero-variance filter on verl groups', async () => {
    const row = (input: string, score: number) => ({ input, output: 'o', score, step: 1 });
    const m = await measureLogs([memorySource('1.jsonl', jl([row('a', 1), row('a', 0), row('b', 1), row('b', 1), row('c', 0), row('c', 0)]))], { states: { kind: 'single' }, behaviors: { rules: [], fallback: 'x' }, eps: 0.05, gate: GRPO });
    const s = m.frames[0].scalars;
    // groups b and c have zero std → dropped; group a: z-scores ±1 → both effective
    expect([s['esr/served'], s['esr/queued'], s['esr/dropped'], s['esr/effective_rate'], s['esr/yield']]).toEqual([6, 2, 4, 1, 2 / 6]);
    expect(s['grad/zero_std_frac']).toBeCloseTo(2 / 3, 12);
  });

  it('a bad gate is refused with the rule and position', async () => {
    await expect(measureLogs([memorySource('1.jsonl', jl([{ input: 'a', output: 'o', score: 1, step: 1 }]))], { states: { kind: 'single' }, behaviors: { rules: [], fallback: 'x' }, eps: 0.05, gate: 'scroe == 0 => drop' })).rejects.toThrow(/rule 1.*character 1/);
  });
});

describe('behavior rules: when', () => {
  it('reads the rule fields in the gates language', () => {
    const b = new BehaviorClassifier(parseBehaviorRuleSet({ rules: [{ label: 'long-win', when: 'response_len > 3 && reward > 0' }, { label: 'tooly', when: '"calc" in tools && n_tools >= 2' }], fallback: 'other' }));
    const s = (p: object) => ({ ...emptySample('f', 1), ...p });
    expect(b.classify(s({ response: 'a b c d', reward: 1 })).behavior).toBe('long-win');
    expect(b.classify(s({ response: 'a b c d', reward: null })).behavior).toBe('other');
    expect(b.classify(s({ toolCalls: ['web', 'calc'] })).behavior).toBe('tooly');
  });
  it('names the rule and position of a bad condition', () => {
    expect(() => parseBehaviorRuleSet({ rules: [{ label: 'x', when: 'respone_len > 3' }], fallback: 'o' })).toThrow(/rules\[0\]\.when, character 1: .*respone_len/);
  });
});
