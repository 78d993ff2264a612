/**
 * Experiments (variants x seeds) and imported bundles in the shared database: each cell's latest
 * weights (optional, for a continue after a reload), a cell's restart or continuation, a bundle
 * stored whole, and which experiment is open on the experiments page.
 */
import type { TimelineEntry } from '../../core/loop';
import type { MetricsFrame } from '../../core/metrics';
import { StoreError, cellRange, guarded, type StoredExperiment } from './db';
import { RecordStore } from './records';

/** What the experiments recorder writes of one cell in one transaction (see writeCells). */
export interface CellWrite {
  cell: number;
  /** Frames in step order; those at or below the cell's stored step are stored already and skipped. */
  frames: readonly MetricsFrame[];
  timeline?: TimelineEntry[];
  stoppedBy?: string;
  engine?: string;
  /** The cell's latest weights: stored only where its stored frames reach their step. */
  weights?: { step: number; data: Float32Array };
}

/** What a cell has stored after a writeCells: its last frame's step and its weights' step (0: none). */
export interface CellLanded {
  cell: number;
  step: number;
  weightsStep: number;
}

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

  /**
   * Several cells' frames, settings, stop reasons and weights in ONE transaction. Writing the same
   * frames again is harmless (each cell takes only frames past its stored step), so a write issued
   * while another is in flight (the page going away) may carry that one's frames too: whichever of
   * them lands, the curve has no gap and no step twice. Weights never point past the stored curve.
   */
  async writeCells(id: string, writes: readonly CellWrite[]): Promise<CellLanded[]> {
    return guarded(`saving frames of "${id}"`, async () => {
      const tx = this.db.transaction(['experiments', 'frames', 'weights'], 'readwrite');
      const rec = await tx.objectStore('experiments').get(id);
      if (!rec) throw new StoreError(`no stored run ${id} (deleted?)`, 'missing');
      const landed = writes.map((w): CellLanded => {
        const c = rec.cells[w.cell];
        if (!c) throw new StoreError(`stored run ${id} has no cell ${w.cell}`, 'missing');
        const news = w.frames.filter((f) => f.step > c.step);
        if (news.length) {
          void tx.objectStore('frames').put(news, [id, w.cell, c.batches]);
          c.batches++;
          c.frameCount += news.length;
          c.step = news[news.length - 1].step;
        }
        if (w.timeline) c.timeline = w.timeline;
        if (w.stoppedBy !== undefined) c.stoppedBy = w.stoppedBy;
        if (w.engine !== undefined) c.engine = w.engine;
        // (weights already stored at that step or later, e.g. by the other of two writes, are not written again)
        if (w.weights && w.weights.step <= c.step && w.weights.step > (c.weights?.step ?? 0)) {
          void tx.objectStore('weights').put({ step: w.weights.step, data: w.weights.data }, [id, w.cell]);
          c.weights = { step: w.weights.step, bytes: w.weights.data.byteLength };
        }
        return { cell: w.cell, step: c.step, weightsStep: c.weights?.step ?? 0 };
      });
      rec.updatedAt = Date.now();
      void tx.objectStore('experiments').put(rec);
      await tx.done;
      return landed;
    });
  }

  /**
   * The record with each cell's stored weights, read in ONE transaction (a consistent view to decide
   * which cells continue from their weights); undefined: no such record.
   */
  withWeights(id: string): Promise<{ rec: StoredExperiment; weights: ({ step: number; data: Float32Array } | undefined)[] } | undefined> {
    return guarded('reading a stored run and its weights', async () => {
      const tx = this.db.transaction(['experiments', 'weights']);
      const rec = await tx.objectStore('experiments').get(id);
      if (!rec) return undefined;
      const store = tx.objectStore('weights');
      const weights = await Promise.all(rec.cells.map(async (c, i) => {
        const w = rec.keepWeights && c.weights ? await store.get([id, i]) : undefined;
        return w?.data ? { step: w.step, data: w.data } : undefined;
      }));
      await tx.done;
      return { rec, weights };
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
