// Rules and per-step measures against hand-computed references on fixed batches.
import { describe, expect, it } from 'vitest';
import { OPEN_STEPS, measureLogs } from '../analyze';
import { ImportMeasure } from './measure';
import { BehaviorClassifier, StateClassifier, parseBehaviorRuleSet, parseStatesSpec } from '../rules/rules';
import { memorySource } from '../sources';
import { emptySample } from '../formats/common';
import type { ImportedSample } from '../types';
import { nodeRegexEngine } from '../../../io/regex/node';

const sample = (p: Partial<ImportedSample>): ImportedSample => ({ ...emptySample('f', 1), ...p });

describe('rules', () => {
  it('states: field, regex capture, template id, single', () => {
    const s = sample({ prompt: 'Task: math. Solve 12 + 7', fields: { env: 'calc' }, state: 'given' });
    expect(new StateClassifier({ kind: 'field', field: 'env' }).classify(s)).toBe('calc');
    expect(new StateClassifier({ kind: 'field', field: 'state' }).classify(s)).toBe('given');
    expect(new StateClassifier({ kind: 'field', field: 'nope', missing: '?' }).classify(s)).toBe('?');
    expect(new StateClassifier({ kind: 'regex', pattern: 'Task: (\\w+)' }, nodeRegexEngine()).classify(s)).toBe('math');
    expect(new StateClassifier({ kind: 'regex', pattern: 'Task: (?<state>\\w+)' }, nodeRegexEngine()).classify(sample({ prompt: 'x' }))).toBe('unknown');
    const t = new StateClassifier({ kind: 'template' });
    expect(t.classify(s)).toBe(t.classify(sample({ prompt: 'Task: math. Solve 3 + 99' })));
    expect(t.classify(s)).not.toBe(t.classify(sample({ prompt: 'Write a poem' })));
    expect(new StateClassifier({ kind: 'single' }).classify(s)).toBe('all');
  });

  it('state names are safe in metric keys and capped', () => {
    const c = new StateClassifier({ kind: 'field', field: 'k' });
    expect(c.classify(sample({ fields: { k: 'a/b c' } }))).toBe('a_b_c');
    for (let i = 0; i < 30; i++) c.classify(sample({ fields: { k: `s${i}` } }));
    expect(c.classify(sample({ fields: { k: 's29' } }))).toBe('other');
  });

  it('behaviors: first matching rule in order, each condition, fallback', () => {
    const b = new BehaviorClassifier(
      parseBehaviorRuleSet({
        rules: [
          { label: 'search-then-answer', toolSeq: ['search', 'answer'] },
          { label: 'uses-calc', toolsInclude: ['calc'] },
          { label: 'short', maxTokens: 2 },
          { label: 'verify', responseRegex: '\\bcheck\\b', minTokens: 3 },
          { label: 'plan', firstAction: 'Plan' },
        ],
        fallback: 'other',
      }),
      nodeRegexEngine(),
    );
    const c = (p: Partial<ImportedSample>) => b.classify(sample(p));
    expect(c({ toolCalls: ['search', 'answer'], response: 'ok' })).toEqual({ behavior: 'search-then-answer', rule: 0 });
    expect(c({ toolCalls: ['search', 'calc', 'answer'] }).behavior).toBe('uses-calc');
    expect(c({ response: 'yes.' }).behavior).toBe('short');
    expect(c({ response: 'let me check it' }).behavior).toBe('verify');
    expect(c({ response: 'Plan: do it now' }).behavior).toBe('plan');
    expect(c({ response: 'something else entirely' })).toEqual({ behavior: 'other', rule: null });
    expect(b.labels()).toEqual(['search-then-answer', 'uses-calc', 'short', 'verify', 'plan', 'other']);
  });

  it('specs are validated with a message per bad field', () => {
    expect(() => parseStatesSpec({ kind: 'regex', pattern: '(' })).toThrow(/states.pattern: invalid regex/);
    expect(() => parseStatesSpec({ kind: 'nope' })).toThrow(/states.kind/);
    expect(() => parseBehaviorRuleSet({ rules: [{ label: '', responseRegex: '[' }, { label: 'x' }, { label: 'y', lenght: 3 }], fallback: '' })).toThrow(
      /behaviors.fallback.*rules\[0\].label.*rules\[0\].responseRegex: invalid regex.*rules\[1\]: a rule needs at least one condition.*rules\[2\].lenght: unknown condition/,
    );
  });
});

describe('measures', () => {
  it('match a plain reference on a fixed batch', async () => {
    // step 1: state a: behaviors x,x,y (group g1 rewards 1,0,1); state b: x (group g2 reward 1, alone)
    // step 2: state a: y,y (group g3 rewards 0,0 → zero variance), log-probs given
    const rows = [
      { step: 1, group_id: 'g1', state: 'a', prompt: 'p', response: 'go x', reward: 1 },
      { step: 1, group_id: 'g1', state: 'a', prompt: 'p', response: 'go x', reward: 0 },
      { step: 1, group_id: 'g1', state: 'a', prompt: 'p', response: 'go y', reward: 1 },
      { step: 1, group_id: 'g2', state: 'b', prompt: 'q', response: 'x', reward: 1 },
      { step: 2, group_id: 'g3', state: 'a', prompt: 'p', response: 'y', reward: 0, tokens: ['y'], rollout_logprobs: [-0.5] },
      { step: 2, group_id: 'g3', state: 'a', prompt: 'p', response: 'zz', reward: 0, tokens: ['zz'], rollout_logprobs: [-1.5] },
    ];
    const src = memorySource('m.jsonl', rows.map((r) => JSON.stringify(r)).join('\n'));
    const m = await measureLogs([src], { states: { kind: 'field', field: 'state' }, behaviors: { rules: [{ label: 'x', responseRegex: 'x$' }, { label: 'y', responseRegex: 'y$' }], fallback: 'invalid' }, eps: 0.1 }, { regex: nodeRegexEngine() });
    expect(m.behaviors).toEqual(['x', 'y']);
    expect(m.states).toEqual(['a', 'b']);
    expect(m.unclassified).toBe(1);
    expect(m.tokenEntropy).toBe('mixed');
    const [f1, f2] = m.frames;
    const s1 = f1.scalars;
    expect(s1['support/behavior_dist/a/x']).toBeCloseTo(2 / 3, 12);
    expect(s1['support/behavior_dist_se/a/x']).toBeCloseTo(Math.sqrt((2 / 3) * (1 / 3) / 3), 12);
    expect(s1['support/behavior_entropy/a']).toBeCloseTo(-(2 / 3) * Math.log(2 / 3) - (1 / 3) * Math.log(1 / 3), 12);
    expect(s1['support/behavior_support/a']).toBe(2);
    expect(s1['support/behavior_support/b']).toBe(1);
    expect(s1['reward/mean']).toBeCloseTo(0.75, 12);
    expect(s1['reward/var']).toBeCloseTo(0.1875, 12);
    // groups: g1 var of (1,0,1) = 2/9; g2 has one sample (no within-group variance): left out
    expect(s1['grad/reward_var']).toBeCloseTo(2 / 9, 12);
    expect(s1['grad/zero_std_frac']).toBe(0);
    expect(s1['support/token_entropy']).toBeUndefined();
    // the counts behind the distribution, per state; a rule's behavior no sample had is listed with 0
    expect([s1['import/state_samples/a'], s1['import/state_samples/b']]).toEqual([3, 1]);
    expect([s1['support/behavior_count/a/x'], s1['support/behavior_count/a/y'], s1['support/behavior_count/b/x'], s1['support/behavior_count/b/y']]).toEqual([2, 1, 1, 0]);
    // tokens: [go x] [go x] [go y] [x] → after start: go,go,go,x → H = H(3/4,1/4) over 4; after go: x,x,y → H(2/3,1/3) over 3
    const h = (ps: number[]) => -ps.reduce((a, p) => a + p * Math.log(p), 0);
    expect(s1['support/token_entropy_empirical']).toBeCloseTo((4 * h([3 / 4, 1 / 4]) + 3 * h([2 / 3, 1 / 3])) / 7, 12);
    // per state: a: after start go,go,go (H 0, 3 times); after go x,x,y → (3·H(2/3,1/3))/6; b: one token, H 0
    expect(s1['support/token_entropy_empirical/a']).toBeCloseTo((3 * h([2 / 3, 1 / 3])) / 6, 12);
    expect(s1['support/token_entropy_empirical/b']).toBe(0);
    expect(s1['support/distinct_1']).toBeCloseTo(3 / 7, 12);
    expect(s1['support/distinct_2']).toBeCloseTo(2 / 3, 12);
    const s2 = f2.scalars;
    expect(s2['support/behavior_dist/a/y']).toBe(0.5);
    expect(s2['support/behavior_dist/a/invalid']).toBe(0.5);
    expect(s2['support/behavior_entropy/a']).toBeCloseTo(0.5 * Math.log(2), 12); // −Σ p ln p over valid behaviors, unnormalized, as the lab
    expect(s2['support/token_entropy']).toBeCloseTo(1, 12);
    expect(s2['support/token_entropy/a']).toBeCloseTo(1, 12);
    expect(s2['grad/zero_std_frac']).toBe(1);
    expect(s2['import/unclassified']).toBe(1);
  });
});

describe('bounded memory', () => {
  // steps 1..12, a few states, groups, log-probs on some, tokens from a small vocabulary
  const rowsOf = (steps: number[]) =>
    steps.flatMap((step) =>
      Array.from({ length: 9 }, (_, i) => ({
        step,
        group_id: `g${i % 3}`,
        state: ['a', 'b', 'c'][(i + step) % 3],
        prompt: 'p',
        response: ['go x', 'y', 'go go y', 'x z'][(i * step) % 4],
        reward: (i * 7 + step) % 3 === 0 ? 1 : 0,
        ...(i % 2 ? { tokens: ['t', String(i % 3)], rollout_logprobs: [-0.1 * i, -0.2] } : {}),
      })),
    );
  const spec = { states: { kind: 'field' as const, field: 'state' }, behaviors: { rules: [{ label: 'x', responseRegex: 'x$' }, { label: 'y', responseRegex: 'y$' }, { label: 'never', responseRegex: '^never$' }], fallback: 'invalid' as const }, eps: 0.1, gate: 'group_reward_std == 0 => drop\ntrue => mask1 rl_zscore' };
  const src = (rows: unknown[]) => memorySource('m.jsonl', rows.map((r) => JSON.stringify(r)).join('\n'));

  it('a log in step order holds at most two steps and measures exactly what holding every step measures', async () => {
    const steps = Array.from({ length: 12 }, (_, i) => i + 1);
    const rows = rowsOf(steps);
    const held: number[] = [];
    const m = new ImportMeasure(new StateClassifier(parseStatesSpec(spec.states)), new BehaviorClassifier(parseBehaviorRuleSet(spec.behaviors), nodeRegexEngine()), spec.eps, null, OPEN_STEPS);
    const all = new ImportMeasure(new StateClassifier(parseStatesSpec(spec.states)), new BehaviorClassifier(parseBehaviorRuleSet(spec.behaviors), nodeRegexEngine()), spec.eps, null);
    const r = await measureLogs([src(rows)], spec, { regex: nodeRegexEngine() });
    for (const row of rows) {
      const s = { ...emptySample('m.jsonl', 1), step: row.step, group: `${row.step}:${row.group_id}`, state: row.state, prompt: row.prompt, response: row.response, reward: row.reward, tokens: row.tokens ?? null, logprobs: row.rollout_logprobs ?? null };
      m.add(s);
      all.add(s);
      held.push(m.openStepCount);
    }
    expect(Math.max(...held)).toBe(OPEN_STEPS);
    expect(all.openStepCount).toBe(12);
    expect(m.frames()).toEqual(all.frames());
    expect(r.stepOrder).toBe('ordered');
    expect(r.frames.map((f) => f.step)).toEqual(steps);
    expect(r.frames[0].scalars['support/behavior_count/a/never']).toBe(0);
  });

  it('a log whose steps come back is read again holding every step: the same frames, each sample delivered once', async () => {
    const ordered = rowsOf([1, 2, 3, 4]);
    const shuffled = [...rowsOf([1, 2, 3]), ...rowsOf([4])];
    // step 1 again after steps 2–4: move two step-1 rows to the end
    const back = [...shuffled.filter((_, i) => i !== 0 && i !== 1), shuffled[0], shuffled[1]];
    const seen: number[] = [];
    const want = await measureLogs([src(ordered)], spec, { regex: nodeRegexEngine() });
    const got = await measureLogs([src(back)], spec, { regex: nodeRegexEngine() }, (s) => seen.push(s.step));
    expect(got.stepOrder).toBe('unordered');
    expect(seen.length).toBe(back.length);
    expect(seen).toEqual(back.map((r) => r.step));
    // behavior and reward measures do not depend on the order within a step; the gate and the token tables do not either here
    for (const [i, f] of got.frames.entries()) for (const k of ['support/behavior_dist/a/x', 'import/samples', 'grad/reward_var', 'support/behavior_count/b/y'] as const) expect(f.scalars[k], `${f.step} ${k}`).toBeCloseTo(want.frames[i].scalars[k] ?? NaN, 12);
  });
});
