/**
 * The one IndexedDB database every store of the lab shares (through `idb`): its schema, opening it
 * (a blocked upgrade is an error at once, never a hang), the upgrades between versions, and storage
 * failures as StoreError with a message for people. The stores per kind sit over it: records.ts
 * (what every stored run has: record, frames), experiment-store.ts, lab-run-store.ts.
 */
import { errorText } from '../../core/unknown';
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import type { Config } from '../../core/config';
import type { Resume } from '../../core/experiment/bundle';
import type { ExperimentSpec } from '../../core/experiment/spec';
import type { TimelineEntry } from '../../core/loop';
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import type { LabSnapshot } from '../../../workers/lab.api';

export const DB_NAME = 'invariant-lab';
/**
 * 2: snapshots of lab runs other than the current one dropped (they were kept by older versions);
 * a cell's `continuedAt` steps (continued from stored weights) become `resumed` entries.
 */
export const DB_VERSION = 2;

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
  /** Where training continued after a reload, from what, and whether bit for bit. */
  resumed?: Resume[];
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

export interface LabDb extends DBSchema {
  experiments: { key: string; value: StoredExperiment };
  /** key [id, cell, batch] */
  frames: { key: [string, number, number]; value: MetricsFrame[] };
  /** key [id, cell, step] */
  traces: { key: [string, number, number]; value: SampleTrace[] };
  /** key [id, cell]: a cell's latest weights, or a lab run's whole snapshot (weights, optimizer state, RNG positions). */
  weights: { key: [string, number]; value: { step: number; data?: Float32Array; snapshot?: LabSnapshot } };
  meta: { key: string; value: string };
}

export type LabDatabase = IDBPDatabase<LabDb>;

export class StoreError extends Error {
  constructor(
    message: string,
    readonly kind: 'quota' | 'blocked' | 'unavailable' | 'missing' | 'failed' | 'busy',
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

/** A DOMException or idb failure as a StoreError saying what happened and what to do. */
export function storeError(e: unknown, doing: string): StoreError {
  if (e instanceof StoreError) return e;
  const name = (e as { name?: string } | null)?.name ?? '';
  const msg = errorText(e);
  if (name === 'QuotaExceededError' || /quota/i.test(msg)) {
    return new StoreError(`browser storage is full while ${doing}: nothing of this batch was saved (the stored run stays as it was). Delete old runs or their weights in the Runs panel.`, 'quota');
  }
  return new StoreError(`storage failed while ${doing}: ${name ? `${name}: ` : ''}${msg}`, 'failed');
}

/** After a full disk, a recording tries again this much later (or at once with its retry()). */
export const RETRY_MS = 10_000;

/** Run `fn`; any failure comes out as a StoreError about `doing`. */
export async function guarded<T>(doing: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw storeError(e, doing);
  }
}

/** Id of a new record: time + a random suffix (ids only need to be unique in this browser). */
export function newId(now = Date.now()): string {
  return `${now.toString(36)}-${Math.floor(Math.random() * 36 ** 6).toString(36).padStart(6, '0')}`;
}

export const cellRange = (id: string, cell: number) => IDBKeyRange.bound([id, cell, -Infinity], [id, cell, Infinity]);
export const idRange = (id: string) => IDBKeyRange.bound([id], [id, []]);

type UpgradeTx = IDBPTransaction<LabDb, StoreNames<LabDb>[], 'versionchange'>;

/**
 * Version 2: only the lab's current run keeps its snapshot. Versions before it kept every old
 * run's (2.6 MB each for the default model) although a new run was meant to drop the previous one's.
 */
async function dropOldRunSnapshots(tx: UpgradeTx): Promise<void> {
  const current = await tx.objectStore('meta').get('lab-run');
  const records = tx.objectStore('experiments');
  for (const rec of await records.getAll()) {
    if (rec.kind !== 'run' || rec.id === current || !rec.cells.some((c) => c.weights)) continue;
    await tx.objectStore('weights').delete(idRange(rec.id));
    for (const c of rec.cells) delete c.weights;
    rec.keepWeights = false;
    await records.put(rec);
  }
}

/** Version 2: version 1 noted a continuation from stored weights as `continuedAt` steps only. */
async function resumesFromContinuedAt(tx: UpgradeTx): Promise<void> {
  const records = tx.objectStore('experiments');
  for (const rec of await records.getAll()) {
    const cells = rec.cells as (StoredCell & { continuedAt?: number[] })[];
    if (!cells.some((c) => c.continuedAt)) continue;
    for (const c of cells) {
      if (c.continuedAt) c.resumed = c.continuedAt.map((step) => ({ step, exact: false, from: 'stored weights' }));
      delete c.continuedAt;
    }
    await records.put(rec);
  }
}

/**
 * Open (or create) the database. A tab holding an older version blocks the upgrade: that is an
 * error at once (never a silent hang), and this connection closes itself when it blocks another.
 */
export async function openLabDb(name = DB_NAME, version = DB_VERSION): Promise<LabDatabase> {
  if (!(globalThis as { indexedDB?: IDBFactory }).indexedDB) throw new StoreError('this browser offers no IndexedDB (private mode?): runs will not survive a reload', 'unavailable');
  let db: LabDatabase | null = null;
  let onBlocked = (): void => undefined;
  const blocked = new Promise<never>((_, reject) => {
    onBlocked = () => reject(new StoreError('the run database is held open by another tab of the lab with an older version: close the other lab tabs and reload (nothing was changed)', 'blocked'));
  });
  const opening = openDB<LabDb>(name, version, {
    async upgrade(d, oldVersion, _newVersion, tx) {
      for (const store of ['experiments', 'frames', 'traces', 'weights', 'meta'] as const) {
        if (!d.objectStoreNames.contains(store)) d.createObjectStore(store, store === 'experiments' ? { keyPath: 'id' } : undefined);
      }
      if (oldVersion >= 1 && oldVersion < 2) {
        await dropOldRunSnapshots(tx);
        await resumesFromContinuedAt(tx);
      }
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
    throw e instanceof StoreError ? e : new StoreError(`the run database cannot be opened: ${errorText(e)}`, 'unavailable');
  }
  return db;
}
