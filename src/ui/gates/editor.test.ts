import { describe, expect, it } from 'vitest';
import { SAMPLE_FIELDS } from '../../core/gates/index';
import { appliedText, checkGateDraft, complete, completions, follow, normalized, problemText, storedDraft, wordAt } from './editor';

const NAMES = Object.keys(SAMPLE_FIELDS);

describe('gate editor logic', () => {
  it('locates the core\'s problems by editor line and character (blank lines counted)', () => {
    const text = 'true => mask1 rl\n\n  socre > 0 => drop # typo\nvotes_pos > 0 => keep';
    const { gate, problems } = checkGateDraft(text);
    expect(gate).toBeNull();
    expect(problems.map(problemText)).toEqual([
      'line 3, character 3: unknown field "socre"; did you mean "score"?',
      'line 4, character 18: unknown decision "keep": expected drop, mask0, mask1',
    ]);
    expect(problems[0].text.slice(problems[0].col - 1, problems[0].end - 1)).toBe('socre');
    expect(checkGateDraft('').problems.map((p) => p.reason)).toEqual(['a gate needs at least one rule']);
    const ok = checkGateDraft('votes_pos > 0 && votes_neg > 0 => drop # disagree\ntrue => mask1 rl');
    expect(ok.problems).toEqual([]);
    expect(ok.gate?.rules.map((r) => r.label)).toEqual(['disagree', '']);
  });

  it('refuses what the setting refuses (its length limit)', () => {
    const long = Array.from({ length: 60 }, (_, i) => `turn == ${i} => drop # a long label to pass the limit`).join('\n');
    expect(checkGateDraft(long).gate).toBeNull();
    expect(checkGateDraft(long).problems[0].reason).toMatch(/over the limit of 2000/);
  });

  it('finds the field name under the cursor, not in decisions, labels or strings', () => {
    const t = 'votes_p > 0 => mask1 rl # votes';
    expect(wordAt(t, 7)).toEqual({ start: 0, end: 7, text: 'votes_p' });
    expect(wordAt(t, 3)).toEqual({ start: 0, end: 7, text: 'votes_p' });
    expect(wordAt(t, 8)).toBeNull();
    expect(wordAt(t, t.indexOf('mask1') + 3)).toBeNull();
    expect(wordAt(t, t.length)).toBeNull();
    expect(wordAt('state == "ma', 12)).toBeNull();
    expect(wordAt('x > 12', 6)).toBeNull();
    expect(wordAt('a\nhint', 6)).toEqual({ start: 2, end: 6, text: 'hint' });
  });

  it('completes field names: prefix matches first, then those containing it; none for an exact name', () => {
    expect(completions('votes_', NAMES)).toEqual(['votes_pos', 'votes_neg', 'votes_zero', 'hint_votes_pos']);
    expect(completions('accepted', NAMES)).toEqual(['hint_accepted']);
    expect(completions('score', NAMES)).toEqual([]);
    expect(completions('', NAMES)).toEqual([]);
    const w = wordAt('hint_a && x', 6)!;
    expect(complete('hint_a && x', w, 'hint_accepted')).toEqual({ text: 'hint_accepted && x', cursor: 13 });
  });

  it('an untouched draft follows the applied gate; an edited one is kept', () => {
    let d = { text: 'A', applied: 'A' };
    d = follow(d, 'B');
    expect(d).toEqual({ text: 'B', applied: 'B' });
    d = { ...d, text: 'typed' };
    d = follow(d, 'C');
    expect(d).toEqual({ text: 'typed', applied: 'C' });
    expect(follow(d, 'C')).toBe(d);
    expect(appliedText('', 'builtin')).toBe('builtin');
    expect(appliedText('true => drop', 'builtin')).toBe('true => drop');
    expect(normalized('\n\ntrue => drop   \n\nx => mask0 \n\n')).toBe('true => drop\n\nx => mask0');
  });

  it('reads a stored draft back, or nothing when it is not one', () => {
    expect(storedDraft(JSON.stringify({ text: 'x => drop', applied: '', open: true }))).toEqual({ text: 'x => drop', applied: '', open: true });
    expect(storedDraft(JSON.stringify({ text: 'a', applied: 'b' }))).toEqual({ text: 'a', applied: 'b', open: false });
    for (const bad of [null, '', '{', 'null', '[]', JSON.stringify({ text: 1, applied: '' }), JSON.stringify({ text: 'x'.repeat(20_001), applied: '' })]) expect(storedDraft(bad)).toBeNull();
  });
});
