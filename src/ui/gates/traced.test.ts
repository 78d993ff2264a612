import { describe, expect, it } from 'vitest';
import { funnelOf, compileGate } from '../../core/gates/index';
import { keepTraced, replayOn, stepsText } from './traced';

const rec = (reward: number, votes_neg = 0) => ({ reward, votes_neg, has_next_state: true });

describe('traced samples and replay', () => {
  it('keeps the latest steps, a repeated step replacing its entry', () => {
    let b = keepTraced([], 1, [rec(1)]);
    b = keepTraced(b, 2, [rec(0)]);
    b = keepTraced(b, 2, [rec(1), rec(1)]);
    expect(b.map((t) => [t.step, t.records.length])).toEqual([[1, 1], [2, 2]]);
    expect(keepTraced(b, 3, [])).toEqual(b);
    // a restart (lower step) drops what came after it
    expect(keepTraced(b, 1, [rec(0)]).map((t) => t.step)).toEqual([1]);
    let many: ReturnType<typeof keepTraced> = [];
    for (let s = 1; s <= 10; s++) many = keepTraced(many, s, [rec(s)], 4);
    expect(many.map((t) => t.step)).toEqual([7, 8, 9, 10]);
  });

  it('replays both gates on the same records through funnelOf', () => {
    const inUse = compileGate('reward == 0 => mask0\ntrue => mask1 rl');
    const draft = compileGate('votes_neg > 0 => drop # any no\ntrue => mask1 rl');
    const buf = keepTraced(keepTraced([], 4, [rec(1), rec(0, 1)]), 6, [rec(-1, 2), rec(1)]);
    const r = replayOn(buf, inUse, draft);
    const all = [rec(1), rec(0, 1), rec(-1, 2), rec(1)];
    expect(r.steps).toEqual([4, 6]);
    expect(r.samples).toBe(4);
    expect(r.inUse).toEqual(funnelOf(inUse, all));
    expect(r.draft).toEqual(funnelOf(draft, all));
    expect(r.draft).toMatchObject({ queued: 2, dropped: 2, effective: 2, rules: [2, 2, 0] });
    expect(replayOn(buf, inUse, null).draft).toBeNull();
  });

  it('says which steps', () => {
    expect(stepsText([])).toBe('no step yet');
    expect(stepsText([5])).toBe('step 5');
    expect(stepsText([3, 4, 5])).toBe('steps 3–5');
    expect(stepsText([3, 5, 9])).toBe('steps 3, 5 and 9');
    expect(stepsText([3, 5, 9, 12, 20])).toBe('5 steps between 3 and 20');
  });
});
