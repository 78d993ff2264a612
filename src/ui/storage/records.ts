/**
 * What every stored run has, whatever its kind (a lab run, an experiment, an imported bundle): the
 * record (spec, per cell config, seed, timeline, counters) and its frames in batches. A batch is
 * written in ONE transaction with the record's counters, so a reader never sees a half-written run
 * (a failed batch — quota, a closed tab — leaves the previous state whole). The Runs panel works on
 * these (list, rename, delete, drop weights); the stores per kind extend them.
 */
import type { MetricsFrame } from '../../core/metrics';
import { DB_NAME, StoreError, cellRange, guarded, idRange, openLabDb, type LabDatabase, type StoredExperiment } from './db';

export class RecordStore {
  constructor(protected readonly db: LabDatabase) {}

  /** Open the shared database as a store of this kind. */
  static async open<S extends RecordStore>(this: new (db: LabDatabase) => S, name = DB_NAME, version?: number): Promise<S> {
    return new this(await openLabDb(name, version));
  }

  close(): void {
    this.db.close();
  }

  list(): Promise<StoredExperiment[]> {
    return guarded('listing the stored runs', async () => (await this.db.getAll('experiments')).sort((a, b) => b.updatedAt - a.updatedAt));
  }

  get(id: string): Promise<StoredExperiment | undefined> {
    return guarded('reading a stored run', () => this.db.get('experiments', id));
  }

  /** Create or replace the record only (frames stay). */
  async put(rec: StoredExperiment): Promise<void> {
    await guarded(`saving "${rec.name}"`, () => this.db.put('experiments', rec));
  }

  /** Every stored frame of every cell, in step order per cell. */
  frames(id: string): Promise<MetricsFrame[][]> {
    return guarded('reading stored frames', async () => {
      const rec = await this.db.get('experiments', id);
      if (!rec) throw new StoreError(`no stored run ${id}`, 'missing');
      const tx = this.db.transaction('frames');
      const out = await Promise.all(rec.cells.map(async (_, i) => (await tx.store.getAll(cellRange(id, i))).flat()));
      await tx.done;
      return out;
    });
  }

  /** Drop every cell's stored weights (frees space; the run then restarts instead of continuing). */
  async dropWeights(id: string): Promise<void> {
    await guarded('dropping weights', async () => {
      const tx = this.db.transaction(['experiments', 'weights'], 'readwrite');
      const rec = await tx.objectStore('experiments').get(id);
      if (!rec) return;
      void tx.objectStore('weights').delete(idRange(id));
      for (const c of rec.cells) delete c.weights;
      rec.keepWeights = false;
      void tx.objectStore('experiments').put(rec);
      await tx.done;
    });
  }

  async rename(id: string, name: string): Promise<void> {
    const trimmed = name.trim();
    if (!trimmed) throw new StoreError('a run needs a non-empty name', 'failed');
    await guarded('renaming', async () => {
      const tx = this.db.transaction('experiments', 'readwrite');
      const rec = await tx.store.get(id);
      if (!rec) throw new StoreError(`no stored run ${id}`, 'missing');
      rec.name = trimmed;
      void tx.store.put(rec);
      await tx.done;
    });
  }

  /** The record and everything under its id, in one transaction. */
  async delete(id: string): Promise<void> {
    await guarded('deleting', async () => {
      const tx = this.db.transaction(['experiments', 'frames', 'traces', 'weights', 'meta'], 'readwrite');
      void tx.objectStore('experiments').delete(id);
      void tx.objectStore('frames').delete(idRange(id));
      void tx.objectStore('traces').delete(idRange(id));
      void tx.objectStore('weights').delete(idRange(id));
      const meta = tx.objectStore('meta');
      for (const key of ['open', 'lab-run']) if ((await meta.get(key)) === id) void meta.delete(key);
      await tx.done;
    });
  }

  /** A meta value (which experiment is open, which record is the lab's run); null: none. */
  protected async getMeta(key: string, doing: string): Promise<string | null> {
    return guarded(doing, async () => (await this.db.get('meta', key)) ?? null);
  }

  protected async setMeta(key: string, id: string | null, doing: string): Promise<void> {
    await guarded(doing, async () => {
      if (id === null) await this.db.delete('meta', key);
      else await this.db.put('meta', id, key);
    });
  }
}
