import { describe, expect, it } from 'vitest';
import { startWatchdog } from './watchdog';

/** Manual timers: run() fires everything due up to `t`. */
function clock() {
  let now = 0;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let next = 0;
  return {
    setTimer(fn: () => void, ms: number) {
      const id = next++;
      timers.push({ at: now + ms, fn, id });
      return () => void (timers = timers.filter((t) => t.id !== id));
    },
    async advance(ms: number) {
      const end = now + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const t = timers[0];
        if (!t || t.at > end) break;
        timers.shift();
        now = t.at;
        t.fn();
        await new Promise((r) => setTimeout(r, 0)); // let ping promises settle
      }
      now = end;
    },
  };
}

describe('watchdog', () => {
  it('stays quiet while pings are answered, reports a ping that never returns', async () => {
    const c = clock();
    let alive = true;
    const dead: string[] = [];
    let pings = 0;
    startWatchdog(() => {
      pings++;
      return alive ? Promise.resolve() : new Promise(() => undefined);
    }, (w) => dead.push(w), { intervalMs: 1000, timeoutMs: 5000, setTimer: c.setTimer });
    await c.advance(10_000);
    expect(pings).toBeGreaterThanOrEqual(9);
    expect(dead).toEqual([]);
    alive = false;
    await c.advance(7_000);
    expect(dead).toEqual(['no answer from the worker for 5 s']);
    await c.advance(20_000);
    expect(dead).toHaveLength(1);
  });

  it('a rejected ping is a death too; stop() silences it', async () => {
    const c = clock();
    const dead: string[] = [];
    startWatchdog(() => Promise.reject(new Error('boom')), (w) => dead.push(w), { intervalMs: 1000, timeoutMs: 5000, setTimer: c.setTimer });
    await c.advance(1500);
    expect(dead).toEqual(['the worker failed a call: boom']);
    const quiet: string[] = [];
    const w = startWatchdog(() => new Promise(() => undefined), (x) => quiet.push(x), { intervalMs: 1000, timeoutMs: 5000, setTimer: c.setTimer });
    await c.advance(2000);
    w.stop();
    await c.advance(10_000);
    expect(quiet).toEqual([]);
  });

  it('a worker too busy to answer but still reporting progress is alive; once it falls silent it is dead', async () => {
    const c = clock();
    const dead: string[] = [];
    // pretraining on a loaded machine: no ping is answered for 60 s, progress arrives every 250 ms
    const w = startWatchdog(() => new Promise(() => undefined), (x) => dead.push(x), { intervalMs: 1000, timeoutMs: 5000, setTimer: c.setTimer });
    for (let t = 0; t < 60_000; t += 250) {
      w.heard();
      await c.advance(250);
    }
    expect(dead).toEqual([]);
    // hung: nothing heard any more
    await c.advance(10_001);
    expect(dead).toEqual(['no answer from the worker for 5 s']);
  });

  it('progress that stops before the ping window ends does not save a hung worker', async () => {
    const c = clock();
    const dead: string[] = [];
    const w = startWatchdog(() => new Promise(() => undefined), (x) => dead.push(x), { intervalMs: 1000, timeoutMs: 5000, setTimer: c.setTimer });
    await c.advance(1500); // the ping is out
    w.heard();
    await c.advance(4600); // its first window ends: heard in it, another window
    expect(dead).toEqual([]);
    await c.advance(5000); // a whole window silent
    expect(dead).toEqual(['no answer from the worker for 5 s']);
  });
});
