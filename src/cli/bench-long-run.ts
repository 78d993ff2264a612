// Long run in the lab page (headless Chromium, WASM): play at max speed with a tiny model until
// `steps`, then press Pause and time how long the page takes to show it (button back to "Play"),
// and read the JS heap (after a forced GC, through the DevTools protocol) at the start and at the
// end. Part of `npm run bench -- --browser`; `--long-steps N` sets N (default 5,000).
import type { Page } from 'playwright-core';

/** Tiny model and batches so that thousands of steps take minutes on WASM. */
export const LONG_RUN_QUERY = 'dModel=16&layers=1&heads=2&mlp=32&rolloutBatch=4&behaviorSamples=4&pretrain=20&measureEvery=1';

export interface LongRunResult {
  steps: number;
  query: string;
  wall_s: number;
  steps_per_s: number;
  /** Click on Pause → the button reads "Play" again (the page handled it and the worker stopped). */
  pause_latency_ms: number;
  /** Used JS heap of the page after a forced GC, at step ~100 and at the end. */
  heap_mb_at_100: number;
  heap_mb_at_end: number;
  heap_growth_kb_per_step: number;
}

async function heapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    return usedSize / 2 ** 20;
  } finally {
    await cdp.detach();
  }
}

const stepOf = (page: Page) => page.evaluate(() => Number(document.querySelector('[data-testid=step] b')?.textContent ?? 0));

async function waitStep(page: Page, n: number, timeoutMs: number): Promise<void> {
  await page.waitForFunction((k) => Number(document.querySelector('[data-testid=step] b')?.textContent) >= k, n, { timeout: timeoutMs, polling: 500 });
}

export async function runLongRunBench(opts: { steps: number }): Promise<LongRunResult> {
  const { openPage } = await import('../../tests/browser/harness');
  const query = `${LONG_RUN_QUERY}&steps=${opts.steps + 1000}`;
  const h = await openPage('nogpu', `/?v=1&${query}`);
  try {
    const { page } = h;
    await page.waitForFunction(() => {
      const play = document.querySelector<HTMLButtonElement>('.transport .play');
      return !!play && !play.disabled && !document.querySelector('[data-testid=status]')?.textContent?.includes('…');
    }, null, { timeout: 180_000 });
    const t0 = Date.now();
    await page.locator('.transport .play').click();
    await waitStep(page, 100, 180_000);
    const heap100 = await heapMb(page);
    const s100 = await stepOf(page);
    const progress = setInterval(() => void stepOf(page).then((n) => process.stderr.write(`long run: step ${n}/${opts.steps}\n`), () => undefined), 30_000);
    try {
      await waitStep(page, opts.steps, 60 * 60_000);
    } finally {
      clearInterval(progress);
    }
    const wall = (Date.now() - t0) / 1000;
    // time the pause inside the page: from the click to the button reading "Play" again
    // a string, not a function: the bundler's helpers (e.g. __name) do not exist in the page
    const latency = (await page.evaluate(`new Promise((resolve) => {
      const play = document.querySelector('.transport .play');
      const t = performance.now();
      const check = () => (/Play/.test(play.textContent || '') ? resolve(performance.now() - t) : requestAnimationFrame(check));
      play.click();
      requestAnimationFrame(check);
    })`)) as number;
    const end = await stepOf(page);
    const heapEnd = await heapMb(page);
    return {
      steps: end,
      query,
      wall_s: wall,
      steps_per_s: end / wall,
      pause_latency_ms: Math.round(latency),
      heap_mb_at_100: +heap100.toFixed(1),
      heap_mb_at_end: +heapEnd.toFixed(1),
      heap_growth_kb_per_step: +(((heapEnd - heap100) * 1024) / Math.max(1, end - s100)).toFixed(2),
    };
  } finally {
    await h.close();
  }
}
