// The lab's run across a reload, on fake-indexeddb with the real RunSession on the tabular engine:
// the stored snapshot round-trips and the resumed run continues bit for bit; without a snapshot the
// replay does; the restore decision (URL vs stored settings); a full disk mid-run gives a message
// and leaves the stored run whole (one transaction per batch).
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { makeConfig, type Config } from '../../core/config';
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import { tabularSessionDeps } from '../../../tests/support/session-deps';
import type { LabListener, LabStatus } from '../../core/run/types';
import { RunSession } from '../../core/run/session';
import { reloadPlan } from '../../core/run/recovery-plan';
import { LabRunRecorder } from './lab-run-recorder';
import { configAfter } from '../../core/run/recovery';
import { decideRestore, loadLabRun, type StoredLabRun } from './lab-restore';
import { LabRunStore, snapshotBytes } from './lab-run-store';

const cfg = makeConfig({ task: 'assistant', method: 'combine', lr: 0.05, behaviorSamples: 8, rolloutBatch: 8, steps: 50, staleness: 1 });

function session(config: Config) {
  const frames: MetricsFrame[] = [];
  let traces: SampleTrace[] = [];
  let status: LabStatus | null = null;
  const listener: LabListener = {
    frames: (_, fs, t) => {
      frames.push(...fs);
      traces = t[t.length - 1] ?? [];
    },
    status: (s) => void (status = s),
  };
  const s = new RunSession(
    tabularSessionDeps({ source: 'test base' }),
    listener,
    config,
  );
  return { s, frames, traces: () => traces, status: () => status! };
}

let dbs = 0;
const names: string[] = [];
const opened: LabRunStore[] = [];
async function open(name: string) {
  const s = await LabRunStore.open(name);
  opened.push(s);
  return s;
}
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});
const det = (fs: MetricsFrame[]) => JSON.stringify(fs.map(({ perf: _p, ...f }) => f));

/** A run of 6 steps with a live change at step 3, recorded as the page records it. */
async function recorded(keepSnapshot: boolean) {
  const name = `lab-restore-${dbs++}`;
  names.push(name);
  const errors: string[] = [];
  const rec = new LabRunRecorder((m) => errors.push(m), () => LabRunStore.open(name));
  rec.keepSnapshot = keepSnapshot;
  const a = session(cfg);
  await a.s.init();
  const view = () => ({ runId: a.status().runId, phase: a.status().phase, config: a.status().config, timeline: a.status().timeline, backend: 'tabular' });
  await a.s.step(3);
  rec.update(view(), a.frames.slice());
  await a.s.setConfig({ clipHigh: 0.4 });
  await a.s.step(3);
  rec.snapshot(await a.s.snapshot()); // held until the frames reach its step
  rec.update(view(), a.frames.slice());
  rec.traces(6, a.traces());
  await rec.flush();
  return { name, errors, rec, a };
}

describe('the lab run across a reload', () => {
  it('stores the snapshot with its size; the restored run continues bit for bit', async () => {
    const { name, errors, rec, a } = await recorded(true);
    const stored = (await loadLabRun(await open(name)))!;
    expect(stored.frames.map((f) => f.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(stored.snapshot?.step).toBe(6);
    expect(stored.record.cells[0].weights).toEqual({ step: 6, bytes: snapshotBytes(stored.snapshot!), exact: true });
    expect(stored.record.cells[0].weights!.bytes).toBeGreaterThan(0);
    expect(stored.traces).toEqual(a.traces());
    expect(stored.traces.length).toBeGreaterThan(0);
    const d = decideRestore(stored, makeConfig({ ...cfg, clipHigh: 0.4 }));
    expect(d.kind).toBe('resume');

    await a.s.step(4);
    const want = a.frames.slice(6);
    const plan = reloadPlan({ original: { config: makeConfig({ ...cfg, clipHigh: 0.4 }), prefer: 'wasm', baseUrl: '/' }, snapshot: stored.snapshot, step: 6, timeline: stored.record.cells[0].timeline, expect: stored.frames[5] });
    const b = session(plan.init.config);
    const st = await b.s.init(plan.init.fork, plan.message, plan.init.resume);
    expect(st.step).toBe(6);
    expect(st.message).toMatch(/^Restored the run stored in this browser at step 6: resumed from the weights, optimizer state and random streams saved at step 6/);
    await b.s.step(4);
    expect(det(b.frames)).toBe(det(want));
    expect(errors).toEqual([]);
    await rec.close();
  });

  it('without a kept snapshot: restarts from step 0, replays the timeline, checks, and continues bit for bit', async () => {
    const { name, rec, a } = await recorded(false);
    const stored = (await loadLabRun(await open(name)))!;
    expect(stored.snapshot).toBeNull();
    expect(stored.record.cells[0].weights).toBeUndefined();
    expect(stored.record.keepWeights).toBe(false); // the choice comes back with the run
    await a.s.step(3);
    const plan = reloadPlan({ original: { config: makeConfig({ ...cfg, clipHigh: 0.4 }), prefer: 'wasm', baseUrl: '/' }, snapshot: null, step: 6, timeline: stored.record.cells[0].timeline, expect: stored.frames[5] });
    expect(plan.init.config.clipHigh).toBe(cfg.clipHigh); // the step-0 config; 0.4 comes back from the timeline
    const b = session(plan.init.config);
    const st = await b.s.init(plan.init.fork, plan.message, plan.init.resume);
    expect(st.message).toMatch(/resumed from step 0 \(no state was saved\), then replayed steps 1–6 .* The replayed step 6 equals the stored one bit for bit\.$/);
    await b.s.step(3);
    expect(det(b.frames)).toBe(det(a.frames.slice(6)));
    await rec.close();
  });

  it('a restored record is continued, not copied', async () => {
    const { name, rec, a } = await recorded(true);
    const store = await open(name);
    const stored = (await loadLabRun(store))!;
    const again = new LabRunRecorder(() => undefined, () => LabRunStore.open(name));
    again.adopt(stored.record.id, 6, stored.frames[0]);
    const view = { runId: 7, phase: 'paused' as const, config: a.status().config, timeline: a.status().timeline, backend: 'tabular' };
    again.update({ ...view, runId: -1 }, stored.frames); // the page holds the frames while the worker starts
    again.update({ ...view, runId: 0 }, stored.frames); // the worker's first status, before its run
    await a.s.step(2);
    again.update(view, [...stored.frames, ...a.frames.slice(6)]);
    await again.flush();
    expect((await store.list()).length).toBe(1);
    again.update({ ...view, runId: 8 }, [a.frames[0]]); // a reset: a new record
    await again.flush();
    expect((await store.list()).length).toBe(2);
    expect(await store.getLabRun()).not.toBe(stored.record.id);
    // the previous run stays listed, without its snapshot (only the current run is resumed)
    expect(await store.snapshot(stored.record.id)).toBeUndefined();
    expect((await store.get(stored.record.id))?.cells[0].weights).toBeUndefined();
    expect((await store.frames(stored.record.id))[0].map((f) => f.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    await again.close();
    await rec.close();
  });
});

describe('decideRestore', () => {
  const frame = { step: 4 } as MetricsFrame;
  const stored = (patch: Partial<StoredLabRun['record']['cells'][0]> = {}, snapshot: StoredLabRun['snapshot'] = null): StoredLabRun => ({
    record: { id: 'r', name: 'lab run', kind: 'run', createdAt: 0, updatedAt: 0, keepWeights: true, spec: { version: 1, name: 'x', base: {}, variants: [], seeds: [1], steps: 10 },
      cells: [{ variant: 0, seed: 1, config: cfg, timeline: [{ step: 0, patch: cfg }, { step: 2, patch: { lr: 0.01 } }], frameCount: 1, batches: 1, step: 4, ...patch }] },
    frames: [frame], snapshot, traces: [],
  });
  const now = makeConfig({ ...cfg, lr: 0.01 });

  it('restores when the URL holds the stored run’s settings (after its live changes)', () => {
    expect(configAfter(stored().record.cells[0].timeline)).toEqual(now);
    expect(decideRestore(stored(), now).kind).toBe('resume');
  });

  it('offers (never forces) a stored run when the link asks for other settings', () => {
    const d = decideRestore(stored(), makeConfig({ ...now, seed: 9, clipHigh: 0.3 }));
    expect(d).toMatchObject({ kind: 'offer', differs: ['seed', 'clipHigh'] });
  });

  it('nothing to restore: no run, no frames, a run stopped at a non-finite metric, a fork tail without its snapshot', () => {
    expect(decideRestore(null, now).kind).toBe('none');
    expect(decideRestore({ ...stored(), frames: [] }, now).kind).toBe('none');
    expect(decideRestore(stored({ stoppedBy: 'non-finite' }), now).kind).toBe('none');
    expect(decideRestore(stored({ timeline: [{ step: 3, patch: now }] }), now).kind).toBe('none');
  });
});

describe('storage failures while recording', () => {
  it('a full disk says which steps are stored, keeps the rest pending, and stores it all once there is space', async () => {
    const { name, rec, a } = await recorded(true);
    const store = await open(name);
    const before = (await loadLabRun(store))!;
    const said: [string, string][] = [];
    const again = new LabRunRecorder((m, state) => said.push([m, state]), () => LabRunStore.open(name), undefined, { retryMs: 3_600_000 });
    again.adopt(before.record.id, 6, before.frames[0]);
    const proto = IDBObjectStore.prototype as unknown as { put: (...args: unknown[]) => unknown };
    const put = proto.put;
    proto.put = function (this: IDBObjectStore, ...args: unknown[]) {
      if (this.name === 'frames') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.apply(this, args);
    };
    const view = () => ({ runId: 7, phase: 'paused' as const, config: a.status().config, timeline: a.status().timeline, backend: 'tabular' });
    try {
      await a.s.step(2);
      again.update(view(), [...before.frames, ...a.frames.slice(6)]);
      again.snapshot(await a.s.snapshot());
      await again.flush();
      await a.s.step(1);
      again.update(view(), [...before.frames, ...a.frames.slice(6)]); // still full: waits, nothing lost
      await again.flush();
    } finally {
      proto.put = put;
    }
    expect(said).toHaveLength(1);
    expect(said[0][1]).toBe('full');
    expect(said[0][0]).toMatch(/^Browser storage is full: steps 1–6 of this run are stored; the steps after it stay in this tab and are stored as soon as there is space .*Free space in the Runs panel/);
    const whole = (await loadLabRun(store))!;
    expect(whole.frames.map((f) => f.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(whole.record.cells[0]).toMatchObject({ frameCount: 6, step: 6, weights: { step: 6 } });
    expect(whole.snapshot?.step).toBe(6); // the snapshot at 8 was never written past the frames

    again.retry(); // space again (the user freed some): every pending step goes in
    await again.flush();
    await again.flush();
    expect(said.at(-1)).toEqual(['', 'ok']);
    const after = (await loadLabRun(store))!;
    expect(after.frames.map((f) => f.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(after.snapshot?.step).toBe(8);
    await again.close();
    await rec.close();
  });

  it('a blocked or missing database is said once and nothing is restored', async () => {
    const errors: string[] = [];
    const rec = new LabRunRecorder((m) => errors.push(m), () => Promise.reject(new DOMException('blocked by another tab', 'UnknownError')));
    rec.update({ runId: 1, phase: 'paused', config: cfg, timeline: [{ step: 0, patch: cfg }], backend: 'x' }, [{ step: 1 } as MetricsFrame]);
    await rec.flush();
    expect(errors).toEqual(['storage failed while opening the run store: UnknownError: blocked by another tab This run is not stored.']);
  });
});
