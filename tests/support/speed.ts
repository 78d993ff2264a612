/**
 * Test timeouts that follow the machine: vitest.config.ts measures a speed factor once (a fixed CPU
 * workload timed against its time on the development machine) and exports it to the test
 * processes as INVLAB_SPEED_FACTOR; heavy tests give `scaled(ms)` as their limit. A factor below 1
 * (a faster machine) never shortens a limit. Override with INVLAB_SPEED_FACTOR=5 on a known-slow box.
 */

/** The factor in a test process (set by vitest.config.ts; 1 when absent). */
export function speedFactor(): number {
  const f = Number(process.env.INVLAB_SPEED_FACTOR);
  return Number.isFinite(f) && f >= 1 ? f : 1;
}

/** A time limit scaled by the machine's speed factor. */
export const scaled = (ms: number): number => Math.round(ms * speedFactor());
