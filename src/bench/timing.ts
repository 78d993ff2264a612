// Timing helpers and the reference workload of the benchmark (shared by its parts).
import type { PolicyShape } from '../core/engine';

export const REFERENCE_SHAPE: PolicyShape = { vocab: 64, context: 16, dModel: 64, layers: 2, heads: 4, mlp: 256 };
export const REFERENCE_BATCH = 64;

export async function timeIt(reps: number, f: () => Promise<unknown>): Promise<number> {
  await f(); // warm-up
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) await f();
  return (performance.now() - t0) / reps / 1000;
}

const median = (xs: number[]) => [...xs].sort((p, q) => p - q)[xs.length >> 1];

/**
 * Time two workloads in alternation (A, B, A, B, …) and report each one's median and the median of
 * the per-pair ratios time(B) / time(A): on a loaded machine both members of a pair see the same
 * load, so the ratio stays meaningful when the absolute times do not.
 */
export async function interleaved(reps: number, a: () => Promise<unknown>, b: () => Promise<unknown>) {
  await a();
  await b();
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < reps; i++) {
    let t0 = performance.now();
    await a();
    ta.push((performance.now() - t0) / 1000);
    t0 = performance.now();
    await b();
    tb.push((performance.now() - t0) / 1000);
  }
  return { a: median(ta), b: median(tb), ratio: median(tb.map((t, i) => t / ta[i])) };
}

