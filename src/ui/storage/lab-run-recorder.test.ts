// The lab run recording on fake-indexeddb: batches appended to one record per run id; a reset
// (new run id) or a replaced history starts a new record; one writer per run across tabs (Web
// Locks, faked); one write in flight, the rest coalesced; the page going away writes at once.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../../core/config';
import type { MetricsFrame } from '../../core/metrics';
import { LabRunRecorder } from './lab-run-recorder';
import { fakeLocks } from '../../../tests/support/fake-locks';
import { LabRunStore } from './lab-run-store';

const frame = (step: number): MetricsFrame => ({ step, version: step, scalars: { x: step }, series: {}, ratioEdges: [], perf: {}, changes: {}, trace: [] }) as unknown as MetricsFrame;

describe('LabRunRecorder', () => {
  it('stores the lab run as it trains, a new record per run', async () => {
    const errors: string[] = [];
    const rec = new LabRunRecorder((m) => errors.push(m), () => LabRunStore.open('lab-run-test'));
    const config = makeConfig({ seed: 3, steps: 50 });
    const view = { runId: 1, phase: 'paused' as const, config, timeline: [{ step: 0, patch: config }], backend: 'wasm' };
    const frames = [1, 2].map(frame);
    rec.update(view, frames);
    rec.update(view, [...frames, frame(3)]);
    rec.update({ ...view, runId: 2 }, [frame(1)]);
    await rec.flush();
    const store = await LabRunStore.open('lab-run-test');
    const list = (await store.list()).sort((x, y) => x.cells[0].frameCount - y.cells[0].frameCount);
    expect(list.map((r) => [r.kind, r.cells[0].frameCount, r.cells[0].engine, r.spec.seeds, r.spec.steps])).toEqual([
      ['run', 1, 'wasm', [3], 50],
      ['run', 3, 'wasm', [3], 50],
    ]);
    expect((await store.frames(list[1].id))[0].map((f) => f.step)).toEqual([1, 2, 3]);
    expect(list[1].spec.base).not.toHaveProperty('seed');
    expect(errors).toEqual([]);
    store.close();
    await rec.close();
  });

  it('a restored run notes its resume on its record once per resume, as bundles record them', async () => {
    const name = 'lab-run-resumes';
    const config = makeConfig({ seed: 3, steps: 50 });
    const view = { runId: 1, phase: 'paused' as const, config, timeline: [{ step: 0, patch: config }], backend: 'wasm' };
    const first = new LabRunRecorder(() => undefined, () => LabRunStore.open(name));
    first.update(view, [1, 2, 3, 4].map(frame));
    await first.close();
    const store = await LabRunStore.open(name);
    const id = (await store.getLabRun())!;
    expect((await store.get(id))?.cells[0].resumed).toBeUndefined();

    // a reload: the session resumed it from its snapshot at step 4; its status says so with every status
    const stored = (await store.frames(id))[0];
    const again = new LabRunRecorder(() => undefined, () => LabRunStore.open(name));
    again.adopt(id, 4, stored[0]);
    const resumed = { ...view, runId: 7, resumed: { step: 4, exact: true, from: 'a snapshot at step 4' } };
    again.update(resumed, stored);
    await again.flush();
    again.update(resumed, [...stored, frame(5)]);
    again.update(resumed, [...stored, frame(5), frame(6)]);
    await again.flush();
    expect((await store.get(id))?.cells[0]).toMatchObject({ step: 6, resumed: [{ step: 4, exact: true, from: 'a snapshot at step 4' }] });

    // a reset: a new run, a new record, nothing resumed
    again.update({ ...view, runId: 8 }, [frame(1)]);
    await again.close();
    const fresh = (await store.getLabRun())!;
    expect(fresh).not.toBe(id);
    expect((await store.get(fresh))?.cells[0].resumed).toBeUndefined();
    expect((await store.get(id))?.cells[0].resumed).toHaveLength(1);
    store.close();
  });
});

describe('a restore in progress', () => {
  it("records nothing of a run still starting: a reload during the restore finds the stored run as it was", async () => {
    const name = 'restore-in-progress';
    const config = makeConfig({ seed: 3, steps: 50 });
    const timeline = [{ step: 0, patch: config }, { step: 3, patch: { clipHigh: 0.35 } }];
    const view = { runId: 1, phase: 'paused' as const, config, timeline, backend: 'wasm' };
    const first = new LabRunRecorder(() => undefined, () => LabRunStore.open(name));
    first.update(view, [1, 2, 3, 4, 5].map(frame));
    await first.close();
    const store = await LabRunStore.open(name);
    const id = (await store.getLabRun())!;
    const before = await store.get(id);

    // the reload: the stored frames show at once while the new worker warms up and replays (its
    // statuses: no timeline yet, then the replay's part of it, no engine named yet)
    const second = new LabRunRecorder(() => undefined, () => LabRunStore.open(name));
    const stored = (await store.frames(id))[0];
    second.adopt(id, 5, stored[0]);
    second.update({ runId: 0, phase: 'loading', config, timeline: [], backend: '' }, stored);
    second.update({ runId: 1, phase: 'loading', config, timeline: timeline.slice(0, 1), backend: 'wasm' }, stored);
    second.update({ runId: 1, phase: 'pretraining', config, timeline: [], backend: 'wasm' }, stored);
    await second.flush();
    const during = await store.get(id);
    expect(during?.cells[0].timeline).toEqual(timeline);
    expect(during?.cells[0].engine).toBe('wasm');
    expect(during?.updatedAt).toBe(before?.updatedAt);
    // restored: the run is the stored one again, and it goes on in the same record
    second.update({ ...view, runId: 1 }, [...stored, frame(6)]);
    await second.flush();
    expect((await store.frames(id))[0].map((f) => f.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await store.get(id))?.cells[0].timeline).toEqual(timeline);
    await second.close();
    store.close();
  });
});

describe('one writer per stored run', () => {
  it('a second tab on a run another tab writes records a copy; the first record stays in step order', async () => {
    const locks = fakeLocks();
    const name = 'two-tabs';
    const config = makeConfig({ seed: 3, steps: 50 });
    const view = { runId: 1, phase: 'paused' as const, config, timeline: [{ step: 0, patch: config }], backend: 'wasm' };
    const frames = Array.from({ length: 40 }, (_, i) => frame(i + 1));
    const tabA = new LabRunRecorder(() => undefined, () => LabRunStore.open(name), undefined, { locks });
    tabA.update(view, frames.slice(0, 35));
    await tabA.flush();
    const store = await LabRunStore.open(name);
    const id = (await store.getLabRun())!;

    // tab B restores the same stored run (its 35 frames), then both train on
    const said: [string, string][] = [];
    const tabB = new LabRunRecorder((m, s) => said.push([m, s]), () => LabRunStore.open(name), undefined, { locks });
    const restored = (await store.frames(id))[0];
    tabB.adopt(id, 35, restored[0]);
    tabB.update({ ...view, runId: 9 }, restored);
    await tabB.flush();
    tabB.update({ ...view, runId: 9 }, [...restored, frame(31), frame(32)]); // B replays from its snapshot at 30
    tabA.update(view, frames.slice(0, 38));
    await Promise.all([tabA.flush(), tabB.flush()]);

    expect(said).toHaveLength(1);
    expect(said[0][1]).toBe('copy');
    expect(said[0][0]).toMatch(/being recorded by another tab .* stores it as a copy .* the same up to step 35/);
    expect((await store.frames(id))[0].map((f) => f.step)).toEqual(Array.from({ length: 38 }, (_, i) => i + 1));
    const copy = (await store.list()).find((r) => r.id !== id)!;
    expect((await store.frames(copy.id))[0].map((f) => f.step)).toEqual([...Array.from({ length: 35 }, (_, i) => i + 1), 31, 32]);
    expect(await store.getLabRun()).toBe(copy.id); // the copy is what this browser's next reload restores

    // tab A closed: its lock goes, and a tab that restores its run continues it
    await tabA.close();
    const tabC = new LabRunRecorder(() => undefined, () => LabRunStore.open(name), undefined, { locks });
    const again = (await store.frames(id))[0];
    tabC.adopt(id, 38, again[0]);
    tabC.update({ ...view, runId: 4 }, again);
    await tabC.flush();
    tabC.update({ ...view, runId: 4 }, [...again, frame(39)]);
    await tabC.flush();
    expect((await store.frames(id))[0].map((f) => f.step)).toEqual(Array.from({ length: 39 }, (_, i) => i + 1));
    for (const r of [tabB, tabC]) await r.close();
    store.close();
  });
});

describe('bounded write lag', () => {
  it('frames arriving while a write is in flight go in one next write, not one write each', async () => {
    const writes: number[] = [];
    const write = LabRunStore.prototype.write;
    LabRunStore.prototype.write = function (this: LabRunStore, w) {
      writes.push(w.batch?.frames.length ?? 0);
      return write.call(this, w);
    };
    try {
      const rec = new LabRunRecorder(() => undefined, () => LabRunStore.open('lag'));
      const config = makeConfig({ seed: 1, steps: 100 });
      const view = { runId: 1, phase: 'paused' as const, config, timeline: [{ step: 0, patch: config }], backend: 'wasm' };
      const frames = Array.from({ length: 60 }, (_, i) => frame(i + 1));
      rec.update(view, frames.slice(0, 1));
      await rec.flush();
      for (let n = 2; n <= 60; n++) rec.update(view, frames.slice(0, n)); // a burst, as under load
      await rec.flush();
      expect(writes).toEqual([1, 59]); // the write after the first takes the whole burst
      const store = await LabRunStore.open('lag');
      const [stored] = await store.frames((await store.getLabRun())!);
      expect(stored.map((f) => f.step)).toEqual(frames.map((f) => f.step));
      store.close();
      await rec.close();
    } finally {
      LabRunStore.prototype.write = write;
    }
  });

  it('the page going away writes what is pending at once, beside the write in flight', async () => {
    let leave = (): void => undefined;
    const rec = new LabRunRecorder(() => undefined, () => LabRunStore.open('leave'), undefined, { leave: (f) => ((leave = f), () => undefined) });
    const config = makeConfig({ seed: 1, steps: 100 });
    const view = { runId: 1, phase: 'paused' as const, config, timeline: [{ step: 0, patch: config }], backend: 'wasm' };
    const frames = Array.from({ length: 10 }, (_, i) => frame(i + 1));
    rec.update(view, frames.slice(0, 2));
    await rec.flush();
    const write = LabRunStore.prototype.write;
    const issued: number[] = [];
    LabRunStore.prototype.write = function (this: LabRunStore, w) {
      issued.push(w.batch?.frames.at(-1)?.step ?? 0);
      return write.call(this, w);
    };
    try {
      rec.update(view, frames.slice(0, 5)); // a write under way (reading the stored name first)
      rec.update(view, frames); // more pending
      leave(); // pagehide: everything pending issued now, in one transaction
      expect(issued).toEqual([10]);
    } finally {
      LabRunStore.prototype.write = write;
    }
    const store = await LabRunStore.open('leave');
    const id = (await store.getLabRun())!;
    // only the transactions issued before "the page went away" count: nothing else was started
    expect((await store.frames(id))[0].map((f) => f.step)).toEqual(frames.map((f) => f.step));
    expect((await store.get(id))?.cells[0]).toMatchObject({ frameCount: 10, step: 10, batches: 2 });
    store.close();
    await rec.close();
  });
});
