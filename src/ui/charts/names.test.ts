import { describe, expect, it } from 'vitest';
import { KEY_NAMES, LEGEND_CHARS, chartNames, cut } from './names';
import { metricWords } from './metric-words';
import { alarmTitle } from '../import/live-charts';

const TITLES = {
  states: { 'reply-only-with-a-name~2': '"Elliott is addicted to butterflies.…" · "… Reply only with a name."', 'what-word-does': '"What word does…"' },
  behaviors: { 'i-need-to·64-127-words': '"I need to…" · 64–127 words', 请解释一下为什么: '"请解释一下为什么…" · 短回答' },
};

describe('how the charts name states and behaviors', () => {
  it('a titled name reads as its title, the key name on hover', () => {
    const n = chartNames(TITLES);
    expect(n.titled).toBe(true);
    expect(n.short('behavior', 'i-need-to·64-127-words')).toBe('"I need to…" · 64–127 words');
    expect(n.hover('behavior', 'i-need-to·64-127-words')).toBe('"I need to…" · 64–127 words — behavior i-need-to·64-127-words');
    expect(n.short('behavior', '请解释一下为什么')).toBe('"请解释一下为什么…" · 短回答');
    expect(n.short('state', 'what-word-does')).toBe('"What word does…"');
  });

  it('a title too long for a legend is cut at a word end with "…", whole on hover', () => {
    const n = chartNames(TITLES);
    const s = n.short('state', 'reply-only-with-a-name~2');
    expect(s).toBe('"Elliott is addicted to…');
    expect([...s].length).toBeLessThanOrEqual(LEGEND_CHARS);
    expect(n.full('state', 'reply-only-with-a-name~2')).toBe(TITLES.states['reply-only-with-a-name~2']);
    expect(n.hover('state', 'reply-only-with-a-name~2')).toContain('· "… Reply only with a name." — state reply-only-with-a-name~2');
    expect(n.short('state', 'reply-only-with-a-name~2', 12)).toBe('"Elliott is…');
  });

  it('two titles a legend would cut to the same text are cut longer, until they differ', () => {
    const n = chartNames({ states: {}, behaviors: { a: '"I need to…" · 128–255 words · no enumerated', b: '"I need to…" · 128–255 words · no numbered list', c: '"I need to…" · 64–127 words · bullets' } });
    expect(cut('"I need to…" · 128–255 words · no enumerated', LEGEND_CHARS)).toBe(cut('"I need to…" · 128–255 words · no numbered list', LEGEND_CHARS));
    expect(n.short('behavior', 'a')).toBe('"I need to…" · 128–255 words · no enumerated');
    expect(n.short('behavior', 'b')).toBe('"I need to…" · 128–255 words · no numbered…');
    // in a narrower room: as far as another title begins the same
    expect(n.short('behavior', 'c')).toBe('"I need to…" · 64–127 words…');
    expect(n.short('behavior', 'c', 16)).toBe('"I need to…" · 64–127…');
    // a plot label's room is kept whatever else begins the same
    expect(n.fit('behavior', 'c', 16)).toBe('"I need to…"…');
    expect(KEY_NAMES.fit('behavior', 'a-long-rule-label', 4)).toBe('a-long-rule-label');
  });

  it('a name with no title (the lab’s tasks, a rule’s label, "other") reads as itself, never cut', () => {
    const n = chartNames(TITLES);
    expect(n.short('state', 'other')).toBe('other');
    expect(n.hover('state', 'other')).toBeUndefined();
    const long = 'a-rule-label-much-longer-than-any-legend-would-hold';
    expect(KEY_NAMES.short('behavior', long, 8)).toBe(long);
    expect(KEY_NAMES.titled).toBe(false);
    expect(chartNames({ states: {}, behaviors: {} }).titled).toBe(false);
  });

  it('cut: at a word end when one is near, inside a long word otherwise, no dangling separator', () => {
    expect(cut('short', 10)).toBe('short');
    expect(cut('"I need to…" · 64–127 words', 16)).toBe('"I need to…"…');
    expect(cut('abcdefghijklmnop', 8)).toBe('abcdefg…');
    // a wide character takes two narrow ones' room
    expect(cut('请解释一下为什么这个答案是对的', 8)).toBe('请解释…');
    expect(cut('"好的，用户问的是…" · numbered list', 16)).toBe('"好的，用户问的…');
  });

  it('metric words, legends of per-state metrics and alarm titles read the titles; the lab’s own as before', () => {
    const n = chartNames(TITLES);
    expect(metricWords('support/behavior_support/what-word-does', n)).toBe('behavior support (distinct feasible behaviors), state "What word does…"');
    expect(metricWords('support/behavior_dist/what-word-does/i-need-to·64-127-words', n)).toBe('share of "I need to…" · 64–127 words, state "What word does…"');
    expect(metricWords('support/behavior_dist/math/cases')).toBe('share of cases, state math');
    expect(metricWords('import/next_count/math/cases/explain')).toBe('cases followed by state explain, state math');
    const alarm = { step: 9, kind: 'divergence' as const, state: 'what-word-does', message: '' };
    expect(alarmTitle(alarm, n)).toBe('step 9 · divergence · state "What word does…"');
    expect(alarmTitle(alarm)).toBe('step 9 · divergence · state what-word-does');
  });
});
