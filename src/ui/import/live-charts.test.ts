import { describe, expect, it } from 'vitest';
import { growingEnd, growingExtent, liveCharts, shownState } from './live-charts';
import type { Alarm } from '../../core/import/follow/alarms';

describe('the growing step axis', () => {
  it('ends at the next nice number past the last step', () => {
    expect([0, 1, 2, 4, 5, 9, 10, 19, 20, 29, 30, 49, 74, 75, 99, 1000].map(growingEnd)).toEqual([1, 2, 3, 5, 7.5, 10, 20, 20, 30, 30, 50, 50, 75, 100, 100, 2000]);
  });
  it('rescales only a few times per decade as steps arrive one by one', () => {
    const ends = new Set<number>();
    for (let s = 1; s <= 1000; s++) ends.add(growingExtent([1, s])[1]);
    expect(ends.size).toBeLessThanOrEqual(16);
    for (let s = 1; s <= 1000; s++) expect(growingExtent([1, s])[1]).toBeGreaterThan(s);
  });
  it("after the follow, the axis is the data's", () => {
    expect(liveCharts([], false).extent([3, 40])).toEqual([3, 40]);
  });
});

describe('the state the plots show', () => {
  const alarm = (step: number, state: string | null): Alarm => ({ step, kind: state ? 'entropy-gap' : 'esr-fall', state, message: '' }) as Alarm;
  const states = ['code', 'explain', 'math'];
  it("switches to the state the latest alarm names, unless the user picked one; alarms without a state (or of one the run lacks) change nothing", () => {
    expect(shownState(null, [], states)).toBe('mean');
    expect(shownState(null, [alarm(19, 'explain')], states)).toBe('explain');
    expect(shownState(null, [alarm(10, 'math'), alarm(19, 'explain'), alarm(20, null)], states)).toBe('explain');
    expect(shownState(null, [alarm(19, 'nope')], states)).toBe('mean');
    expect(shownState('code', [alarm(19, 'explain')], states)).toBe('code');
    expect(shownState('mean', [alarm(19, 'explain')], states)).toBe('mean');
    expect(shownState('gone', [alarm(19, 'explain')], states)).toBe('explain'); // a pick from an earlier import
  });
});
