// A lab run picked up after an interruption (reload, failed worker), on the tabular engine: from a
// snapshot it continues exactly; without one it replays its timeline from step 0 silently and then
// continues exactly too; a replay that does not reproduce the stored frame says so.
import { describe, expect, it } from 'vitest';
import { makeConfig, type Config } from '../config';
import type { MetricsFrame } from '../metrics';
import { tabularSessionDeps } from '../../../tests/support/session-deps';
import type { LabListener, LabStatus, ResumeFrom } from './types';
import { RunSession } from './session';

const cfg = makeConfig({ task: 'assistant', method: 'combine', lr: 0.05, behaviorSamples: 8, rolloutBatch: 8, steps: 50, staleness: 1, measureEvery: 2 });

function session(config: Config) {
  const frames: MetricsFrame[] = [];
  const statuses: LabStatus[] = [];
  const listener: LabListener = { frames: (_, fs) => void frames.push(...fs), status: (s) => void statuses.push(s) };
  const s = new RunSession(
    tabularSessionDeps({ source: 'test base' }),
    listener,
    config,
  );
  return { s, frames, statuses };
}

const det = (fs: MetricsFrame[]) => JSON.stringify(fs.map(({ perf: _p, ...f }) => f));

/** 3 steps, a live patch, 3 more steps: the run to interrupt. */
async function interrupted() {
  const a = session(cfg);
  await a.s.init();
  await a.s.step(3);
  expect(await a.s.setConfig({ clipHigh: 0.4 })).toBeNull();
  await a.s.step(3);
  return a;
}

describe('RunSession resume', () => {
  it('from a snapshot: the next frames equal the uninterrupted run', async () => {
    const a = await interrupted();
    const snap = structuredClone(await a.s.snapshot());
    expect(snap.step).toBe(6);
    await a.s.step(3);
    const want = a.frames.slice(6);
    const b = session(cfg);
    const st = await b.s.init(undefined, 'resumed', { snapshot: snap, step: 6, timeline: [] });
    expect(st).toMatchObject({ phase: 'ready', step: 6, message: 'resumed', baseSource: 'test base' });
    // the status says how the run came back (the page's recording notes it on the stored run)
    expect(st.resumed).toEqual({ step: 6, exact: true, from: 'a snapshot at step 6' });
    expect(st.timeline).toEqual((await a.s.status()).timeline);
    expect(st.baseScalars).toEqual(a.statuses[a.statuses.length - 1].baseScalars);
    await b.s.step(3);
    expect(b.frames.map((f) => f.step)).toEqual([7, 8, 9]);
    expect(det(b.frames)).toBe(det(want));
  });

  it('without a snapshot: replays the timeline from step 0 (nothing streamed), checks the stored frame, then continues exactly', async () => {
    const a = await interrupted();
    const { timeline } = a.s.status();
    expect(timeline.map((e) => e.step)).toEqual([0, 3]);
    const stored = a.frames.slice();
    await a.s.step(2);
    const resume: ResumeFrom = { step: 6, timeline, expect: { ...stored[5], perf: { 'perf/steps_per_s': 1, 'perf/tokens_per_s': 1 } } };
    const b = session(makeConfig(timeline[0].patch));
    const st = await b.s.init(undefined, 'restarted', resume);
    expect(st.step).toBe(6);
    expect(st.message).toBe('restarted The replayed step 6 equals the stored one bit for bit.');
    expect(st.resumed).toEqual({ step: 6, exact: true, from: 'a replay from step 0' });
    expect(st.config.clipHigh).toBe(0.4);
    expect(st.timeline).toEqual(timeline);
    expect(b.frames).toEqual([]);
    expect(b.statuses.some((x) => /replaying the stored run: step \d of 6/.test(x.message))).toBe(true);
    await b.s.step(2);
    expect(det(b.frames)).toBe(det(a.frames.slice(6)));
  });

  it('a fork without a snapshot replays from its fork point (its timeline counts from there)', async () => {
    const a = await interrupted();
    const point = await a.s.forkPoint();
    const b = session(cfg);
    await b.s.init(point);
    await b.s.step(2);
    expect(await b.s.setConfig({ lr: 0.02 })).toBeNull();
    await b.s.step(2);
    const { timeline } = b.s.status();
    expect(timeline.map((e) => e.step)).toEqual([6, 8]);
    const stored = b.frames.slice();
    await b.s.step(2);
    const c = session(cfg);
    const st = await c.s.init(point, 'again', { step: 10, timeline, expect: stored[3] });
    expect(st.step).toBe(10);
    expect(st.message).toBe('again The replayed step 10 equals the stored one bit for bit.');
    expect(st.resumed).toEqual({ step: 10, exact: true, from: 'a replay from step 6' });
    await c.s.step(2);
    expect(det(c.frames)).toBe(det(b.frames.slice(4)));
  });

  it('a replay that does not give the stored frame says where it differs', async () => {
    const a = await interrupted();
    const { timeline } = a.s.status();
    const f = a.frames[5];
    const b = session(makeConfig(timeline[0].patch));
    const st = await b.s.init(undefined, undefined, { step: 6, timeline, expect: { ...f, scalars: { ...f.scalars, 'train/loss': 123 } } });
    expect(st.message).toMatch(/^The replayed step 6 differs from the stored one in train\/loss \(stored 123, now /);
    expect(st.resumed).toEqual({ step: 6, exact: false, from: 'a replay from step 0' });
    // a new run (reset) did not come back from anything
    await b.s.reset();
    expect(b.s.status().resumed).toBeUndefined();
  });

  it('a snapshot followed by a replay of the steps after it says both', async () => {
    const a = await interrupted();
    const snap = structuredClone(await a.s.snapshot());
    await a.s.step(2);
    const { timeline } = a.s.status();
    const b = session(cfg);
    const st = await b.s.init(undefined, undefined, { snapshot: snap, step: 8, timeline, expect: a.frames[7] });
    expect(st.resumed).toEqual({ step: 8, exact: true, from: 'a snapshot at step 6, replayed to step 8' });
  });
});
