// Which number is the judge's score: a named field or a sum of named fields replaces the format's
// own reward, a threshold turns a scalar into a vote, a field in no sample is refused with the
// fields there are, and the fit says which reward it read; with 0/1 rewards "good" is not every
// behavior that ever succeeded.
import { describe, expect, it } from 'vitest';
import { fitTask } from '../../tasks/fit';
import { measureLogs } from '../analyze';
import { memorySource } from '../sources';
import { describeReward, parseRewardChoice } from './reward';

const jsonl = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const SPEC = { states: { kind: 'field' as const, field: 'state' }, behaviors: { rules: [], fallback: 'other', useLogLabel: true }, eps: 0.05 };
const counts = (frames: { scalars: Record<string, number | undefined> }[], s: string, b: string) =>
  (['pos', 'zero', 'neg'] as const).map((x) => frames.reduce((a, f) => a + (f.scalars[`import/reward_count/${s}/${b}/${x}`] ?? 0), 0));

describe('the reward a user names', () => {
  it('parses one field, a sum, and a threshold; refuses what is not one', () => {
    expect(parseRewardChoice('acc')).toEqual({ columns: ['acc'] });
    expect(parseRewardChoice('accuracy_reward + think_format_reward', '0.5')).toEqual({ columns: ['accuracy_reward', 'think_format_reward'], threshold: { pos: 0.5, neg: 0.5 } });
    expect(parseRewardChoice('', '0.7,0.3')).toEqual({ columns: [], threshold: { pos: 0.7, neg: 0.3 } });
    expect(() => parseRewardChoice('a++b')).toThrow(/field name or names joined by "\+"/);
    expect(() => parseRewardChoice('acc', 'x')).toThrow(/τ or τ,τ'/);
    expect(() => parseRewardChoice('acc', '0.2,0.5')).toThrow(/must not be above/);
    expect(describeReward({ columns: ['a', 'b'], threshold: { pos: 0.7, neg: 0.3 } })).toBe('the sum of a + b, as a vote: r ≥ 0.7 → +1, r ≤ 0.3 → −1, else 0');
  });

  it('a named field (booleans as 1/0) and a sum replace the log reward; a threshold makes votes', async () => {
    const rows = [
      { step: 1, state: 's', prompt: 'p', response: 'r', reward: 0.9, acc: true, fmt: 0.5, behavior: 'a' },
      { step: 1, state: 's', prompt: 'p', response: 'r', reward: 0.9, acc: false, fmt: 0.5, behavior: 'a' },
      { step: 1, state: 's', prompt: 'p', response: 'r', reward: -0.2, acc: true, fmt: 0, behavior: 'a' },
    ];
    const src = () => [memorySource('r.jsonl', jsonl(rows))];
    const own = await measureLogs(src(), SPEC);
    expect(counts(own.frames, 's', 'a')).toEqual([2, 0, 1]);
    const acc = await measureLogs(src(), { ...SPEC, reward: parseRewardChoice('acc') });
    expect(counts(acc.frames, 's', 'a')).toEqual([2, 1, 0]);
    expect(acc.frames[0].scalars['reward/mean']).toBeCloseTo(2 / 3, 12);
    const sum = await measureLogs(src(), { ...SPEC, reward: parseRewardChoice('acc+fmt', '1.2,0.6') });
    // sums 1.5, 0.5, 1 → +1, −1, 0
    expect(counts(sum.frames, 's', 'a')).toEqual([1, 1, 1]);
    expect(sum.reward).toBe('the sum of acc + fmt, as a vote: r ≥ 1.2 → +1, r ≤ 0.6 → −1, else 0');
  });

  it('a field that is in no sample is refused, naming the fields there are', async () => {
    const rows = [{ step: 1, state: 's', prompt: 'p', response: 'r', reward: 1, acc: 1 }];
    await expect(measureLogs([memorySource('r.jsonl', jsonl(rows))], { ...SPEC, reward: parseRewardChoice('accuracy') })).rejects.toThrow(/reward: no sample has the field accuracy \(numeric fields of the first sample: step, reward, acc\)/);
  });

  it('the fit says which reward it read, and with 0/1 rewards good is within one standard error of the best', async () => {
    // accuracy 0.75 (a), 0.73 (b), 0.25 (c) over 200 judged samples each: E > 0 for all three
    const rows: Record<string, unknown>[] = [];
    for (const [b, p] of [['a', 0.75], ['b', 0.73], ['c', 0.25]] as const) for (let i = 0; i < 200; i++) rows.push({ step: 1 + (i % 4), state: 's', prompt: 'p', response: 'r', reward: 0, acc: i < p * 200 ? 1 : 0, behavior: b });
    const m = await measureLogs([memorySource('r.jsonl', jsonl(rows))], { ...SPEC, reward: parseRewardChoice('acc') });
    const fit = fitTask(m);
    expect(fit.notes.some((n) => n.message === 'reward read: field acc')).toBe(true);
    // SE of a's mean vote: sqrt(0.75 · 0.25 / 200) = 0.031, bar 0.719: b (0.73) is within it, c (0.25) is not
    expect(fit.spec.states[0].good).toEqual(['a', 'b']);
    expect(fit.notes.find((n) => n.path === 'states[].gold')?.message).toMatch(/within one standard error of the best/);
  });
});
