/**
 * Experiments (variants x seeds) and imported bundles in the shared database: each cell's latest
 * weights (optional, for a continue after a reload), a cell's restart or continuation, a bundle
 * stored whole, and which experiment is open on the experiments page.
 */
import type { TimelineEntry } from '../../core/loop';
import type { MetricsFrame } from '../../core/metrics';
import { StoreError, cellRange, guarded, type StoredExperiment } from './db';
import { RecordStore } from './records';

export class ExperimentStore extends RecordStore {
  /** Replace the stored frames of one cell (e.g. a restart from step 0) in one transaction. */
  async resetCell(id: string, cell: number, timeline: TimelineEntry[]): Promise<void> {
    await guarded('clearing a cell for its restart', async () => {
      const tx = this.db.transaction(['experiments', 'frames', 'weights', 'traces'], 'readwrite');
      const rec = await tx.objectStore('experiments').get(id);
      if (!rec) throw new StoreError(`no stored run ${id}`, 'missing');
      void tx.objectStore('frames').delete(cellRange(id, cell));
      void tx.objectStore('traces').delete(cellRange(id, cell));
      void tx.objectStore('weights').delete([id, cell]);
      Object.assign(rec.cells[cell], { timeline, frameCount: 0, batches: 0, step: 0, stoppedBy: undefined, weights: undefined });
      rec.updatedAt = Date.now();
      void tx.objectStore('experiments').put(rec);
      await tx.done;
    });
  }

  /**
   * Keep a cell's frames up to `step` only (its weights' step, before training continues from
   * them) and note the continuation (fresh optimizer moments and random streams: not bit for bit),
   * in one transaction.
   */
  async truncateCell(id: string, cell: number, step: number): Promise<void> {
    await guarded('preparing a cell to continue', async () => {
      const tx = this.db.transaction(['experiments', 'frames'], 'readwrite');
      const rec = await tx.objectStore('experiments').get(id);
      if (!rec) throw new StoreError(`no stored run ${id}`, 'missing');
      const frames = tx.objectStore('frames');
      const kept = (await frames.getAll(cellRange(id, cell))).flat().filter((f) => f.step <= step);
      void frames.delete(cellRange(id, cell));
      if (kept.length) void frames.put(kept, [id, cell, 0]);
      const c = rec.cells[cell];
      Object.assign(c, { batches: kept.length ? 1 : 0, frameCount: kept.length, step: kept.at(-1)?.step ?? 0, resumed: [...(c.resumed ?? []), { step, exact: false, from: 'stored weights' }] });
      c.timeline = c.timeline.filter((e) => e.step <= step);
      void tx.objectStore('experiments').put(rec);
      await tx.done;
    });
  }

  /** The latest weights of a cell (replacing older ones), with their size on the record. */
  async saveWeights(id: string, cell: number, step: number, data: Float32Array): Promise<void> {
    await guarded('saving weights', async () => {
      const tx = this.db.transaction(['experiments', 'weights'], 'readwrite');
      const rec = await tx.objectStore('experiments').get(id);
      if (!rec) throw new StoreError(`no stored run ${id}`, 'missing');
      void tx.objectStore('weights').put({ step, data }, [id, cell]);
      rec.cells[cell].weights = { step, bytes: data.byteLength };
      void tx.objectStore('experiments').put(rec);
      await tx.done;
    });
  }

  weights(id: string, cell: number): Promise<{ step: number; data: Float32Array } | undefined> {
    return guarded('reading stored weights', async () => {
      const w = await this.db.get('weights', [id, cell]);
      return w?.data ? { step: w.step, data: w.data } : undefined;
    });
  }

  /**
   * A complete record with all its frames in ONE transaction (an imported bundle): either all of it
   * is stored or none.
   */
  async putWhole(rec: StoredExperiment, frames: MetricsFrame[][]): Promise<void> {
    await guarded(`storing "${rec.name}"`, async () => {
      const tx = this.db.transaction(['experiments', 'frames'], 'readwrite');
      const cells = rec.cells.map((c, i) => ({ ...c, batches: frames[i]?.length ? 1 : 0, frameCount: frames[i]?.length ?? 0, step: frames[i]?.at(-1)?.step ?? 0 }));
      frames.forEach((fs, i) => {
        if (fs.length) void tx.objectStore('frames').put(fs, [rec.id, i, 0]);
      });
      void tx.objectStore('experiments').put({ ...rec, cells });
      await tx.done;
    });
  }

  /** The experiment open on the experiments page (restored on reload). */
  setOpen(id: string | null): Promise<void> {
    return this.setMeta('open', id, 'remembering the open experiment');
  }

  getOpen(): Promise<string | null> {
    return this.getMeta('open', 'reading the open experiment');
  }
}
