/**
 * Paces the charts' redraws on long runs: at most one per animation frame, and never closer than
 * `busyFactor` times what the previous redraw cost (at least `minGapMs`), so that drawing takes at
 * most about 1 / busyFactor of the main thread however slow the machine, and a click (Pause) is
 * handled promptly. A request after a quiet spell draws at the next animation frame. Pure: the
 * clock and the schedulers are injected (tests use fake ones).
 */
export interface PacerClock {
  now(): number;
  /** Runs fn after ms (setTimeout). */
  later(fn: () => void, ms: number): void;
  /** Runs fn before the next paint (requestAnimationFrame). */
  frame(fn: () => void): void;
}

export interface PacerOptions {
  minGapMs?: number;
  busyFactor?: number;
}

export const browserClock = (): PacerClock => ({
  now: () => performance.now(),
  later: (fn, ms) => void setTimeout(fn, ms),
  frame: typeof requestAnimationFrame === 'function' ? (fn) => void requestAnimationFrame(() => fn()) : (fn) => void setTimeout(fn, 16),
});

export class RedrawPacer {
  #pending = false;
  /** Tags each scheduled redraw; only the latest one runs. */
  #generation = 0;
  #last = -Infinity;
  #gap: number;
  readonly #minGap: number;
  readonly #busyFactor: number;

  /** `draw` does the redraw synchronously (its duration is what the next gap scales with). */
  constructor(
    private readonly draw: () => void,
    private readonly clock: PacerClock,
    opts: PacerOptions = {},
  ) {
    this.#minGap = opts.minGapMs ?? 100;
    this.#busyFactor = opts.busyFactor ?? 4;
    this.#gap = this.#minGap;
  }

  /** The gap before the next redraw may start (ms), from the last redraw's cost. */
  get gap(): number {
    return this.#gap;
  }

  /** Something changed: redraw soon (requests while one is pending are merged). */
  request(): void {
    if (this.#pending) return;
    this.#pending = true;
    const g = ++this.#generation;
    const wait = this.#last + this.#gap - this.clock.now();
    if (wait > 0) this.clock.later(() => this.clock.frame(() => this.#run(g)), wait);
    else this.clock.frame(() => this.#run(g));
  }

  /** Redraw at the next animation frame, whatever the gap (the run went idle: show all of it now). */
  flush(): void {
    this.#pending = true;
    const g = ++this.#generation;
    this.clock.frame(() => this.#run(g));
  }

  #run(g: number): void {
    if (g !== this.#generation) return; // superseded by a flush
    this.#pending = false;
    const t0 = this.clock.now();
    this.draw();
    const t1 = this.clock.now();
    this.#last = t0;
    this.#gap = Math.max(this.#minGap, this.#busyFactor * (t1 - t0));
  }
}
