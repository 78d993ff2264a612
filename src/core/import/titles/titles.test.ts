import { describe, expect, it } from 'vitest';
import { makeStyledCorpus } from '../../../../tests/support/discover-styles';
import { DISCOVER_BEHAVIORS, DISCOVER_STATES } from '../analyze';
import { UNCLASSIFIED } from '../discover/discoverer';
import { previewLabels } from '../discover/step-labels';
import { alarmNameLines, previewTitled, titleOf, titlesOf } from './titles';
import { unreadableParts } from '../../../../tests/support/readable-names';

describe('titles beside the key names', () => {
  it('the preview of a reasoning run: the same labels as previewLabels, each discovered one with a title a person reads', async () => {
    const c = await makeStyledCorpus('reasoning', { seed: 1, steps: 1, perStep: 96 });
    const samples = c.truth.map((t) => t.sample);
    const { labels, titles } = previewTitled(samples, DISCOVER_STATES, DISCOVER_BEHAVIORS);
    expect(labels).toEqual(previewLabels(samples, DISCOVER_STATES, DISCOVER_BEHAVIORS));
    const behaviors = [...new Set(labels.map((l) => l.behavior))].filter((b) => b !== UNCLASSIFIED);
    expect(behaviors.length).toBeGreaterThan(0);
    // each part of a title a quoted opening or shape words (never a pair of content words)
    for (const b of behaviors) expect(unreadableParts(titleOf(titles, 'behavior', b)), b).toEqual([]);
    expect(behaviors.some((b) => titleOf(titles, 'behavior', b) !== b)).toBe(true);
    const states = [...new Set(labels.map((l) => l.state))];
    for (const st of states) expect(titleOf(titles, 'state', st), st).toMatch(/^".+…"$/);
  });

  it('a name without a title reads as itself; titles equal to their name are left out', () => {
    const t = titlesOf({ behaviors: { titles: [['a', 'A title'], ['b', 'b']] }, states: null } as never);
    expect(t).toEqual({ states: {}, behaviors: { a: 'A title' } });
    expect(titleOf(t, 'behavior', 'a')).toBe('A title');
    expect(titleOf(t, 'behavior', 'b')).toBe('b');
    expect(titleOf(t, 'state', 'a')).toBe('a');
    expect(titleOf(null, 'state', 'x')).toBe('x');
  });

  it("an alarm's names said as a person reads them, a line each; names with no title are left to the alarm", () => {
    const t = { states: { 'hi-where-is': '"Hi, where is…"' }, behaviors: { numbered: 'numbered list' } };
    const a = { state: null, behavior: 'numbered', states: ['hi-where-is', 'math'] };
    expect(alarmNameLines(a, t)).toEqual(['  behavior numbered: numbered list', '  state hi-where-is: "Hi, where is…"']);
    expect(alarmNameLines({ state: 'math' }, t)).toEqual([]);
  });
});
