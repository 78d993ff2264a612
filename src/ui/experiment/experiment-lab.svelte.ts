/**
 * The experiments page controller (rune state): the run store, the stored records (Runs panel), the
 * open experiment, and every user action as a named mutator: create, open (restore), rename,
 * delete, compare, import/export a bundle, re-run. A reload reopens the experiment that was open:
 * unfinished cells continue from their stored weights, or restart from step 0 (deterministic) where
 * none were kept, and the message says which. One tab trains a stored experiment at a time (its
 * writer lock): another tab opens it read-only and says so.
 */
import { errorText } from '../../core/unknown';
import { experimentCells, type ExperimentSpec } from '../../core/experiment/spec';
import type { ExperimentBundle } from '../../core/experiment/bundle';
import type { CellInit } from '../../../workers/experiment.api';
import { StoreError, newId, type StoredExperiment } from '../storage/db';
import { ExperimentStore } from '../storage/experiment-store';
import { claimWriter, type WriterLock } from '../storage/writer-lock';
import { bundleToJson } from '../../core/experiment/bundle';
import { bundleRecord, compareRecords, readBundle } from './bundle-io';
import { OpenExperiment } from './open-experiment.svelte';
import type { CellRunnerOptions } from './runner';


export class ExperimentLab {
  store: ExperimentStore | null = null;
  records = $state.raw<StoredExperiment[]>([]);
  open = $state<OpenExperiment | null>(null);
  /** Storage problems (quota, blocked, unavailable): shown as an alert; training still works. */
  storeProblem = $state('');
  /** Last action's failure. */
  message = $state('');
  /** Per-field errors of the last import; nothing was stored. */
  importErrors = $state.raw<string[]>([]);
  ready = $state(false);
  #refreshTimer: ReturnType<typeof setTimeout> | null = null;
  /** The writer lock of the open experiment (null: none open, or open read-only). */
  #lock: WriterLock | null = null;

  constructor(readonly runner: CellRunnerOptions) {}

  async #guard(fn: () => Promise<void>): Promise<void> {
    try {
      this.message = '';
      await fn();
    } catch (e) {
      if (e instanceof StoreError) this.storeProblem = e.message;
      else this.message = errorText(e);
    }
  }

  /** Open the store and reopen the experiment that was open before the reload. */
  async start(): Promise<void> {
    await this.#guard(async () => {
      try {
        this.store = await ExperimentStore.open();
      } catch (e) {
        this.storeProblem = `${errorText(e)} Experiments still train, but are not stored.`;
        return;
      }
      await this.refresh();
      const openId = await this.store.getOpen();
      if (openId && this.records.some((r) => r.id === openId)) await this.#reopen(openId, true);
    });
    this.ready = true;
  }

  #refreshes = 0;

  /** Reread the stored records; an older read finishing late never overwrites a newer one. */
  async refresh(): Promise<void> {
    if (!this.store) return;
    const n = ++this.#refreshes;
    const list = await this.store.list();
    if (n === this.#refreshes) this.records = list;
  }

  /** The Runs panel follows training (at most once a second). */
  #written = (): void => {
    this.#refreshTimer ??= setTimeout(() => {
      this.#refreshTimer = null;
      void this.refresh().catch(() => undefined);
    }, 1000);
  };

  /**
   * Close the open experiment. Its writer lock goes only once its recording has written what it was
   * handed: a reopen (here or in another tab) that reads the record after taking the lock then sees
   * it whole and still, never a record the old recording is still changing.
   */
  async #close(): Promise<void> {
    const open = this.open;
    const lock = this.#lock;
    this.open = null;
    this.#lock = null;
    try {
      await open?.dispose();
    } finally {
      lock?.release();
    }
  }

  /** A new experiment: every cell from step 0, stored as it trains. */
  async create(spec: ExperimentSpec, keepWeights: boolean, reference: ExperimentBundle | null = null): Promise<void> {
    await this.#guard(async () => {
      await this.#close();
      const now = Date.now();
      const rec: StoredExperiment = {
        id: newId(now), name: spec.name, kind: 'experiment', createdAt: now, updatedAt: now, spec, keepWeights,
        cells: experimentCells(spec).map((c) => ({ variant: c.variant, seed: c.seed, config: c.config, timeline: [], frameCount: 0, batches: 0, step: 0 })),
      };
      const ex = new OpenExperiment(rec, rec.cells.map(() => []), reference);
      this.#lock = await claimWriter(rec.id); // a new id: no other tab has it
      await this.#persist(async (s) => {
        await s.put(rec);
        await s.setOpen(rec.id);
      });
      this.open = ex;
      ex.message = reference ? 're-running every cell from step 0; the result is compared bit for bit when all cells are done' : '';
      await ex.train(ex.cells.map((c) => ({ index: c.index, config: c.config })), this.runner, this.storeProblem ? null : this.store, (m) => (this.storeProblem = m), this.#written);
      await this.refresh();
    });
  }

  /** Run a store write; a failure becomes the storage alert (training is not blocked by it). */
  async #persist(fn: (s: ExperimentStore) => Promise<void>): Promise<void> {
    if (!this.store) return;
    try {
      await fn(this.store);
    } catch (e) {
      this.storeProblem = errorText(e);
    }
  }

  reopen(id: string): Promise<void> {
    return this.#guard(() => this.#reopen(id, false));
  }

  async #reopen(id: string, afterReload: boolean): Promise<void> {
    const store = this.store;
    if (!store) return;
    await this.#close();
    // The lock first, then the record with its weights in one read: no other writer changes it now.
    const lock = await claimWriter(id);
    const stored = await store.withWeights(id).catch((e: unknown) => {
      lock?.release();
      throw e;
    });
    if (!stored) {
      lock?.release();
      throw new Error(`no stored run ${id}`);
    }
    const { rec, weights } = stored;
    if (!lock) return this.#showReadOnly(store, rec, afterReload);
    this.#lock = lock;
    const inits: CellInit[] = [];
    const continued: number[] = [];
    const restarted: number[] = [];
    // A lab run's live setting changes are not replayed by a restart: it is shown as stored.
    if (rec.kind === 'experiment') {
      for (const [i, c] of rec.cells.entries()) {
        if (c.stoppedBy || c.step >= rec.spec.steps) continue;
        const w = weights[i];
        // Weights ahead of the stored frames (their batch was not written) cannot continue the curve.
        if (w && w.step <= c.step && w.step > 0) {
          await store.truncateCell(id, i, w.step);
          inits.push({ index: i, config: c.config, resume: { step: w.step, weights: w.data } });
          continued.push(w.step);
        } else {
          await store.resetCell(id, i, []);
          inits.push({ index: i, config: c.config });
          restarted.push(i);
        }
      }
    }
    const fresh = (await store.get(id))!;
    const ex = new OpenExperiment(fresh, await store.frames(id));
    this.open = ex;
    await store.setOpen(id);
    const parts = [afterReload ? `restored "${rec.name}" after the reload` : `opened "${rec.name}"`];
    if (rec.kind === 'imported') parts.push(`an imported bundle (code ${rec.codeVersion ?? '?'}), shown without retraining; Re-run trains it again and checks it reproduces`);
    if (rec.kind === 'run') parts.push(`a run of the lab, recorded as it trained (${rec.cells[0]?.frameCount ?? 0} steps), shown as stored`);
    if (continued.length) parts.push(`${continued.length} cell(s) continue from their stored weights at step ${Math.min(...continued)}${Math.max(...continued) !== Math.min(...continued) ? `–${Math.max(...continued)}` : ''} (fresh optimizer moments and random streams from there: not bit-for-bit the uninterrupted run)`);
    if (restarted.length) parts.push(`${restarted.length} cell(s) restart from step 0 (${rec.keepWeights ? 'no usable stored weights' : 'weights were not kept'}): deterministic, the same frames again`);
    if (!inits.length && rec.kind === 'experiment') parts.push('every cell is finished');
    else if (inits.length) parts.push('press Run to train');
    ex.message = parts.join('; ') + '.';
    await ex.train(inits, this.runner, store, (m) => (this.storeProblem = m), this.#written);
    await this.refresh();
  }

  /** Another tab trains (and stores) this experiment: shown as stored now, without workers. */
  async #showReadOnly(store: ExperimentStore, rec: StoredExperiment, afterReload: boolean): Promise<void> {
    const ex = new OpenExperiment(rec, await store.frames(rec.id));
    ex.readOnly = true;
    ex.message = `${afterReload ? `restored "${rec.name}" after the reload` : `opened "${rec.name}"`}: another tab of the lab has it open and stores it, so this tab shows it read-only, as stored now (reopen it here after closing it there to train it here).`;
    this.open = ex;
  }

  async rename(id: string, name: string): Promise<void> {
    await this.#guard(async () => {
      await this.store?.rename(id, name);
      await this.refresh();
    });
  }

  /**
   * Delete a stored run. Only its writer deletes it: this tab's open experiment is stopped first and
   * deleted under the lock it holds; any other run's lock is claimed here first, and a run another
   * tab trains and stores (its lock is held there) stays, and the page says so.
   */
  async remove(id: string): Promise<void> {
    await this.#guard(async () => {
      const store = this.store;
      if (!store) return;
      const name = this.records.find((r) => r.id === id)?.name ?? id;
      let lock: WriterLock | null = null;
      if (this.open?.id === id && this.#lock) {
        // ours: the recording stops (what it was handed is written), the lock stays until the delete
        lock = this.#lock;
        this.#lock = null;
        const open = this.open;
        this.open = null;
        await open.dispose();
      } else {
        lock = await claimWriter(id);
        if (!lock) {
          this.message = `"${name}" was not deleted: another tab of the lab trains and stores it. Delete it there, or close it there first.`;
          return;
        }
        if (this.open?.id === id) await this.#close(); // shown here read-only: nobody writes it now
      }
      try {
        await store.delete(id);
      } finally {
        lock.release();
      }
      await this.refresh();
    });
  }

  async dropWeights(id: string): Promise<void> {
    await this.#guard(async () => {
      await this.store?.dropWeights(id);
      await this.refresh();
    });
  }

  /** Stored runs side by side as one read-only experiment (their variants become its variants). */
  async compare(ids: string[]): Promise<void> {
    await this.#guard(async () => {
      const store = this.store;
      if (!store) return;
      const recs = await Promise.all(ids.map(async (id) => ({ rec: (await store.get(id))!, frames: await store.frames(id) })));
      const { record, frames } = compareRecords(recs);
      await this.#close();
      const ex = new OpenExperiment(record, frames);
      ex.message = `comparing ${recs.map((r) => `"${r.rec.name}"`).join(' and ')} (stored runs, read-only); seed i of each is paired with seed i of the others`;
      this.open = ex;
    });
  }

  /** The open experiment as one versioned JSON bundle (a string to download). */
  exportBundle(): { name: string; text: string } | null {
    const ex = this.open;
    if (!ex) return null;
    return { name: `${ex.spec.name.replace(/[^\w.-]+/g, '_')}.experiment.json`, text: bundleToJson(ex.bundle()) };
  }

  /** Validate a bundle file; on success store it whole and show it. A bad file changes nothing. */
  async importBundle(text: string): Promise<void> {
    this.importErrors = [];
    const parsed = readBundle(text);
    if ('errors' in parsed) {
      this.importErrors = parsed.errors;
      return;
    }
    await this.#guard(async () => {
      const { record, frames } = bundleRecord(parsed.bundle, newId());
      if (this.store) await this.store.putWhole(record, frames);
      await this.#close();
      if (this.store) await this.#reopen(record.id, false);
      else {
        const ex = new OpenExperiment(record, frames);
        ex.message = 'imported (not stored: storage is unavailable)';
        this.open = ex;
      }
      await this.refresh();
    });
  }

  /** Train the open experiment again from step 0 and report whether it reproduced bit for bit. */
  async rerun(): Promise<void> {
    const ex = this.open;
    if (!ex) return;
    await this.create({ ...ex.spec, name: `${ex.spec.name} (re-run)` }, ex.record.keepWeights, ex.bundle());
    await this.open?.play();
  }

  dispose(): void {
    const store = this.store;
    void this.#close().finally(() => store?.close());
  }
}
