/**
 * The frames of one run, kept for export, and a bounded subset for drawing. Charts redraw from
 * `drawn()`: at most `maxDrawn` frames however long the run (every stride-th frame, plus every frame
 * that carries a setting change and always the latest), so that chart work per redraw stays
 * bounded and a Pause stays responsive after thousands of steps. Pure (no DOM, no runes).
 */
import type { MetricsFrame } from '../../core/metrics';
import type { SeriesName } from '../../core/measure/names';

export const MAX_DRAWN = 500;
/**
 * Frames kept at full resolution before the oldest half is thinned 2:1 (setting changes kept): at
 * ~1.5 KB per kept frame (bench long_run) the page then holds at most ~30 MB of history.
 */
export const MAX_KEPT = 20_000;

export class FrameHistory {
  #all: MetricsFrame[] = [];
  #drawn: MetricsFrame[] = [];
  #stride = 1;
  #version = 0;
  #thinned = 0;

  constructor(
    readonly maxDrawn = MAX_DRAWN,
    readonly maxKept = MAX_KEPT,
  ) {
    if (!(maxDrawn >= 4)) throw new RangeError(`maxDrawn must be ≥ 4, got ${maxDrawn}`);
    if (!(maxKept >= 4)) throw new RangeError(`maxKept must be ≥ 4, got ${maxKept}`);
  }

  /** Frames dropped by the cap so far (the export then has gaps in its oldest part). */
  get thinned(): number {
    return this.#thinned;
  }

  /** Starts over from `prefix` (a fork's or recovery's kept frames). */
  reset(prefix: readonly MetricsFrame[] = []): void {
    this.#all = [];
    this.#drawn = [];
    this.#stride = 1;
    this.#thinned = 0;
    this.push(prefix);
  }

  push(frames: readonly MetricsFrame[]): void {
    for (const f of frames) {
      const prev = this.#all[this.#all.length - 1];
      this.#all.push(prev ? shareUnchanged(f, prev) : f);
      // the latest frame is always drawn: drop the previous one if it was only kept as "latest"
      const last = this.#drawn[this.#drawn.length - 1];
      if (last && !this.#keeps(last)) this.#drawn.pop();
      this.#drawn.push(f);
      if (this.#drawn.length > this.maxDrawn) this.#thin();
      if (this.#all.length > this.maxKept) this.#cap();
    }
    this.#version++;
  }

  /** Every frame, in step order (for export). Do not mutate. */
  all(): readonly MetricsFrame[] {
    return this.#all;
  }

  /** At most maxDrawn (+ change frames) frames spread over the run, the latest included. */
  drawn(): readonly MetricsFrame[] {
    return this.#drawn;
  }

  get length(): number {
    return this.#all.length;
  }

  /** Changes on every push (a cheap "something new" check). */
  get version(): number {
    return this.#version;
  }

  #keeps(f: MetricsFrame): boolean {
    return f.step % this.#stride === 0 || Object.keys(f.changes).length > 0 || f === this.#all[0];
  }

  /** Thin the oldest half of the kept frames 2:1 (the first frame and setting changes stay). */
  #cap(): void {
    const half = Math.floor(this.#all.length / 2);
    const old = this.#all.slice(0, half).filter((f, i) => i % 2 === 0 || Object.keys(f.changes).length > 0);
    this.#thinned += half - old.length;
    this.#all = [...old, ...this.#all.slice(half)];
  }

  /** Double the stride and keep the frames that still qualify (and the latest). */
  #thin(): void {
    this.#stride *= 2;
    const latest = this.#drawn[this.#drawn.length - 1];
    this.#drawn = this.#drawn.filter((f) => f === latest || this.#keeps(f));
  }
}

/**
 * Frames cloned from the worker carry their own copy of arrays that rarely change (the base's
 * pass@k, the ratio-histogram edges): point them at the previous frame's copy when equal, so a long
 * history does not keep thousands of identical arrays.
 */
function shareUnchanged(f: MetricsFrame, prev: MetricsFrame): MetricsFrame {
  const same = (a: readonly number[] | undefined, b: readonly number[] | undefined) => !!a && !!b && a.length === b.length && a.every((x, i) => x === b[i]);
  if (same(f.ratioEdges, prev.ratioEdges)) f.ratioEdges = prev.ratioEdges;
  for (const k of Object.keys(f.series) as SeriesName[]) if (same(f.series[k], prev.series[k])) f.series[k] = prev.series[k];
  return f;
}
