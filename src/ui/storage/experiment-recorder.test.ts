// The experiments recorder on fake-indexeddb: frames in order, weights never stored ahead of the
// stored frames, one write in flight with everything else coalesced into the next, a write of
// everything pending when the page goes away (next to a write in flight, no step twice), a full disk
// that pauses and retries, and close(): what was handed over lands, nothing after it.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { scaled } from '../../../tests/support/speed';
import { makeConfig } from '../../core/config';
import type { MetricsFrame } from '../../core/metrics';
import { ExperimentRecorder } from './experiment-recorder';
import { newId } from './db';
import { ExperimentStore, type CellLanded, type CellWrite } from './experiment-store';

const frame = (step: number): MetricsFrame => ({ step, version: step, scalars: { x: step }, series: {}, ratioEdges: [], perf: {}, changes: {}, trace: [] }) as unknown as MetricsFrame;
const steps = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => frame(from + i));
const noLeave = () => () => undefined;

let n = 0;
async function stored(cells = 1, keepWeights = true): Promise<{ store: ExperimentStore; id: string }> {
  const store = await ExperimentStore.open(`recorder-${n++}`);
  const id = newId();
  const spec = { version: 1 as const, name: 'r', base: {}, variants: [{ name: 'a', patch: {} }], seeds: Array.from({ length: cells }, (_, i) => i + 1), steps: 40 };
  await store.put({ id, name: 'r', kind: 'experiment', createdAt: 0, updatedAt: 0, spec, keepWeights, cells: spec.seeds.map((seed) => ({ variant: 0, seed, config: makeConfig(), timeline: [], frameCount: 0, batches: 0, step: 0 })) });
  return { store, id };
}

/** The store with its writes held until released (a slow disk, or a tab closing mid-write). */
function held(store: ExperimentStore) {
  const calls: CellWrite[][] = [];
  const gates: (() => void)[] = [];
  let holding = true;
  return {
    calls,
    release: () => {
      holding = false;
      for (const g of gates.splice(0)) g();
    },
    /** The first write never lands (its transaction aborts with the tab); later ones go through. */
    dropFirst: () => gates.splice(0, 1),
    store: {
      async writeCells(id: string, writes: readonly CellWrite[]): Promise<CellLanded[]> {
        calls.push([...writes]);
        if (holding) await new Promise<void>((r) => gates.push(r));
        return store.writeCells(id, writes);
      },
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 5));
/** Poll a store read (a write that never lands leaves nothing to await) until it holds; fails after a limit that follows the machine. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (const t0 = Date.now(); !(await check()); await tick()) if (Date.now() - t0 > scaled(20_000)) throw new Error('the store never held what was waited for');
}

describe('ExperimentRecorder', () => {
  it('writes weights read ahead of the frames only with the frames up to their step', async () => {
    const { store, id } = await stored();
    let workerStep = 0;
    const errors: string[] = [];
    const rec = new ExperimentRecorder(store, id, { keepWeights: true, lastStep: 40, weights: async () => ({ step: workerStep, data: new Float32Array([workerStep]) }), onError: (m) => errors.push(m), leave: noLeave });
    workerStep = 7; // the worker is ahead of the frames delivered so far
    rec.frames(0, steps(1, 5), []);
    await rec.flush();
    expect((await store.withWeights(id))?.weights[0]).toBeUndefined();
    rec.frames(0, steps(6, 7), []);
    await rec.flush();
    const w = (await store.withWeights(id))?.weights[0];
    expect(w?.step).toBe(7);
    expect((await store.get(id))?.cells[0]).toMatchObject({ step: 7, weights: { step: 7, bytes: 4 } });
    expect(errors).toEqual([]);
    store.close();
  });

  it('one write in flight: every batch handed over meanwhile, of every cell, goes into the next single write', async () => {
    const { store, id } = await stored(2, false);
    const h = held(store);
    const rec = new ExperimentRecorder(h.store, id, { keepWeights: false, lastStep: 40, weights: () => Promise.reject(new Error('unused')), onError: () => undefined, leave: noLeave });
    rec.frames(0, [frame(1)], []);
    for (let s = 2; s <= 30; s++) {
      rec.frames(0, [frame(s)], []);
      rec.frames(1, [frame(s - 1)], []);
    }
    rec.stopped(1, 'done');
    expect(h.calls).toHaveLength(1); // still in flight
    h.release();
    await rec.flush();
    expect(h.calls).toHaveLength(2);
    expect(h.calls[1].map((w) => [w.cell, w.frames.length, w.stoppedBy])).toEqual([[0, 29, undefined], [1, 29, 'done']]);
    expect((await store.frames(id)).map((fs) => fs.map((f) => f.step))).toEqual([steps(1, 30).map((f) => f.step), steps(1, 29).map((f) => f.step)]);
    expect((await store.get(id))?.cells.map((c) => [c.batches, c.stoppedBy])).toEqual([[2, undefined], [1, 'done']]);
    store.close();
  });

  it('when the page goes away, everything not stored yet is written at once: a write in flight that never lands loses nothing', async () => {
    const { store, id } = await stored(1, true);
    const h = held(store);
    let leave = (): void => undefined;
    const rec = new ExperimentRecorder(h.store, id, { keepWeights: true, lastStep: 40, weights: async () => ({ step: 5, data: new Float32Array(2) }), onError: () => undefined, leave: (f) => ((leave = f), () => undefined) });
    rec.frames(0, steps(1, 3), []); // in flight, held
    rec.frames(0, steps(4, 6), []); // pending; weights read at step 6 (step 5 in the worker)
    await until(async () => h.calls.length > 0); // the first write is in flight
    h.dropFirst(); // the tab goes: the write in flight never lands
    h.release();
    leave();
    await until(async () => (await store.get(id))?.cells[0].step === 6);
    expect((await store.frames(id))[0].map((f) => f.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await store.get(id))?.cells[0]).toMatchObject({ step: 6, weights: { step: 5 } });
    store.close();
  });

  it('a page-leave write next to one that does land stores no step twice', async () => {
    const { store, id } = await stored(1, false);
    const h = held(store);
    let leave = (): void => undefined;
    const rec = new ExperimentRecorder(h.store, id, { keepWeights: false, lastStep: 40, weights: () => Promise.reject(new Error('unused')), onError: () => undefined, leave: (f) => ((leave = f), () => undefined) });
    rec.frames(0, steps(1, 3), []);
    rec.frames(0, steps(4, 5), []);
    leave(); // carries 1–5 while 1–3 is in flight
    h.release();
    await rec.flush();
    rec.frames(0, steps(6, 6), []);
    await rec.flush();
    expect((await store.frames(id))[0].map((f) => f.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await store.get(id))?.cells[0]).toMatchObject({ frameCount: 6, step: 6 });
    store.close();
  });

  it('close() lands what was handed over, then writes nothing (weights still being read are dropped)', async () => {
    const { store, id } = await stored(2, true);
    const h = held(store);
    let weightsBack: (w: { step: number; data: Float32Array }) => void = () => undefined;
    const rec = new ExperimentRecorder(h.store, id, {
      keepWeights: true, lastStep: 40, onError: () => undefined, leave: noLeave,
      weights: (cell) => (cell === 0 ? Promise.resolve({ step: 5, data: new Float32Array(1) }) : new Promise((r) => (weightsBack = r))),
    });
    rec.frames(0, steps(1, 5), []);
    rec.frames(1, steps(1, 5), []);
    await until(async () => h.calls.length > 0); // a write is in flight, held
    h.release();
    const closing = rec.close();
    rec.frames(0, steps(6, 8), []); // after close: not stored
    await closing;
    const after = await store.get(id);
    expect(after?.cells.map((c) => [c.step, c.weights?.step])).toEqual([[5, 5], [5, undefined]]);
    weightsBack({ step: 5, data: new Float32Array(1) }); // the worker answers late
    await tick();
    expect(await store.get(id)).toEqual(after);
    // a reopen that reads now (after the writer lock went) sees every stored weights usable
    const view = (await store.withWeights(id))!;
    expect(view.weights.map((w, i) => !!w && w.step <= view.rec.cells[i].step)).toEqual([true, false]);
    store.close();
  });

  it('a full disk pauses writing with a message; a retry stores every pending step in order', async () => {
    const { store, id } = await stored(1, false);
    const said: string[] = [];
    const rec = new ExperimentRecorder(store, id, { keepWeights: false, lastStep: 40, weights: () => Promise.reject(new Error('unused')), onError: (m) => said.push(m), retryMs: 3_600_000, leave: noLeave });
    rec.frames(0, steps(1, 2), []);
    await rec.flush();
    const proto = IDBObjectStore.prototype as unknown as { put: (...args: unknown[]) => unknown };
    const put = proto.put;
    proto.put = function (this: IDBObjectStore, ...args: unknown[]) {
      if (this.name === 'frames') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.apply(this, args);
    };
    try {
      rec.frames(0, steps(3, 4), []);
      rec.frames(0, steps(5, 5), []);
      await rec.flush();
    } finally {
      proto.put = put;
    }
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^Browser storage is full: the frames stored so far stay whole; 3 step\(s\) wait in this tab/);
    expect((await store.frames(id))[0].map((f) => f.step)).toEqual([1, 2]);
    rec.retry();
    await rec.flush();
    await until(async () => said.at(-1) === ''); // the message is cleared once the retry has landed
    expect((await store.frames(id))[0].map((f) => f.step)).toEqual([1, 2, 3, 4, 5]);
    store.close();
  });
});
