// The experiment store (and the records every kind shares) on fake-indexeddb: round trip, one transaction per batch (a failed batch leaves the
// stored run whole), delete/rename, weights with their size, a blocked upgrade as a clear error.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { makeConfig } from '../../core/config';
import type { MetricsFrame } from '../../core/metrics';
import { StoreError, newId, storeError, type StoredExperiment } from './db';
import { ExperimentStore, type CellWrite } from './experiment-store';

let dbCount = 0;
const opened: ExperimentStore[] = [];
async function fresh(): Promise<{ store: ExperimentStore; name: string }> {
  const name = `test-${dbCount++}`;
  const store = await ExperimentStore.open(name);
  opened.push(store);
  return { store, name };
}
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

const frame = (step: number, v: number): MetricsFrame =>
  ({ step, version: step, scalars: { 'support/token_entropy': v }, series: {}, ratioEdges: [], perf: {}, changes: {}, trace: [] }) as unknown as MetricsFrame;

const append = (store: ExperimentStore, id: string, cell: number, frames: MetricsFrame[], update: Omit<CellWrite, 'cell' | 'frames'> = {}) => store.writeCells(id, [{ cell, frames, ...update }]);

function record(id: string, cells = 2): StoredExperiment {
  const spec = { version: 1 as const, name: 'exp', base: {}, variants: [{ name: 'a', patch: {} }], seeds: Array.from({ length: cells }, (_, i) => i + 1), steps: 10 };
  return {
    id, name: 'exp', kind: 'experiment', createdAt: 1, updatedAt: 1, spec, keepWeights: true,
    cells: spec.seeds.map((seed) => ({ variant: 0, seed, config: makeConfig({ seed }), timeline: [], frameCount: 0, batches: 0, step: 0 })),
  };
}

describe('ExperimentStore', () => {
  it('stores batches per cell and reads them back in step order', async () => {
    const { store } = await fresh();
    const id = newId();
    await store.put(record(id));
    await append(store, id, 0, [frame(1, 0.1), frame(2, 0.2)]);
    await append(store, id, 1, [frame(1, 1.1)]);
    await append(store, id, 0, [frame(3, 0.3)], { timeline: [{ step: 2, patch: { lr: 0.1 } }], stoppedBy: 'done' });
    const frames = await store.frames(id);
    expect(frames.map((fs) => fs.map((f) => f.step))).toEqual([[1, 2, 3], [1]]);
    expect(frames[0][2].scalars['support/token_entropy']).toBe(0.3);
    const rec = await store.get(id);
    expect(rec?.cells[0]).toMatchObject({ frameCount: 3, batches: 2, step: 3, stoppedBy: 'done', timeline: [{ step: 2, patch: { lr: 0.1 } }] });
    expect(rec?.cells[1]).toMatchObject({ frameCount: 1, batches: 1, step: 1 });
  });

  it('a batch that fails to write leaves frames and counters as they were (one transaction)', async () => {
    const { store } = await fresh();
    const id = newId();
    await store.put(record(id));
    await append(store, id, 0, [frame(1, 0.1)]);
    // A function cannot be cloned: the frames put throws inside the transaction, which aborts.
    const bad = { ...frame(2, 0.2), scalars: { x: (() => 0) as unknown as number } } as unknown as MetricsFrame;
    await expect(append(store, id, 0, [bad])).rejects.toBeInstanceOf(StoreError);
    const rec = await store.get(id);
    expect(rec?.cells[0]).toMatchObject({ frameCount: 1, batches: 1, step: 1 });
    expect((await store.frames(id))[0].map((f) => f.step)).toEqual([1]);
  });

  it('writeCells takes only frames past a cell\'s stored step, and weights only where the stored frames reach them', async () => {
    const { store } = await fresh();
    const id = newId();
    await store.put(record(id));
    await store.writeCells(id, [{ cell: 0, frames: [frame(1, 0), frame(2, 0), frame(3, 0)] }]);
    // the same frames again plus two new ones (a page-leave write next to one that landed), weights ahead of the curve
    const landed = await store.writeCells(id, [
      { cell: 0, frames: [1, 2, 3, 4, 5].map((s) => frame(s, 1)), weights: { step: 6, data: new Float32Array(1) } },
      { cell: 1, frames: [frame(1, 2)], weights: { step: 1, data: new Float32Array(2) } },
    ]);
    expect(landed).toEqual([{ cell: 0, step: 5, weightsStep: 0 }, { cell: 1, step: 1, weightsStep: 1 }]);
    expect((await store.frames(id)).map((fs) => fs.map((f) => [f.step, f.scalars['support/token_entropy']]))).toEqual([[[1, 0], [2, 0], [3, 0], [4, 1], [5, 1]], [[1, 2]]]);
    const { rec, weights } = (await store.withWeights(id))!;
    expect(rec.cells.map((c) => [c.frameCount, c.batches, c.step, c.weights?.step])).toEqual([[5, 2, 5, undefined], [1, 1, 1, 1]]);
    expect(weights.map((w) => w?.data.length)).toEqual([undefined, 2]);
  });

  it('writing to a deleted run is an error that names it', async () => {
    const { store } = await fresh();
    await expect(append(store, 'nope', 0, [frame(1, 0)])).rejects.toThrow(/no stored run nope/);
  });

  it('keeps the latest weights with their size, drops them on request', async () => {
    const { store } = await fresh();
    const id = newId();
    await store.put(record(id));
    await store.writeCells(id, [{ cell: 1, frames: [frame(5, 0)], weights: { step: 5, data: new Float32Array([1, 2, 3]) } }]);
    await store.writeCells(id, [{ cell: 1, frames: [frame(7, 0)], weights: { step: 7, data: new Float32Array([4, 5, 6, 7]) } }]);
    const w = (await store.withWeights(id))?.weights[1];
    expect(w?.step).toBe(7);
    expect(Array.from(w!.data)).toEqual([4, 5, 6, 7]);
    expect((await store.get(id))?.cells[1].weights).toEqual({ step: 7, bytes: 16 });
    await store.dropWeights(id);
    expect((await store.withWeights(id))?.weights[1]).toBeUndefined();
    expect((await store.get(id))?.cells[1].weights).toBeUndefined();
  });

  it('renames, lists newest first, deletes everything under an id, remembers the open one', async () => {
    const { store } = await fresh();
    const a = newId(1);
    const b = newId(2);
    await store.put({ ...record(a), updatedAt: 10 });
    await store.put({ ...record(b), updatedAt: 20 });
    await append(store, a, 0, [frame(1, 0)]);
    await store.writeCells(a, [{ cell: 0, frames: [], weights: { step: 1, data: new Float32Array(2) } }]);
    await store.rename(b, '  clip-higher  ');
    await expect(store.rename(b, '   ')).rejects.toThrow(/non-empty name/);
    await store.setOpen(a);
    expect((await store.list()).map((r) => r.id)).toEqual([a, b]); // a was just updated by writeCells
    expect((await store.get(b))?.name).toBe('clip-higher');
    await store.delete(a);
    expect((await store.list()).map((r) => r.id)).toEqual([b]);
    expect(await store.withWeights(a)).toBeUndefined();
    expect(await store.getOpen()).toBeNull();
    await expect(store.frames(a)).rejects.toThrow(/no stored run/);
  });

  it('resetCell clears one cell for a restart from step 0', async () => {
    const { store } = await fresh();
    const id = newId();
    await store.put(record(id));
    await append(store, id, 0, [frame(1, 0)]);
    await append(store, id, 1, [frame(1, 1)]);
    await store.resetCell(id, 0, [{ step: 0, patch: {} }]);
    const frames = await store.frames(id);
    expect(frames.map((f) => f.length)).toEqual([0, 1]);
    expect((await store.get(id))?.cells[0]).toMatchObject({ frameCount: 0, batches: 0, step: 0 });
  });

  it('truncateCell keeps frames up to the weights step and notes the continuation', async () => {
    const { store } = await fresh();
    const id = newId();
    await store.put(record(id));
    await append(store, id, 1, [frame(1, 0), frame(2, 0)]);
    await append(store, id, 1, [frame(3, 0), frame(4, 0)]);
    await store.truncateCell(id, 1, 3);
    expect((await store.frames(id))[1].map((f) => f.step)).toEqual([1, 2, 3]);
    expect((await store.get(id))?.cells[1]).toMatchObject({ frameCount: 3, batches: 1, step: 3, resumed: [{ step: 3, exact: false, from: 'stored weights' }] });
    await append(store, id, 1, [frame(4, 1)]);
    expect((await store.frames(id))[1].map((f) => f.scalars['support/token_entropy'])).toEqual([0, 0, 0, 1]);
  });

  it('putWhole stores a record and all its frames or nothing', async () => {
    const { store } = await fresh();
    const id = newId();
    await store.putWhole(record(id), [[frame(1, 0), frame(2, 0)], [frame(1, 1)]]);
    expect((await store.frames(id)).map((f) => f.length)).toEqual([2, 1]);
    const bad = [[frame(1, 0)], [{ ...frame(1, 0), scalars: { x: (() => 0) as unknown as number } } as unknown as MetricsFrame]];
    const id2 = newId();
    await expect(store.putWhole(record(id2), bad)).rejects.toBeInstanceOf(StoreError);
    expect(await store.get(id2)).toBeUndefined();
    expect((await store.list()).map((r) => r.id)).toEqual([id]);
  });

  it('an upgrade blocked by another open connection is a clear error, not a hang', async () => {
    const name = `blocked-${dbCount++}`;
    // An "old tab": a raw connection that ignores versionchange and never closes.
    const old = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(name, 1);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const err = await ExperimentStore.open(name, 3).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).kind).toBe('blocked');
    expect((err as Error).message).toMatch(/another tab/);
    old.close();
  });

  it('quota errors become a message that says nothing of the batch was saved', async () => {
    const e = storeError(new DOMException('exceeded', 'QuotaExceededError'), 'saving frames');
    expect(e.kind).toBe('quota');
    expect(e.message).toMatch(/storage is full.*nothing of this batch was saved/);
  });
});
