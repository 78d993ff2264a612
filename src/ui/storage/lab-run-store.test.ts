// The lab run store on fake-indexeddb: the upgrade that drops the snapshots older versions kept for
// every old lab run (and turns version 1's continuation steps into resumes), and only the current
// run (or one another tab writes) keeping its snapshot.
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../../core/config';
import type { LabSnapshot } from '../../../workers/lab.api';
import type { StoredExperiment } from './db';
import { ExperimentStore } from './experiment-store';
import { LabRunStore } from './lab-run-store';

function rec(id: string, kind: StoredExperiment['kind'], weights: boolean): StoredExperiment {
  const spec = { version: 1 as const, name: id, base: {}, variants: [{ name: 'run', patch: {} }], seeds: [1], steps: 10 };
  return { id, name: id, kind, createdAt: 0, updatedAt: 0, spec, keepWeights: weights, cells: [{ variant: 0, seed: 1, config: makeConfig(), timeline: [], frameCount: 0, batches: 0, step: 4, ...(weights ? { weights: { step: 4, bytes: 2_600_000, exact: true } } : {}) }] };
}
const snap = { step: 4 } as unknown as LabSnapshot;

describe('LabRunStore', () => {
  it('opening a version-1 database drops the snapshots of every lab run but the current one', async () => {
    const name = 'migrate-v1';
    // a database as version 1 left it: three lab runs and an experiment, each with its weights
    const v1 = await openDB(name, 1, {
      upgrade(d) {
        d.createObjectStore('experiments', { keyPath: 'id' });
        for (const s of ['frames', 'traces', 'weights', 'meta']) d.createObjectStore(s);
      },
    });
    for (const id of ['old-1', 'old-2', 'current']) {
      await v1.put('experiments', rec(id, 'run', true));
      await v1.put('weights', { step: 4, snapshot: snap }, [id, 0]);
    }
    const exp = rec('exp', 'experiment', true);
    await v1.put('experiments', { ...exp, cells: [{ ...exp.cells[0], continuedAt: [3] }] });
    await v1.put('weights', { step: 4, data: new Float32Array(3) }, ['exp', 0]);
    await v1.put('meta', 'current', 'lab-run');
    v1.close();

    const store = await LabRunStore.open(name);
    for (const id of ['old-1', 'old-2']) {
      expect(await store.snapshot(id)).toBeUndefined();
      expect((await store.get(id))?.cells[0].weights).toBeUndefined();
      expect((await store.get(id))?.keepWeights).toBe(false);
    }
    expect(await store.snapshot('current')).toEqual(snap);
    expect((await store.get('current'))?.cells[0].weights?.bytes).toBe(2_600_000);
    store.close();
    // an experiment's weights are the user's choice ("keep latest weights"): they stay
    const experiments = await ExperimentStore.open(name);
    expect((await experiments.withWeights('exp'))?.weights[0]?.data.length).toBe(3);
    // version 1's continuation steps are resumes from weights (not bit for bit), as bundles export them
    const cell = (await experiments.get('exp'))!.cells[0];
    expect(cell.resumed).toEqual([{ step: 3, exact: false, from: 'stored weights' }]);
    expect(cell).not.toHaveProperty('continuedAt');
    experiments.close();
  });

  it('a new lab run drops the other runs’ snapshots, except a run another tab writes', async () => {
    const store = await LabRunStore.open('drop-others');
    for (const id of ['a', 'b', 'busy', 'new']) await store.write({ record: rec(id, 'run', true), snapshot: snap });
    await store.dropOtherSnapshots('new', new Set(['busy']));
    expect(await store.snapshot('a')).toBeUndefined();
    expect(await store.snapshot('b')).toBeUndefined();
    expect(await store.snapshot('busy')).toEqual(snap);
    expect(await store.snapshot('new')).toEqual(snap);
    expect((await store.get('a'))?.cells[0].weights).toBeUndefined();
    store.close();
  });
});
