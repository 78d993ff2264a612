/**
 * Runs that survive a reload: every experiment (a single lab run is an experiment of one cell) in
 * IndexedDB through `idb`. A record holds the spec and, per cell, config, seed, timeline and how
 * many frame batches are stored; frames go in batches, each batch written in ONE transaction with
 * the record's counters, so a reader never sees a half-written run (a failed batch — quota, a
 * closed tab — leaves the previous state whole). Opened traces and optional latest weights sit in
 * their own stores under the same id. Errors come out as StoreError with a message for people.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Config } from '../../core/config';
import type { ExperimentSpec } from '../../core/experiment/spec';
import type { TimelineEntry } from '../../core/loop';
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import type { LabSnapshot } from '../../../workers/lab.api';

export const DB_NAME = 'invariant-lab';
export const DB_VERSION = 1;

export interface StoredCell {
  variant: number;
  seed: number;
  config: Config;
  timeline: TimelineEntry[];
  /** Frames stored (in `batches` batches); the last one's step. */
  frameCount: number;
  batches: number;
  step: number;
  stoppedBy?: string;
  /** Engine backend that trained it ('wasm', 'webgpu'): bit-for-bit reproduction holds per engine. */
  engine?: string;
  /** Steps at which training continued from stored weights after a reload (no longer bit-for-bit). */
  continuedAt?: number[];
  /** Latest weights (or a lab run's whole snapshot) kept for this cell (bytes shown in the Runs panel). */
  weights?: { step: number; bytes: number; exact?: boolean };
}

export interface StoredExperiment {
  id: string;
  name: string;
  /** 'run': a lab run recorded as it trained; 'experiment': variants x seeds; 'imported': a bundle. */
  kind: 'run' | 'experiment' | 'imported';
  createdAt: number;
  updatedAt: number;
  spec: ExperimentSpec;
  cells: StoredCell[];
  keepWeights: boolean;
  /** Code version of an imported bundle. */
  codeVersion?: string;
}

interface LabDb extends DBSchema {
  experiments: { key: string; value: StoredExperiment };
  /** key [id, cell, batch] */
  frames: { key: [string, number, number]; value: MetricsFrame[] };
  /** key [id, cell, step] */
  traces: { key: [string, number, number]; value: SampleTrace[] };
  /** key [id, cell]: a cell's latest weights, or a lab run's whole snapshot (weights, optimizer state, RNG positions). */
  weights: { key: [string, number]; value: { step: number; data?: Float32Array; snapshot?: LabSnapshot } };
  meta: { key: string; value: string };
}

export class StoreError extends Error {
  constructor(
    message: string,
    readonly kind: 'quota' | 'blocked' | 'unavailable' | 'missing' | 'failed',
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

/** A DOMException or idb failure as a StoreError saying what happened and what to do. */
export function storeError(e: unknown, doing: string): StoreError {
  if (e instanceof StoreError) return e;
  const name = (e as { name?: string } | null)?.name ?? '';
  const msg = e instanceof Error ? e.message : String(e);
  if (name === 'QuotaExceededError' || /quota/i.test(msg)) {
    return new StoreError(`browser storage is full while ${doing}: nothing of this batch was saved (the stored run stays as it was). Delete old runs or their weights in the Runs panel.`, 'quota');
  }
  return new StoreError(`storage failed while ${doing}: ${name ? `${name}: ` : ''}${msg}`, 'failed');
}

/** Bytes of the typed arrays in a snapshot (weights, moments, base, rollout copies). */
export function snapshotBytes(s: LabSnapshot): number {
  const e = s.run.engine;
  return s.base.byteLength + e.trainer.byteLength + e.handles.reduce((n, h) => n + h.weights.byteLength, 0);
}

/** Id of a new record: time + a random suffix (ids only need to be unique in this browser). */
export function newId(now = Date.now()): string {
  return `${now.toString(36)}-${Math.floor(Math.random() * 36 ** 6).toString(36).padStart(6, '0')}`;
}

const cellRange = (id: string, cell: number) => IDBKeyRange.bound([id, cell, -Infinity], [id, cell, Infinity]);
const idRange = (id: string) => IDBKeyRange.bound([id], [id, []]);

export class RunStore {
  private constructor(private readonly db: IDBPDatabase<LabDb>) {}

  /**
   * Open (or create) the database. A tab holding an older version blocks the upgrade: that is an
   * error at once (never a silent hang), and this connection closes itself when it blocks another.
   */
  static async open(name = DB_NAME, version = DB_VERSION): Promise<RunStore> {
    if (!(globalThis as { indexedDB?: IDBFactory }).indexedDB) throw new StoreError('this browser offers no IndexedDB (private mode?): runs will not survive a reload', 'unavailable');
    let db: IDBPDatabase<LabDb> | null = null;
    let onBlocked = (): void => undefined;
    const blocked = new Promise<never>((_, reject) => {
      onBlocked = () => reject(new StoreError('the run database is held open by another tab of the lab with an older version: close the other lab tabs and reload (nothing was changed)', 'blocked'));
    });
    const opening = openDB<LabDb>(name, version, {
      upgrade(d) {
        if (!d.objectStoreNames.contains('experiments')) d.createObjectStore('experiments', { keyPath: 'id' });
        if (!d.objectStoreNames.contains('frames')) d.createObjectStore('frames');
        if (!d.objectStoreNames.contains('traces')) d.createObjectStore('traces');
        if (!d.objectStoreNames.contains('weights')) d.createObjectStore('weights');
        if (!d.objectStoreNames.contains('meta')) d.createObjectStore('meta');
      },
      // idb's open promise keeps waiting while blocked: fail at once instead of hanging.
      blocked: () => onBlocked(),
      blocking() {
        db?.close();
      },
    });
    try {
      db = await Promise.race([opening, blocked]);
    } catch (e) {
      void opening.then((d) => d.close(), () => undefined);
      throw e instanceof StoreError ? e : new StoreError(`the run database cannot be opened: ${e instanceof Error ? e.message : String(e)}`, 'unavailable');
    }
    return new RunStore(db);
  }

  close(): void {
    this.db.close();
  }

  async list(): Promise<StoredExperiment[]> {
    try {
      const all = await this.db.getAll('experiments');
      return all.sort((a, b) => b.updatedAt - a.updatedAt);
    } catch (e) {
      throw storeError(e, 'listing the stored runs');
    }
  }

  async get(id: string): Promise<StoredExperiment | undefined> {
    try {
      return await this.db.get('experiments', id);
    } catch (e) {
      throw storeError(e, 'reading a stored run');
    }
  }

  /** Create or replace the record only (frames stay). */
  async put(rec: StoredExperiment): Promise<void> {
    try {
      await this.db.put('experiments', rec);
    } catch (e) {
      throw storeError(e, `saving "${rec.name}"`);
    }
  }

  /**
   * One batch of frames for one cell, with the cell's timeline and stop reason, in ONE transaction:
   * the record's counters only move when the frames are in.
   */
  async appendFrames(id: string, cell: number, frames: MetricsFrame[], update: { timeline?: TimelineEntry[]; stoppedBy?: string; engine?: string } = {}): Promise<void> {
    if (!frames.length && update.timeline === undefined && update.stoppedBy === undefined && update.engine === undefined) return;
    try {
      const tx = this.db.transaction(['experiments', 'frames'], 'readwrite');
      const rec = await tx.objectStore('experiments').get(id);
      if (!rec) throw new StoreError(`no stored run ${id} (deleted?)`, 'missing');
      const c = rec.cells[cell];
      if (!c) throw new StoreError(`stored run ${id} has no cell ${cell}`, 'missing');
      if (frames.length) {
        void tx.objectStore('frames').put(frames, [id, cell, c.batches]);
        c.batches++;
        c.frameCount += frames.length;
        c.step = frames[frames.length - 1].step;
      }
      if (update.timeline) c.timeline = update.timeline;
      if (update.stoppedBy !== undefined) c.stoppedBy = update.stoppedBy;
      if (update.engine !== undefined) c.engine = update.engine;
      rec.updatedAt = Date.now();
      void tx.objectStore('experiments').put(rec);
      await tx.done;
    } catch (e) {
      throw storeError(e, `saving frames of "${id}"`);
    }
  }

  /** Every stored frame of every cell, in step order per cell. */
  async frames(id: string): Promise<MetricsFrame[][]> {
    try {
      const rec = await this.db.get('experiments', id);
      if (!rec) throw new StoreError(`no stored run ${id}`, 'missing');
      const tx = this.db.transaction('frames');
      const out = await Promise.all(rec.cells.map(async (_, i) => (await tx.store.getAll(cellRange(id, i))).flat()));
      await tx.done;
      return out;
    } catch (e) {
      throw storeError(e, 'reading stored frames');
    }
  }

  /** Replace the stored frames of one cell (e.g. a restart from step 0) in one transaction. */
  async resetCell(id: string, cell: number, timeline: TimelineEntry[]): Promise<void> {
    try {
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
    } catch (e) {
      throw storeError(e, 'clearing a cell for its restart');
    }
  }

  /**
   * Keep a cell's frames up to `step` only (its weights' step, before training continues from
   * them) and note the continuation, in one transaction.
   */
  async truncateCell(id: string, cell: number, step: number): Promise<void> {
    try {
      const tx = this.db.transaction(['experiments', 'frames'], 'readwrite');
      const rec = await tx.objectStore('experiments').get(id);
      if (!rec) throw new StoreError(`no stored run ${id}`, 'missing');
      const frames = tx.objectStore('frames');
      const kept = (await frames.getAll(cellRange(id, cell))).flat().filter((f) => f.step <= step);
      void frames.delete(cellRange(id, cell));
      if (kept.length) void frames.put(kept, [id, cell, 0]);
      const c = rec.cells[cell];
      Object.assign(c, { batches: kept.length ? 1 : 0, frameCount: kept.length, step: kept.at(-1)?.step ?? 0, continuedAt: [...(c.continuedAt ?? []), step] });
      c.timeline = c.timeline.filter((e) => e.step <= step);
      void tx.objectStore('experiments').put(rec);
      await tx.done;
    } catch (e) {
      throw storeError(e, 'preparing a cell to continue');
    }
  }

  /** The latest weights of a cell (replacing older ones), with their size on the record. */
  async saveWeights(id: string, cell: number, step: number, data: Float32Array): Promise<void> {
    try {
      const tx = this.db.transaction(['experiments', 'weights'], 'readwrite');
      const rec = await tx.objectStore('experiments').get(id);
      if (!rec) throw new StoreError(`no stored run ${id}`, 'missing');
      void tx.objectStore('weights').put({ step, data }, [id, cell]);
      rec.cells[cell].weights = { step, bytes: data.byteLength };
      void tx.objectStore('experiments').put(rec);
      await tx.done;
    } catch (e) {
      throw storeError(e, 'saving weights');
    }
  }

  async weights(id: string, cell: number): Promise<{ step: number; data: Float32Array } | undefined> {
    try {
      const w = await this.db.get('weights', [id, cell]);
      return w?.data ? { step: w.step, data: w.data } : undefined;
    } catch (e) {
      throw storeError(e, 'reading stored weights');
    }
  }

  /**
   * A lab run's snapshot (replacing the older one) with its size on the record, in one transaction.
   * Its step must not pass the stored frames: a resume never points past the stored curve.
   */
  async saveSnapshot(id: string, cell: number, snap: LabSnapshot): Promise<void> {
    try {
      const tx = this.db.transaction(['experiments', 'weights'], 'readwrite');
      const rec = await tx.objectStore('experiments').get(id);
      if (!rec) throw new StoreError(`no stored run ${id}`, 'missing');
      const c = rec.cells[cell];
      if (!c) throw new StoreError(`stored run ${id} has no cell ${cell}`, 'missing');
      if (snap.step > c.step) throw new StoreError(`a snapshot at step ${snap.step} is ahead of the stored frames (step ${c.step})`, 'failed');
      void tx.objectStore('weights').put({ step: snap.step, snapshot: snap }, [id, cell]);
      c.weights = { step: snap.step, bytes: snapshotBytes(snap), exact: true };
      rec.keepWeights = true;
      void tx.objectStore('experiments').put(rec);
      await tx.done;
    } catch (e) {
      throw storeError(e, 'saving the run state');
    }
  }

  async snapshot(id: string, cell: number): Promise<LabSnapshot | undefined> {
    try {
      return (await this.db.get('weights', [id, cell]))?.snapshot;
    } catch (e) {
      throw storeError(e, 'reading the stored run state');
    }
  }

  /** Drop every cell's stored weights (frees space; the run then restarts instead of continuing). */
  async dropWeights(id: string): Promise<void> {
    try {
      const tx = this.db.transaction(['experiments', 'weights'], 'readwrite');
      const rec = await tx.objectStore('experiments').get(id);
      if (!rec) return;
      void tx.objectStore('weights').delete(IDBKeyRange.bound([id], [id, []]));
      for (const c of rec.cells) delete c.weights;
      rec.keepWeights = false;
      void tx.objectStore('experiments').put(rec);
      await tx.done;
    } catch (e) {
      throw storeError(e, 'dropping weights');
    }
  }

  /** Traces of a step the user opened. */
  async saveTraces(id: string, cell: number, step: number, traces: SampleTrace[]): Promise<void> {
    try {
      await this.db.put('traces', traces, [id, cell, step]);
    } catch (e) {
      throw storeError(e, 'saving opened traces');
    }
  }

  async traces(id: string, cell: number, step: number): Promise<SampleTrace[] | undefined> {
    try {
      return await this.db.get('traces', [id, cell, step]);
    } catch (e) {
      throw storeError(e, 'reading stored traces');
    }
  }

  /** Steps whose traces are stored for a cell. */
  async traceSteps(id: string, cell: number): Promise<number[]> {
    try {
      return (await this.db.getAllKeys('traces', cellRange(id, cell))).map((k) => k[2]);
    } catch (e) {
      throw storeError(e, 'listing stored traces');
    }
  }

  async rename(id: string, name: string): Promise<void> {
    const trimmed = name.trim();
    if (!trimmed) throw new StoreError('a run needs a non-empty name', 'failed');
    try {
      const tx = this.db.transaction('experiments', 'readwrite');
      const rec = await tx.store.get(id);
      if (!rec) throw new StoreError(`no stored run ${id}`, 'missing');
      rec.name = trimmed;
      void tx.store.put(rec);
      await tx.done;
    } catch (e) {
      throw storeError(e, 'renaming');
    }
  }

  /** The record and everything under its id, in one transaction. */
  async delete(id: string): Promise<void> {
    try {
      const tx = this.db.transaction(['experiments', 'frames', 'traces', 'weights', 'meta'], 'readwrite');
      void tx.objectStore('experiments').delete(id);
      void tx.objectStore('frames').delete(idRange(id));
      void tx.objectStore('traces').delete(idRange(id));
      void tx.objectStore('weights').delete(idRange(id));
      const meta = tx.objectStore('meta');
      if ((await meta.get('open')) === id) void meta.delete('open');
      if ((await meta.get('lab-run')) === id) void meta.delete('lab-run');
      await tx.done;
    } catch (e) {
      throw storeError(e, 'deleting');
    }
  }

  /**
   * A complete record with all its frames in ONE transaction (an imported bundle): either all of it
   * is stored or none.
   */
  async putWhole(rec: StoredExperiment, frames: MetricsFrame[][]): Promise<void> {
    try {
      const tx = this.db.transaction(['experiments', 'frames'], 'readwrite');
      const cells = rec.cells.map((c, i) => ({ ...c, batches: frames[i]?.length ? 1 : 0, frameCount: frames[i]?.length ?? 0, step: frames[i]?.at(-1)?.step ?? 0 }));
      frames.forEach((fs, i) => {
        if (fs.length) void tx.objectStore('frames').put(fs, [rec.id, i, 0]);
      });
      void tx.objectStore('experiments').put({ ...rec, cells });
      await tx.done;
    } catch (e) {
      throw storeError(e, `storing "${rec.name}"`);
    }
  }

  /** The experiment open in the lab (restored on reload). */
  async setOpen(id: string | null): Promise<void> {
    try {
      if (id === null) await this.db.delete('meta', 'open');
      else await this.db.put('meta', id, 'open');
    } catch (e) {
      throw storeError(e, 'remembering the open experiment');
    }
  }

  /** The record the lab's own run is stored in (restored after a reload); null: none. */
  async setLabRun(id: string | null): Promise<void> {
    try {
      if (id === null) await this.db.delete('meta', 'lab-run');
      else await this.db.put('meta', id, 'lab-run');
    } catch (e) {
      throw storeError(e, "remembering the lab's run");
    }
  }

  async getLabRun(): Promise<string | null> {
    try {
      return (await this.db.get('meta', 'lab-run')) ?? null;
    } catch (e) {
      throw storeError(e, "reading the lab's run");
    }
  }

  async getOpen(): Promise<string | null> {
    try {
      return (await this.db.get('meta', 'open')) ?? null;
    } catch (e) {
      throw storeError(e, 'reading the open experiment');
    }
  }
}
