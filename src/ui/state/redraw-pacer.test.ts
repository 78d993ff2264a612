import { describe, expect, it } from 'vitest';
import { RedrawPacer, type PacerClock } from './redraw-pacer';

/** A fake clock: timers and animation frames (every 16 ms) run as time advances. */
function fakeClock() {
  let t = 0;
  let timers: { at: number; fn: () => void }[] = [];
  const clock: PacerClock = {
    now: () => t,
    later: (fn, ms) => void timers.push({ at: t + ms, fn }),
    frame: (fn) => void timers.push({ at: Math.ceil((t + 1) / 16) * 16, fn }),
  };
  const advance = (ms: number) => {
    const end = t + ms;
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      const next = timers[0];
      if (!next || next.at > end) break;
      timers = timers.slice(1);
      t = Math.max(t, next.at);
      next.fn();
    }
    t = end;
  };
  return { clock, advance, spend: (ms: number) => void (t += ms) };
}

describe('RedrawPacer', () => {
  it('a request after a quiet spell draws at the next animation frame; requests meanwhile merge', () => {
    const c = fakeClock();
    let draws = 0;
    const p = new RedrawPacer(() => draws++, c.clock, { minGapMs: 100 });
    p.request();
    p.request();
    c.advance(17);
    expect(draws).toBe(1);
  });

  it('many requests a second: at most one redraw per gap, and the gap grows with what a redraw costs', () => {
    const c = fakeClock();
    let draws = 0;
    const cost = { ms: 5 };
    const p = new RedrawPacer(() => {
      draws++;
      c.spend(cost.ms);
    }, c.clock, { minGapMs: 100, busyFactor: 4 });
    // a frame batch every 10 ms for 2 s
    for (let i = 0; i < 200; i++) {
      p.request();
      c.advance(10);
    }
    expect(draws).toBeGreaterThanOrEqual(15); // ~ every 100-112 ms (gap, then the next frame)
    expect(draws).toBeLessThanOrEqual(21);
    expect(p.gap).toBe(100);
    // slow redraws (a loaded machine): the gap becomes 4x their cost, so drawing stays ~1/4 of the time
    cost.ms = 200;
    draws = 0;
    for (let i = 0; i < 200; i++) {
      p.request();
      c.advance(10);
    }
    expect(p.gap).toBe(800);
    expect(draws).toBeLessThanOrEqual(4); // 2 s of requests (the clock also moved by the redraws' cost)
    expect(draws).toBeGreaterThanOrEqual(2);
  });

  it('the last request is always drawn (nothing left stale after the stream stops)', () => {
    const c = fakeClock();
    const seen: number[] = [];
    let value = 0;
    const p = new RedrawPacer(() => seen.push(value), c.clock, { minGapMs: 100 });
    for (let i = 1; i <= 30; i++) {
      value = i;
      p.request();
      c.advance(7);
    }
    c.advance(500);
    expect(seen.at(-1)).toBe(30);
  });

  it('flush draws at the next animation frame even inside the gap, once', () => {
    const c = fakeClock();
    let draws = 0;
    const p = new RedrawPacer(() => {
      draws++;
      c.spend(100);
    }, c.clock, { minGapMs: 100, busyFactor: 4 });
    p.request();
    c.advance(17);
    expect(draws).toBe(1);
    p.request(); // waits for the 400 ms gap
    c.advance(20);
    expect(draws).toBe(1);
    p.flush();
    c.advance(17);
    expect(draws).toBe(2);
    c.advance(1000); // the superseded request does not draw again
    expect(draws).toBe(2);
  });
});
