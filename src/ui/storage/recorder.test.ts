// The recorder on fake-indexeddb: frames in order, weights never stored ahead of the stored frames.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../../core/config';
import type { MetricsFrame } from '../../core/metrics';
import { Recorder } from './recorder';
import { newId } from './db';
import { ExperimentStore } from './experiment-store';

const frame = (step: number): MetricsFrame => ({ step, version: step, scalars: { x: step }, series: {}, ratioEdges: [], perf: {}, changes: {}, trace: [] }) as unknown as MetricsFrame;

describe('Recorder', () => {
  it('writes weights read ahead of the frames only after the frames up to their step', async () => {
    const store = await ExperimentStore.open('recorder-test');
    const id = newId();
    const spec = { version: 1 as const, name: 'r', base: {}, variants: [{ name: 'a', patch: {} }], seeds: [1], steps: 20 };
    await store.put({ id, name: 'r', kind: 'experiment', createdAt: 0, updatedAt: 0, spec, keepWeights: true, cells: [{ variant: 0, seed: 1, config: makeConfig(), timeline: [], frameCount: 0, batches: 0, step: 0 }] });
    let workerStep = 0;
    const errors: string[] = [];
    const rec = new Recorder(store, id, { keepWeights: true, lastStep: 20, weights: async () => ({ step: workerStep, data: new Float32Array([workerStep]) }), onError: (m) => errors.push(m) });
    workerStep = 7; // the worker is ahead of the frames delivered so far
    rec.frames(0, [1, 2, 3, 4, 5].map(frame), []);
    await new Promise((r) => setTimeout(r, 20));
    await rec.flush();
    expect(await store.weights(id, 0)).toBeUndefined();
    rec.frames(0, [6, 7].map(frame), []);
    await rec.flush();
    const w = await store.weights(id, 0);
    expect(w?.step).toBe(7);
    expect((await store.get(id))?.cells[0]).toMatchObject({ step: 7, weights: { step: 7, bytes: 4 } });
    expect(errors).toEqual([]);
    store.close();
  });

  it('a full disk pauses the queue with a message; a retry stores every waiting batch in order', async () => {
    const store = await ExperimentStore.open('recorder-full');
    const id = newId();
    const spec = { version: 1 as const, name: 'r', base: {}, variants: [{ name: 'a', patch: {} }], seeds: [1], steps: 20 };
    await store.put({ id, name: 'r', kind: 'experiment', createdAt: 0, updatedAt: 0, spec, keepWeights: false, cells: [{ variant: 0, seed: 1, config: makeConfig(), timeline: [], frameCount: 0, batches: 0, step: 0 }] });
    const said: string[] = [];
    const rec = new Recorder(store, id, { keepWeights: false, lastStep: 20, weights: () => Promise.reject(new Error('unused')), onError: (m) => said.push(m), retryMs: 3_600_000 });
    rec.frames(0, [1, 2].map(frame), []);
    await rec.flush();
    const proto = IDBObjectStore.prototype as unknown as { put: (...args: unknown[]) => unknown };
    const put = proto.put;
    proto.put = function (this: IDBObjectStore, ...args: unknown[]) {
      if (this.name === 'frames') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.apply(this, args);
    };
    try {
      rec.frames(0, [3, 4].map(frame), []);
      rec.frames(0, [5].map(frame), []);
      await rec.flush();
    } finally {
      proto.put = put;
    }
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^Browser storage is full: the frames stored so far stay whole; 2 write\(s\) wait in this tab/);
    expect((await store.frames(id))[0].map((f) => f.step)).toEqual([1, 2]);
    rec.retry();
    await rec.flush();
    await rec.flush();
    expect(said.at(-1)).toBe('');
    expect((await store.frames(id))[0].map((f) => f.step)).toEqual([1, 2, 3, 4, 5]);
    store.close();
  });
});
