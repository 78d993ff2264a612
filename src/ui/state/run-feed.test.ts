// The run feed: a batch of frames shows paced while playing and at once when idle, a new run starts
// over from the frames it keeps (and their steps' traced samples), the traces of the latest step
// survive a restart when asked, every step of a batch keeps its own traces (issue 35).
import { describe, expect, it } from 'vitest';
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import type { RunMirror } from './run-view';
import { RunFeed } from './run-feed';
import { TRACED_SAMPLES_MAX, TRACED_STEPS_MAX } from '../gates/traced';

const frame = (step: number) => ({ step, version: step, scalars: {}, series: {}, ratioEdges: [], perf: {}, changes: {}, trace: [] }) as unknown as MetricsFrame;
const trace = (id: number) => ({ id, fields: { reward: id } }) as unknown as SampleTrace;
/** Waits until `done` holds (the pacer draws at an animation frame, at least its gap after the last redraw). */
async function until(done: () => boolean): Promise<void> {
  for (let t0 = Date.now(); !done(); ) {
    if (Date.now() - t0 > 10_000) throw new Error('no redraw within 10 s');
    await new Promise((r) => setTimeout(r, 10));
  }
}

function feed() {
  const shown: Partial<RunMirror> = {};
  let draws = 0;
  const f = new RunFeed({ set: (c) => Object.assign(shown, c), draw: (c) => (draws++, Object.assign(shown, c)) });
  return { f, shown, draws: () => draws };
}

describe('RunFeed', () => {
  it('shows an idle batch at the next animation frame, with its traces and the traced fields', async () => {
    const { f, shown } = feed();
    f.startOver(0, []);
    expect(f.push([frame(1), frame(2)], [[], [trace(7)]], false)).toBe(2);
    expect(shown.traced?.map((t) => t.step)).toEqual([2]);
    await until(() => shown.frames !== undefined);
    expect(shown.frames?.map((x) => x.step)).toEqual([1, 2]);
    expect(shown.allFrames?.map((x) => x.step)).toEqual([1, 2]);
    expect(shown.framesRun).toBe(0);
    expect(shown.traces).toEqual([trace(7)]);
    expect(f.traces).toEqual([trace(7)]);
  });

  it('a new run starts over from the frames it keeps; kept traces show until its first batch', async () => {
    const { f, shown } = feed();
    f.startOver(0, []);
    f.push([frame(1), frame(2), frame(3)], [[], [], [trace(1)]], false);
    await until(() => shown.frames?.length === 3);
    f.startOver(1, f.all().slice(0, 2));
    expect(shown.traces).toEqual([]);
    expect(shown.traced).toEqual([]);
    f.showTraces([trace(2)]);
    expect(shown.traces).toEqual([trace(2)]);
    await until(() => shown.framesRun === 1);
    expect(shown.frames?.map((x) => x.step)).toEqual([1, 2]);
    expect(shown.framesRun).toBe(1);
    expect(f.runId).toBe(1);
  });

  it('batches while playing are merged into one redraw', async () => {
    const { f, shown, draws } = feed();
    f.startOver(0, []);
    await until(() => draws() === 1);
    for (let s = 1; s <= 5; s++) f.push([frame(s)], [], true);
    await until(() => draws() === 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(draws()).toBe(2);
    expect(shown.allFrames?.length).toBe(5);
  });

  it('showNow publishes the kept frames synchronously (a left run disappears with its counter, not a frame later)', () => {
    const { f, shown } = feed();
    f.startOver(0, []);
    f.push([frame(1), frame(2)], [], false);
    f.startOver(0, [frame(1)]);
    f.showNow();
    expect(shown.frames?.map((x) => x.step)).toEqual([1]);
    expect(shown.allFrames?.map((x) => x.step)).toEqual([1]);
  });

  it('every step of a batch keeps its own traces (a run played fast); a new run keeps those of the frames it keeps', async () => {
    const { f, shown } = feed();
    f.startOver(0, []);
    f.push([frame(1)], [[trace(1)]], true);
    f.push([frame(2), frame(3), frame(4)], [[trace(2)], [trace(3), trace(30)], [trace(4)]], true);
    expect(shown.tracedSamples).toEqual([
      { step: 1, records: [trace(1)] },
      { step: 2, records: [trace(2)] },
      { step: 3, records: [trace(3), trace(30)] },
      { step: 4, records: [trace(4)] },
    ]);
    expect(shown.traced?.map((t) => t.step)).toEqual([1, 2, 3, 4]);
    expect(shown.traced?.[2].records).toEqual([trace(3).fields, trace(30).fields]);
    f.showNow();
    expect(shown.traces).toEqual([trace(4)]); // the latest step's, paired with the latest frame
    f.startOver(1, f.all().slice(0, 2)); // a fork at step 2
    expect(shown.tracedSamples?.map((t) => t.step)).toEqual([1, 2]);
    expect(shown.traced?.map((t) => t.step)).toEqual([1, 2]);
  });

  it('keeps the traced samples of the latest TRACED_SAMPLES_MAX steps, the gate fields of the latest TRACED_STEPS_MAX', () => {
    const { f, shown } = feed();
    f.startOver(0, []);
    const n = TRACED_SAMPLES_MAX + 20;
    for (let s = 1; s <= n; s += 10) {
      const steps = Array.from({ length: 10 }, (_, i) => s + i);
      f.push(steps.map(frame), steps.map((x) => [trace(x)]), true);
    }
    expect(shown.tracedSamples?.length).toBe(TRACED_SAMPLES_MAX);
    expect(shown.tracedSamples?.[0].step).toBe(n - TRACED_SAMPLES_MAX + 1);
    expect(shown.traced?.length).toBe(TRACED_STEPS_MAX);
    expect(shown.traced?.at(-1)?.step).toBe(n);
  });
});
