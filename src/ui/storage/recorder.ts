/**
 * Writes an experiment to the store as it trains: frame batches in arrival order (one transaction
 * each), a cell's stop reason, and, when weights are kept, each cell's latest weights every few
 * steps. All writes go through one queue, so a batch never overtakes the one before it. A full disk
 * pauses the queue (a failed transaction changed nothing): the message says so, and the queue is
 * tried again after RETRY_MS (or retry()), from the write that failed. Any other failure stops the
 * recording with a message (training goes on, unstored).
 */
import type { TimelineEntry } from '../../core/loop';
import type { MetricsFrame } from '../../core/metrics';
import { RETRY_MS, storeError, type StoreError } from './db';
import type { ExperimentStore } from './experiment-store';

/** Weights are saved when a cell is this many steps past its last save (and at its end). */
export const WEIGHTS_EVERY = 5;

export class Recorder {
  private queue: Promise<void> = Promise.resolve();
  /** Writes not landed yet, oldest first (the head failed for a full disk while `full`). */
  private waiting: (() => Promise<void>)[] = [];
  private full: StoreError | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private savedAt = new Map<number, number>();
  /** Last frame step handed to the queue, per cell. */
  private framesAt = new Map<number, number>();
  /** Weights read ahead of their frames, waiting for them. */
  private pending = new Map<number, { step: number; data: Float32Array }>();
  private fetching = new Set<number>();
  private failed = false;

  constructor(
    private readonly store: ExperimentStore,
    readonly id: string,
    private readonly opts: {
      keepWeights: boolean;
      lastStep: number;
      weights: (cell: number) => Promise<{ step: number; data: Float32Array }>;
      /** A problem to show ('' when a full disk has space again). */
      onError: (message: string) => void;
      retryMs?: number;
      /** After each successful write (e.g. to refresh the Runs panel). */
      onWritten?: () => void;
    },
  ) {}

  private enqueue(what: () => Promise<void>): Promise<void> {
    this.waiting.push(what);
    return this.drain();
  }

  private drain(): Promise<void> {
    this.queue = this.queue.then(async () => {
      while (this.waiting.length && !this.failed && !this.full) {
        try {
          await this.waiting[0]();
          this.waiting.shift();
          this.opts.onWritten?.();
        } catch (e) {
          const err = storeError(e, 'recording the experiment');
          if (err.kind !== 'quota') {
            this.failed = true;
            this.opts.onError(`${err.message} Recording stopped; training goes on unstored.`);
            return;
          }
          this.full = err;
          const ms = this.opts.retryMs ?? RETRY_MS;
          this.opts.onError(`Browser storage is full: the frames stored so far stay whole; ${this.waiting.length} write(s) wait in this tab and are stored as soon as there is space (next try in ${Math.round(ms / 1000)} s). Free space in the Runs panel (delete old runs or their weights).`);
          this.retryTimer = setTimeout(() => this.retry(), ms);
          return;
        }
      }
    });
    return this.queue;
  }

  /** Try the waiting writes again now (after a full disk). */
  retry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (!this.full) return;
    this.full = null;
    void this.drain().then(() => {
      if (!this.full && !this.failed) this.opts.onError('');
    });
  }

  frames(cell: number, frames: MetricsFrame[], timeline: TimelineEntry[]): void {
    void this.enqueue(() => this.store.appendFrames(this.id, cell, frames, { timeline }));
    const step = frames.at(-1)?.step;
    if (step === undefined) return;
    this.framesAt.set(cell, step);
    const pending = this.pending.get(cell);
    if (pending && pending.step <= step) this.writeWeights(cell, pending);
    if (!this.opts.keepWeights || this.fetching.has(cell)) return;
    const last = this.savedAt.get(cell) ?? 0;
    if (step - last >= WEIGHTS_EVERY || step >= this.opts.lastStep) {
      this.savedAt.set(cell, step);
      this.fetching.add(cell);
      // The worker may be steps ahead of the frames written so far: weights are written only after
      // the frames up to their step, so stored weights never point past the stored curve.
      this.opts
        .weights(cell)
        .then((w) => {
          if ((this.framesAt.get(cell) ?? 0) >= w.step) this.writeWeights(cell, w);
          else this.pending.set(cell, w);
        })
        .catch((e: unknown) => this.opts.onError(`could not read weights to store: ${e instanceof Error ? e.message : String(e)}`))
        .finally(() => this.fetching.delete(cell));
    }
  }

  private writeWeights(cell: number, w: { step: number; data: Float32Array }): void {
    this.pending.delete(cell);
    void this.enqueue(() => this.store.saveWeights(this.id, cell, w.step, w.data));
  }

  /** The cell stopped (non-finite metric, error) or finished: the reason goes on the record. */
  stopped(cell: number, reason: string): void {
    void this.enqueue(() => this.store.appendFrames(this.id, cell, [], { stoppedBy: reason }));
  }

  /** The engine backend the cell trains on (bundles say it: reproduction is per engine). */
  engine(cell: number, backend: string): void {
    void this.enqueue(() => this.store.appendFrames(this.id, cell, [], { engine: backend }));
  }

  /** Resolves when everything queued so far is written (or failed). */
  flush(): Promise<void> {
    return this.queue;
  }
}
