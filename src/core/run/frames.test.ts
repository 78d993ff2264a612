import { describe, expect, it } from 'vitest';
import type { MetricsFrame } from '../metrics';
import { baseFrameOf, createCoalescer, framesToCsv, framesUpTo, type MetricFrame } from './frames';
import type { LabStatus } from './types';

/** Fake clock + timer queue. */
function fakeTime() {
  let t = 0;
  let timers: { at: number; fn: () => void; live: boolean }[] = [];
  return {
    now: () => t,
    schedule: (fn: () => void, ms: number) => {
      const timer = { at: t + ms, fn, live: true };
      timers.push(timer);
      return () => {
        timer.live = false;
      };
    },
    advance(ms: number) {
      const end = t + ms;
      for (;;) {
        const due = timers.filter((x) => x.live && x.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        t = due.at;
        due.live = false;
        due.fn();
      }
      timers = timers.filter((x) => x.live);
      t = end;
    },
  };
}

describe('createCoalescer', () => {
  it('emits at most 30 batches per second and never drops frames', () => {
    const clock = fakeTime();
    const batches: MetricFrame[][] = [];
    const c = createCoalescer((b) => batches.push(b), clock);
    // 1,000 steps per second for 2 seconds.
    for (let step = 0; step < 2000; step++) {
      c.push({ step, 'train/loss': step * 0.5 });
      clock.advance(1);
    }
    c.flush();
    expect(batches.length).toBeLessThanOrEqual(2 * 30 + 2);
    expect(batches.length).toBeGreaterThanOrEqual(2 * 30 - 2);
    const steps = batches.flat().map((f) => f.step);
    expect(steps).toEqual(Array.from({ length: 2000 }, (_, i) => i));
    expect(c.pending).toBe(0);
  });

  it('emits the first frame immediately and spaces later ones by ≥ 1/30 s', () => {
    const clock = fakeTime();
    const times: number[] = [];
    const c = createCoalescer(() => times.push(clock.now()), clock);
    c.push({ step: 0 });
    expect(times).toEqual([0]);
    c.push({ step: 1 });
    expect(times).toEqual([0]);
    expect(c.pending).toBe(1);
    clock.advance(40);
    expect(times.length).toBe(2);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(1000 / 30 - 1e-9);
  });

  it('slow producers get every frame without delay', () => {
    const clock = fakeTime();
    const batches: MetricFrame[][] = [];
    const c = createCoalescer((b) => batches.push(b), clock);
    for (let step = 0; step < 5; step++) {
      c.push({ step });
      clock.advance(100);
    }
    expect(batches.map((b) => b.length)).toEqual([1, 1, 1, 1, 1]);
  });

  it('dispose cancels the pending batch', () => {
    const clock = fakeTime();
    const batches: MetricFrame[][] = [];
    const c = createCoalescer((b) => batches.push(b), clock);
    c.push({ step: 0 });
    c.push({ step: 1 });
    c.dispose();
    clock.advance(1000);
    expect(batches.length).toBe(1);
  });

  it('rejects a non-positive rate', () => {
    expect(() => createCoalescer(() => {}, { maxPerSecond: 0 })).toThrow(RangeError);
  });
});

describe('framesToCsv', () => {
  it('puts step first, sorts the other columns, leaves gaps empty', () => {
    const csv = framesToCsv([
      { step: 1, 'train/loss': 0.5, 'support/token_entropy': 2 },
      { step: 2, 'train/loss': 0.25 },
    ]);
    expect(csv).toBe('step,support/token_entropy,train/loss\n1,2,0.5\n2,,0.25\n');
  });
});

describe('the frames the page keeps', () => {
  it('the base as a step-0 frame of its behavior metrics; none for a fork', () => {
    const baseScalars = { 'support/behavior_support/0': 3 } as unknown as LabStatus['baseScalars'];
    const f = baseFrameOf({ baseScalars } as LabStatus);
    expect(f).toEqual({ step: 0, version: 0, scalars: baseScalars, series: {}, ratioEdges: [], perf: {}, changes: {}, trace: [] });
    expect(baseFrameOf({ baseScalars: null } as LabStatus)).toBeNull();
  });
  it('frames up to a step', () => {
    const fs = [1, 2, 3, 5].map((step) => ({ step }) as MetricsFrame);
    expect(framesUpTo(fs, 3).map((f) => f.step)).toEqual([1, 2, 3]);
    expect(framesUpTo(fs, 0)).toEqual([]);
  });
});
