/**
 * Column store of metric frames (pure, no runes): one sorted point list per metric name.
 * Views read `series(name)`; a rune counter in the owner signals changes (see App.svelte).
 */
import type { MetricFrame } from '../../../workers/frames';
import type { Point } from '../charts/series';

export class MetricHistory {
  readonly #cols = new Map<string, Point[]>();
  #frames: MetricFrame[] = [];

  /** Append frames (each with a `step`); frames without a finite step are ignored. */
  append(frames: readonly MetricFrame[]): void {
    for (const f of frames) {
      const step = f.step;
      if (step === undefined || !Number.isFinite(step)) continue;
      this.#frames.push(f);
      for (const [k, value] of Object.entries(f)) {
        if (k === 'step') continue;
        let col = this.#cols.get(k);
        if (!col) this.#cols.set(k, (col = []));
        const last = col[col.length - 1];
        if (last && last.step > step) {
          // Out-of-order frame: insert at its place to keep the column sorted.
          const i = col.findIndex((p) => p.step > step);
          col.splice(i, 0, { step, value });
        } else col.push({ step, value });
      }
    }
  }

  series(key: string): readonly Point[] {
    return this.#cols.get(key) ?? [];
  }

  /** Latest value of a metric, or undefined. */
  latest(key: string): number | undefined {
    const col = this.#cols.get(key);
    return col?.[col.length - 1]?.value;
  }

  keys(prefix = ''): string[] {
    return [...this.#cols.keys()].filter((k) => k.startsWith(prefix)).sort();
  }

  /** States seen in `support/behavior_entropy/<state>` metrics. */
  states(): string[] {
    const p = 'support/behavior_entropy/';
    return this.keys(p).map((k) => k.slice(p.length));
  }

  /** Every frame in arrival order (for CSV/JSON export). */
  frames(): readonly MetricFrame[] {
    return this.#frames;
  }

  clear(): void {
    this.#cols.clear();
    this.#frames = [];
  }
}
