/**
 * Records an experiment in the store as it trains: each cell's frames, settings timeline, engine,
 * stop reason and (when weights are kept) latest weights every few steps.
 *
 * The writes go through the write queue (write-queue.ts: one in flight, everything handed over
 * meanwhile in the next one, at once when the page goes away, a full disk retried), each ONE
 * transaction for every cell (store.writeCells). A cell takes only frames past its stored step, so
 * whichever of a page-leave write and the one in flight lands, the curve has no gap and no step
 * twice. Weights read from a worker that is ahead of the frames wait for the frames up to their
 * step: stored weights never point past the stored curve. Any failure but a full disk stops the
 * recording with a message (training goes on, unstored). close() ends the recording: what was
 * handed over lands first, nothing after it (the writer lock may go then).
 */
import { errorText } from '../../core/unknown';
import type { TimelineEntry } from '../../core/loop';
import type { MetricsFrame } from '../../core/metrics';
import type { CellLanded, CellWrite, ExperimentStore } from './experiment-store';
import { WriteQueue } from './write-queue';

/** Weights are saved when a cell is this many steps past its last save (and at its end). */
export const WEIGHTS_EVERY = 5;

type Weights = { step: number; data: Float32Array };

/** What of one cell is not stored yet. */
interface Pending {
  frames: MetricsFrame[];
  timeline?: TimelineEntry[];
  stoppedBy?: string;
  engine?: string;
  weights?: Weights;
}

export class ExperimentRecorder {
  private pending = new Map<number, Pending>();
  /** Last frame step handed over, per cell (stored or pending). */
  private handedAt = new Map<number, number>();
  private savedAt = new Map<number, number>();
  private fetching = new Map<number, Promise<void>>();
  private readonly queue: WriteQueue;
  private failed = false;
  private closed = false;

  constructor(
    private readonly store: Pick<ExperimentStore, 'writeCells'>,
    readonly id: string,
    private readonly opts: {
      keepWeights: boolean;
      lastStep: number;
      weights: (cell: number) => Promise<Weights>;
      /** A problem to show ('' when a full disk has space again). */
      onError: (message: string) => void;
      retryMs?: number;
      /** After each successful write (e.g. to refresh the Runs panel). */
      onWritten?: () => void;
      /** Subscribes the page-leave flush (default: pagehide / visibilitychange hidden); returns the unsubscribe. */
      leave?: (flush: () => void) => () => void;
    },
  ) {
    this.queue = new WriteQueue(
      {
        pending: () => this.job().length > 0,
        write: async (leaving) => {
          const sent = this.job();
          this.landed(sent, await this.store.writeCells(this.id, sent));
          if (!leaving) this.opts.onWritten?.();
        },
        full: (_, ms) => {
          const steps = [...this.pending.values()].reduce((n, p) => n + p.frames.length, 0);
          this.opts.onError(`Browser storage is full: the frames stored so far stay whole; ${steps} step(s) wait in this tab and are stored as soon as there is space (next try in ${Math.round(ms / 1000)} s). Free space in the Runs panel (delete old runs or their weights).`);
        },
        recovered: () => this.opts.onError(''),
        failed: (e) => {
          this.failed = true;
          this.opts.onError(`${e.message} Recording stopped; training goes on unstored.`);
        },
      },
      { doing: 'recording the experiment', retryMs: opts.retryMs, leave: opts.leave },
    );
  }

  private kick(): void {
    this.queue.kick();
  }

  private cell(index: number): Pending {
    let p = this.pending.get(index);
    if (!p) this.pending.set(index, (p = { frames: [] }));
    return p;
  }

  frames(cell: number, frames: MetricsFrame[], timeline: TimelineEntry[]): void {
    if (this.closed || this.failed) return;
    const p = this.cell(cell);
    p.frames.push(...frames);
    p.timeline = timeline;
    const step = frames.at(-1)?.step;
    if (step !== undefined) {
      this.handedAt.set(cell, step);
      this.maybeFetchWeights(cell, step);
    }
    this.kick();
  }

  private maybeFetchWeights(cell: number, step: number): void {
    if (!this.opts.keepWeights || this.fetching.has(cell)) return;
    if (step - (this.savedAt.get(cell) ?? 0) < WEIGHTS_EVERY && step < this.opts.lastStep) return;
    this.savedAt.set(cell, step);
    const fetch = this.opts
      .weights(cell)
      .then((w) => {
        if (this.closed) return;
        this.cell(cell).weights = w; // the latest replaces one still waiting for its frames
        this.kick();
      })
      .catch((e: unknown) => this.opts.onError(`could not read weights to store: ${errorText(e)}`))
      .finally(() => this.fetching.delete(cell));
    this.fetching.set(cell, fetch);
  }

  /** The cell stopped (non-finite metric, error) or finished: the reason goes on the record. */
  stopped(cell: number, reason: string): void {
    if (this.closed || this.failed) return;
    this.cell(cell).stoppedBy = reason;
    this.kick();
  }

  /** The engine backend the cell trains on (bundles say it: reproduction is per engine). */
  engine(cell: number, backend: string): void {
    if (this.closed || this.failed) return;
    this.cell(cell).engine = backend;
    this.kick();
  }

  /** Everything pending that can be written now (weights only once their frames are handed over). */
  private job(): CellWrite[] {
    const out: CellWrite[] = [];
    for (const [cell, p] of this.pending) {
      const weights = p.weights && p.weights.step <= (this.handedAt.get(cell) ?? 0) ? p.weights : undefined;
      if (!p.frames.length && !p.timeline && p.stoppedBy === undefined && p.engine === undefined && !weights) continue;
      out.push({ cell, frames: [...p.frames], timeline: p.timeline, stoppedBy: p.stoppedBy, engine: p.engine, weights });
    }
    return out;
  }

  /** A write landed: what it stored (or what was stored already) is no longer pending. */
  private landed(sent: CellWrite[], result: CellLanded[]): void {
    for (const [i, w] of sent.entries()) {
      const p = this.pending.get(w.cell);
      const r = result[i];
      if (!p || !r) continue;
      p.frames = p.frames.filter((f) => f.step > r.step);
      if (p.timeline === w.timeline) delete p.timeline;
      if (p.stoppedBy === w.stoppedBy) delete p.stoppedBy;
      if (p.engine === w.engine) delete p.engine;
      // weights sent are stored, or stored already, or can never be (their frames are not on the record)
      if (p.weights && (p.weights === w.weights || p.weights.step <= r.weightsStep)) delete p.weights;
      if (!p.frames.length && !p.timeline && p.stoppedBy === undefined && p.engine === undefined && !p.weights) this.pending.delete(w.cell);
    }
  }

  /** Try the pending writes again now (after a full disk). */
  retry(): void {
    this.queue.retry();
  }

  /** Resolves when everything handed over so far (weights being read too) is written, waits for space, or failed. */
  async flush(): Promise<void> {
    while (this.fetching.size) await Promise.all(this.fetching.values());
    await this.queue.written();
  }

  /** End the recording: what was handed over is written first; nothing is written after this resolves. */
  async close(): Promise<void> {
    this.closed = true;
    this.queue.close();
    // weights still being read are dropped (the worker is going): only the writes are awaited
    await this.queue.written();
  }
}
