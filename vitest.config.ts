import { defineConfig } from 'vitest/config';

// Timeouts follow the machine: a speed factor measured once here, passed to the test processes
// through the environment (tests/support/speed.ts `scaled(ms)` reads it), so a 3x slower or loaded
// machine gets 3x the limits. Kept in this file: Vite's native config loader wants no imports.
/** Milliseconds of `workload()` on the development machine (2 cores; min of 9 runs under load ≈ 29 ms, so about the idle time). */
const REFERENCE_MS = 25;

/** A fixed, allocation-light CPU workload (float math and array traffic, like the tabular engine). */
function workload(): number {
  const n = 160;
  const a = new Float64Array(n * n);
  const b = new Float64Array(n * n);
  for (let i = 0; i < a.length; i++) {
    a[i] = Math.sin(i);
    b[i] = Math.cos(i);
  }
  let s = 0;
  for (let i = 0; i < n; i++)
    for (let k = 0; k < n; k++) {
      const x = a[i * n + k];
      for (let j = 0; j < n; j++) s += x * b[k * n + j];
    }
  return s;
}

/** Median time of 3 runs relative to REFERENCE_MS, clamped to [1, 20]. */
function measureSpeedFactor(): number {
  workload(); // warm the JIT
  const t: number[] = [];
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    workload();
    t.push(performance.now() - t0);
  }
  t.sort((x, y) => x - y);
  return Math.min(20, Math.max(1, t[1] / REFERENCE_MS));
}

if (!process.env.INVLAB_SPEED_FACTOR) {
  process.env.INVLAB_SPEED_FACTOR = measureSpeedFactor().toFixed(2);
  if (Number(process.env.INVLAB_SPEED_FACTOR) > 1.2) console.log(`[vitest] speed factor ${process.env.INVLAB_SPEED_FACTOR}: timeouts scaled`);
}
const factor = Math.max(1, Number(process.env.INVLAB_SPEED_FACTOR) || 1);

// Two projects: unit tests (Node) and e2e tests (built site in Debian's Chromium). The e2e
// project's globalSetup builds dist/ once, and only runs when e2e test files are selected.
export default defineConfig({
  test: {
    testTimeout: Math.round(120_000 * factor),
    hookTimeout: Math.round(180_000 * factor),
    pool: 'forks',
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'workers/**/*.test.ts', 'tests/unit/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/global-setup.ts'],
        },
      },
    ],
  },
});
