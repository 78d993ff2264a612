/**
 * The lab's own runs in the shared database: a one-cell record of kind 'run', written by the one tab
 * that holds the run's writer lock (writer-lock.ts), its latest snapshot (weights, optimizer state,
 * RNG positions) for an exact resume, the traces of the steps the user opened, and which record a
 * reload restores (meta 'lab-run'). Only the current run keeps its snapshot: the others' are dropped.
 */
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import type { LabSnapshot } from '../../../workers/lab.api';
import { guarded, idRange, type StoredExperiment } from './db';
import { RecordStore } from './records';

/** Bytes of the typed arrays in a snapshot (weights, moments, base, rollout copies). */
export function snapshotBytes(s: LabSnapshot): number {
  const e = s.run.engine;
  return s.base.byteLength + e.trainer.byteLength + e.handles.reduce((n, h) => n + h.weights.byteLength, 0);
}

/** One write of a lab run: the record as its writer holds it, and what goes with it. */
export interface LabRunWrite {
  record: StoredExperiment;
  /** Frames under key [id, 0, batch]; a later write may put a longer batch under the same key. */
  batch?: { index: number; frames: MetricsFrame[] };
  snapshot?: LabSnapshot;
  traces?: { step: number; traces: SampleTrace[] };
  /** Make this record the one a reload restores. */
  current?: boolean;
  /** Delete the stored snapshot ("keep state" unticked). */
  dropSnapshot?: boolean;
}

export class LabRunStore extends RecordStore {
  /**
   * Everything of one write in ONE transaction. Every request is issued and the transaction
   * committed before this returns (no read in between), so it needs nothing more of the page: a
   * write started in `pagehide` lands.
   */
  write(w: LabRunWrite): Promise<void> {
    const { record } = w;
    const doing = 'storing the lab run';
    let tx;
    try {
      tx = this.db.transaction(['experiments', 'frames', 'weights', 'traces', 'meta'], 'readwrite');
    } catch (e) {
      return guarded(doing, () => Promise.reject(e));
    }
    const id = record.id;
    return guarded(doing, async () => {
      if (w.batch) void tx.objectStore('frames').put(w.batch.frames, [id, 0, w.batch.index]);
      if (w.snapshot) void tx.objectStore('weights').put({ step: w.snapshot.step, snapshot: w.snapshot }, [id, 0]);
      else if (w.dropSnapshot) void tx.objectStore('weights').delete([id, 0]);
      if (w.traces) void tx.objectStore('traces').put(w.traces.traces, [id, 0, w.traces.step]);
      if (w.current) void tx.objectStore('meta').put(id, 'lab-run');
      void tx.objectStore('experiments').put(record);
      tx.commit();
      await tx.done;
    });
  }

  /** Drop the snapshots of the lab runs that are neither `keep` nor written by a tab now (`busy`). */
  async dropOtherSnapshots(keep: string, busy: ReadonlySet<string>): Promise<void> {
    await guarded('dropping old snapshots', async () => {
      const tx = this.db.transaction(['experiments', 'weights'], 'readwrite');
      const records = tx.objectStore('experiments');
      for (const rec of await records.getAll()) {
        if (rec.kind !== 'run' || rec.id === keep || busy.has(rec.id) || !rec.cells.some((c) => c.weights)) continue;
        void tx.objectStore('weights').delete(idRange(rec.id));
        for (const c of rec.cells) delete c.weights;
        rec.keepWeights = false;
        void records.put(rec);
      }
      await tx.done;
    });
  }

  snapshot(id: string): Promise<LabSnapshot | undefined> {
    return guarded('reading the stored run state', async () => (await this.db.get('weights', [id, 0]))?.snapshot);
  }

  traces(id: string, step: number): Promise<SampleTrace[] | undefined> {
    return guarded('reading stored traces', () => this.db.get('traces', [id, 0, step]));
  }

  /** The record the lab's own run is stored in (restored after a reload); null: none. */
  setLabRun(id: string | null): Promise<void> {
    return this.setMeta('lab-run', id, "remembering the lab's run");
  }

  getLabRun(): Promise<string | null> {
    return this.getMeta('lab-run', "reading the lab's run");
  }
}
