/**
 * The write queue under both recorders (the lab's run: lab-run-recorder.ts; an experiment's cells:
 * experiment-recorder.ts). Bounded write lag: one write in flight at a time, and whatever is handed
 * over meanwhile goes in the next one (the recorder builds each write from all it has pending).
 * When the page is hidden or goes away, what is pending is written at once, beside a write in
 * flight (the recorder's writes are idempotent: a write that lands second stores no step twice). A
 * full disk pauses writing (a failed transaction changed nothing): what is pending stays in this tab
 * and is tried again after RETRY_MS, or at retry(); any other failure stops the queue for good.
 */
import { RETRY_MS, storeError, type StoreError } from './db';
import { onPageLeave } from './page-leave';

export interface QueuedWriter {
  /** Whether anything is pending that can be written now. */
  pending(): boolean;
  /**
   * Write all that is pending as one write; resolves once it landed and what it stored is no longer
   * pending (leaving: the page is hidden or going away, a write may be in flight beside it).
   */
  write(leaving: boolean): Promise<void>;
  /** The disk is full: writing pauses until a retry (in `retryMs`). */
  full(error: StoreError, retryMs: number): void;
  /** A write landed after a full disk: there is space again. */
  recovered(): void;
  /** Any other failure: nothing more is written. */
  failed(error: StoreError): void;
}

export interface WriteQueueOptions {
  /** What the writes do, for the error messages ("storing the lab run"). */
  doing: string;
  retryMs?: number;
  /** Subscribes the page-leave write (default: pagehide / visibilitychange hidden); returns the unsubscribe. */
  leave?: (flush: () => void) => () => void;
}

export class WriteQueue {
  #inFlight: Promise<void> | null = null;
  /** Writes started when the page was hidden or went away. */
  #leaving = new Set<Promise<void>>();
  #full = false;
  /** A write failed for a full disk and none has landed since. */
  #wasFull = false;
  #stopped = false;
  #closed = false;
  #retryTimer: ReturnType<typeof setTimeout> | null = null;
  readonly #stopLeave: () => void;

  constructor(
    private readonly writer: QueuedWriter,
    private readonly opts: WriteQueueOptions,
  ) {
    this.#stopLeave = (opts.leave ?? onPageLeave)(() => this.#writeNow());
  }

  /** A page-leave write is under way (a regular write that was waiting may skip: it would repeat it). */
  get leaving(): boolean {
    return this.#leaving.size > 0;
  }

  /** Something was handed over: write it now, or in the next write after the one in flight. */
  kick(): void {
    if (this.#inFlight || this.#leaving.size || this.#full || this.#stopped || !this.writer.pending()) return;
    const write = this.writer.write(false).then(
      () => {
        if (!this.#wasFull) return;
        this.#wasFull = false;
        this.writer.recovered();
      },
      (e: unknown) => this.#fail(e),
    );
    this.#inFlight = write;
    void write.finally(() => {
      this.#inFlight = null;
      this.kick();
    });
  }

  /** The page is hidden or going away: write everything pending now, beside a write in flight. */
  #writeNow(): void {
    if (this.#stopped || !this.writer.pending()) return;
    const write = this.writer.write(true).catch(() => undefined); // the regular write reports failures
    this.#leaving.add(write);
    void write.finally(() => {
      this.#leaving.delete(write);
      this.kick();
    });
  }

  #fail(e: unknown): void {
    const err = storeError(e, this.opts.doing);
    if (err.kind !== 'quota') {
      this.#stopped = true;
      this.writer.failed(err);
      return;
    }
    this.#full = true;
    this.#wasFull = true;
    const ms = this.opts.retryMs ?? RETRY_MS;
    this.writer.full(err, ms);
    if (!this.#closed) this.#retryTimer = setTimeout(() => this.retry(), ms);
  }

  /** Try a write now (after a full disk: the user freed space). */
  retry(): void {
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
    this.#full = false;
    this.kick();
  }

  /** Nothing more is written (the recorder stopped for its own reason). */
  stop(): void {
    this.#stopped = true;
  }

  /** Resolves when no write is in flight (every write started so far, and those they led to, settled). */
  async written(): Promise<void> {
    while (this.#inFlight || this.#leaving.size) await Promise.all([this.#inFlight, ...this.#leaving]);
  }

  /** No more page-leave writes or retries; the writes under way still land (await written()). */
  close(): void {
    this.#closed = true;
    this.#stopLeave();
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
  }
}
