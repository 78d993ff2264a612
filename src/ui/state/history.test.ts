import { describe, expect, it } from 'vitest';
import type { MetricsFrame } from '../../core/metrics';
import { FrameHistory } from './history';

const frame = (step: number, changes: Record<string, unknown> = {}): MetricsFrame => ({
  step, version: step, scalars: { 'train/loss': step }, series: { 'support/pass_at_k_base': [0.5, 0.7], 'support/pass_at_k': [step] },
  ratioEdges: [0.8, 1.2], perf: {}, changes, trace: [],
});
const run = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => frame(from + i));

describe('FrameHistory', () => {
  it('keeps every frame for export while the drawn subset stays bounded, spread over the run, latest included', () => {
    const h = new FrameHistory(50);
    for (let s = 1; s <= 5000; s += 7) h.push(run(s, Math.min(5000, s + 6)));
    expect(h.all().map((f) => f.step)).toEqual(run(1, 5000).map((f) => f.step));
    const drawn = h.drawn().map((f) => f.step);
    expect(drawn.length).toBeLessThanOrEqual(50);
    expect(drawn.length).toBeGreaterThanOrEqual(25);
    expect(drawn[0]).toBe(1);
    expect(drawn.at(-1)).toBe(5000);
    expect(drawn).toEqual([...drawn].sort((a, b) => a - b));
    // evenly spread: no gap wider than twice the stride
    const gaps = drawn.slice(1).map((s, i) => s - drawn[i]);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(2 * Math.ceil(5000 / 25));
  });

  it('a frame that carries a setting change is always drawn (its marker needs it)', () => {
    const h = new FrameHistory(20);
    h.push(run(1, 1000));
    h.push([frame(1001, { lr: 0.01 })]);
    h.push(run(1002, 3001));
    expect(h.drawn().some((f) => f.step === 1001)).toBe(true);
    expect(h.drawn().length).toBeLessThanOrEqual(21);
  });

  it('short runs draw every frame; identical arrays are shared between frames; reset keeps a prefix', () => {
    const h = new FrameHistory(50);
    h.push(run(1, 30));
    expect(h.drawn().map((f) => f.step)).toEqual(run(1, 30).map((f) => f.step));
    const [a, b] = h.all();
    expect(b.series['support/pass_at_k_base']).toBe(a.series['support/pass_at_k_base']);
    expect(b.ratioEdges).toBe(a.ratioEdges);
    expect(b.series['support/pass_at_k']).not.toBe(a.series['support/pass_at_k']);
    const v = h.version;
    h.reset(h.all().slice(0, 10));
    expect(h.version).toBeGreaterThan(v);
    expect(h.all().map((f) => f.step)).toEqual(run(1, 10).map((f) => f.step));
    expect(() => new FrameHistory(2)).toThrow(/maxDrawn/);
    expect(() => new FrameHistory(50, 1)).toThrow(/maxKept/);
  });

  it('caps the kept history: the oldest half is thinned 2:1, changes and recent frames stay', () => {
    const h = new FrameHistory(50, 1000);
    h.push(run(1, 100));
    h.push([frame(101, { lr: 0.01 })]);
    h.push(run(102, 5000));
    expect(h.length).toBeLessThanOrEqual(1000);
    expect(h.thinned).toBe(5000 - h.length);
    const steps = h.all().map((f) => f.step);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(steps).toContain(101);
    expect(steps[0]).toBe(1);
    // the most recent ~maxKept/2 frames are all there
    expect(steps.slice(-400)).toEqual(run(4601, 5000).map((f) => f.step));
  });
});
