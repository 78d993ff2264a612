// The transport state machine alone, with a fake clock and a counting stepper: the play loop spaces
// steps by the set speed (in the clock's time, no real waiting), pause lets the step in flight
// complete, a Play during a pause starts no second loop, step(n) takes exactly n steps.
import { describe, expect, it } from 'vitest';
import type { Clock } from './clock';
import { Transport } from './transport';

type Phase = 'ready' | 'running' | 'paused' | 'done';

function harness(limit = Infinity) {
  let t = 0;
  const sleeps: number[] = [];
  const clock: Clock = {
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(ms);
      t += ms;
      await new Promise((r) => setTimeout(r, 0));
    },
  };
  let steps = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const reports: { phase: string; steps: number }[] = [];
  const tr: Transport<{ phase: string; steps: number }, Phase> = new Transport<{ phase: string; steps: number }, Phase>({
    stepper: {
      advance: async () => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        t += 10; // each step costs 10 ms of the clock
        await new Promise((r) => setTimeout(r, 1));
        inFlight--;
        steps++;
        return steps < limit;
      },
      mayPlay: () => steps < limit,
      stopped: () => tr.emit('done', 'finished'),
      stepped: () => tr.emit('paused', ''),
      flush: () => undefined,
    },
    status: () => ({ phase: tr.phase, steps }),
    report: (s) => void reports.push(s),
    clock,
    phase: 'ready',
    message: '',
    statusEveryMs: 100,
  });
  return { tr, sleeps, reports, steps: () => steps, maxInFlight: () => maxInFlight };
}

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 10_000 && !cond(); i++) await new Promise((r) => setTimeout(r, 1));
  expect(cond()).toBe(true);
};

describe('Transport', () => {
  it('plays at the set speed in the injected clock, measures steps/s, stops at the end with its status', async () => {
    const h = harness(30);
    h.tr.speed = 20; // 50 ms a step, of which the step itself took 10
    await h.tr.play();
    expect(h.tr.phase).toBe('running');
    await until(() => h.tr.phase === 'done');
    expect(h.steps()).toBe(30);
    expect(h.sleeps).toEqual(Array(29).fill(40));
    // measured over the clock's time once a second has passed: 30 steps in 1,460 ms
    expect(h.tr.rate).toBeCloseTo((30 / 1460) * 1000, 9);
    expect(h.reports.at(-1)).toEqual({ phase: 'done', steps: 30 });
    // status reports while playing are at least 100 ms (of the clock) apart
    expect(h.reports.filter((r) => r.phase === 'running').length).toBeLessThanOrEqual(1 + 1460 / 100);
  });

  it('pause keeps the step in flight and reports paused once idle; play during a pause runs one loop', async () => {
    const h = harness();
    await h.tr.play();
    await until(() => h.steps() >= 2);
    await Promise.all([h.tr.pause(), h.tr.play()]);
    expect(h.tr.phase).toBe('running'); // the Play that came in owns the run again
    await until(() => h.steps() >= 6);
    const p = await h.tr.pause();
    expect(p).toEqual({ phase: 'paused', steps: h.steps() });
    const n = h.steps();
    await new Promise((r) => setTimeout(r, 20));
    expect(h.steps()).toBe(n);
    expect(h.maxInFlight()).toBe(1);
  });

  it('step(n) pauses first, then takes n steps; a stop on the way reports the stop', async () => {
    const h = harness(7);
    expect(await h.tr.step(3)).toEqual({ phase: 'paused', steps: 3 });
    expect(await h.tr.step(10)).toEqual({ phase: 'done', steps: 7 });
  });

  it('exclusive runs operations one at a time in call order', async () => {
    const h = harness();
    const order: string[] = [];
    const slow = h.tr.exclusive(async () => {
      await new Promise((r) => setTimeout(r, 5));
      order.push('a');
    });
    const failing = h.tr.exclusive(async () => {
      order.push('b');
      throw new Error('x');
    });
    const fast = h.tr.exclusive(async () => void order.push('c'));
    await Promise.allSettled([slow, failing, fast]);
    expect(order).toEqual(['a', 'b', 'c']);
  });
});
