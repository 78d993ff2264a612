// Long run in the lab page (headless Chromium, WASM): play at max speed with a tiny model until
// `steps`; at every checkpoint (every 1,000 steps, and at the end) press Pause with a real click,
// time it both ways (below), read what the browser holds after a forced GC while paused (below),
// and press Play again. Part of `npm run bench -- --browser`; `--long-steps N` sets N (default
// 5,000). Each checkpoint is also printed to stderr as it is taken (a cut-short run still reports).
//
// Pause latency, from the click's input-event timestamp (so time the page's main thread was busy
// before handling the click counts too), to the first animation frame in which:
//  - ui_ms: the page shows paused: the button reads "Play" and the status line says "pausing…" or
//    "paused" (the step in flight in the worker still completes and is kept: determinism);
//  - idle_ms: the worker reports idle: the status line says "paused at step N" with the counter at
//    N, the last frame received. Bounded by the step in flight (one step at most, plus messaging).
// After idle, 1 s more must append no frame (`frames_after_idle`, expected 0).
//
// Memory at each checkpoint (`heap[]`): the page's JS heap and its ArrayBuffer backing stores
// (DevTools protocol, Runtime.getHeapUsage), the page's and its workers' memory as the browser
// attributes it (performance.measureUserAgentSpecificMemory: JS heaps with ArrayBuffers and the
// workers' WASM memory), and every process of the browser from /proc (PSS by process type:
// process-memory.ts) — the renderer holds the page and its workers.
import type { Page } from 'playwright-core';
import { browserProcessMemory } from '../cli/browser/process-memory';

/** Tiny model and batches so that thousands of steps take minutes on WASM; behavior measured every step (the largest frames). */
export const LONG_RUN_QUERY = 'dModel=16&layers=1&heads=2&mlp=32&rolloutBatch=4&behaviorSamples=4&pretrain=20&measureEvery=1';

export interface PauseSample {
  /** Counter when Pause was clicked and when the worker was idle. */
  step_clicked: number;
  step_paused: number;
  ui_ms: number;
  idle_ms: number;
  frames_after_idle: number;
}

export interface HeapSample {
  step: number;
  heap_mb: number;
  /** The page's ArrayBuffer backing stores (outside the JS heap). */
  array_buffers_mb?: number;
  /** measureUserAgentSpecificMemory: the page (Window) and its dedicated workers (with WASM memory). */
  page_mb?: number;
  workers_mb?: number;
  /** PSS of the renderer process(es) and of the whole browser (/proc). */
  renderer_pss_mb?: number;
  browser_pss_mb?: number;
  /** Main-thread long tasks (> 50 ms) since the previous sample: their share of the time, and the longest. */
  longtask_share?: number;
  longtask_max_ms?: number;
}

export interface LongRunResult {
  steps: number;
  query: string;
  /** Wall time while playing (pauses for measuring excluded). */
  play_s: number;
  steps_per_s: number;
  pauses: PauseSample[];
  pause_ui_ms_median: number;
  pause_ui_ms_max: number;
  pause_idle_ms_median: number;
  pause_idle_ms_max: number;
  /** Used JS heap of the page after a forced GC: before Play, at step ~100, then at each checkpoint. */
  heap: HeapSample[];
  /** Least-squares slope of heap over steps from step 1,000 on (from 100 when the run is shorter). */
  heap_growth_kb_per_step: number;
  /** The same slope for the ArrayBuffers, the workers and the renderer process (PSS). */
  array_buffers_growth_kb_per_step?: number;
  workers_growth_kb_per_step?: number;
  renderer_pss_growth_kb_per_step?: number;
  console_errors: string[];
}

const mb = (bytes: number) => +(bytes / 2 ** 20).toFixed(2);

/** What the browser holds (see the header), after a forced GC. */
async function memoryOf(page: Page, userDataDir: string): Promise<Omit<HeapSample, 'step'>> {
  const cdp = await page.context().newCDPSession(page);
  let usage: { usedSize: number; backingStorageSize?: number };
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    usage = (await cdp.send('Runtime.getHeapUsage')) as typeof usage;
  } finally {
    await cdp.detach();
  }
  const ua = (await page.evaluate(UA_MEMORY)) as { page: number; workers: number } | null;
  const proc = browserProcessMemory(userDataDir);
  return {
    heap_mb: mb(usage.usedSize),
    ...(usage.backingStorageSize !== undefined ? { array_buffers_mb: mb(usage.backingStorageSize) } : {}),
    ...(ua ? { page_mb: mb(ua.page), workers_mb: mb(ua.workers) } : {}),
    ...(proc ? { renderer_pss_mb: proc.pss_mb.renderer ?? 0, browser_pss_mb: proc.total_pss_mb } : {}),
  };
}

/** Bytes the browser attributes to the page's window and to its dedicated workers (null: the API needs cross-origin isolation). */
const UA_MEMORY = `(async () => {
  if (!self.crossOriginIsolated || !performance.measureUserAgentSpecificMemory) return null;
  const r = await performance.measureUserAgentSpecificMemory();
  let page = 0, workers = 0;
  for (const b of r.breakdown) for (const a of b.attribution) { if (a.scope === 'Window') page += b.bytes; else if (a.scope === 'DedicatedWorkerGlobalScope') workers += b.bytes; }
  return { page, workers };
})()`;

const stepOf = (page: Page) => page.evaluate(() => Number(document.querySelector('[data-testid=step] b')?.textContent ?? 0));

async function waitStep(page: Page, n: number, timeoutMs: number): Promise<void> {
  await page.waitForFunction((k) => Number(document.querySelector('[data-testid=step] b')?.textContent) >= k, n, { timeout: timeoutMs, polling: 500 });
}

/** Long tasks on the page's main thread: what delays the handling of a click. */
const LONGTASKS = `(() => {
  window.__lt = { sum: 0, max: 0, since: performance.now() };
  try {
    new PerformanceObserver((l) => { for (const e of l.getEntries()) { window.__lt.sum += e.duration; window.__lt.max = Math.max(window.__lt.max, e.duration); } }).observe({ type: 'longtask' });
  } catch { /* no long-task timing here: the shares read 0 */ }
})()`;
const TAKE_LONGTASKS = `(() => {
  const t = performance.now(), lt = window.__lt;
  const r = { longtask_share: +(lt.sum / (t - lt.since)).toFixed(3), longtask_max_ms: Math.round(lt.max) };
  window.__lt = { sum: 0, max: 0, since: t };
  return r;
})()`;

// Strings, not functions: the bundler's helpers (e.g. __name) do not exist in the page.
/** Arms the probe: the next pointerdown on the play button starts the clock. */
const ARM = `(() => {
  const play = document.querySelector('.transport .play');
  const status = () => document.querySelector('[data-testid=status]')?.textContent || '';
  const counter = () => Number(document.querySelector('[data-testid=step] b')?.textContent || 0);
  window.__pauseProbe = new Promise((resolve) => {
    play.addEventListener('pointerdown', (e) => {
      const t0 = e.timeStamp;
      const stepClicked = counter();
      let ui = -1;
      const check = () => {
        const now = performance.now();
        if (ui < 0 && /Play/.test(play.textContent || '') && /paus/.test(status())) ui = now - t0;
        const m = /paused at step (\\d+)/.exec(status());
        if (ui >= 0 && m && Number(m[1]) === counter()) {
          const idle = now - t0;
          const at = counter();
          setTimeout(() => resolve({ step_clicked: stepClicked, step_paused: at, ui_ms: Math.round(ui), idle_ms: Math.round(idle), frames_after_idle: counter() - at }), 1000);
        } else requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    }, { once: true, capture: true });
  });
})()`;

async function measurePause(page: Page): Promise<PauseSample> {
  await page.evaluate(ARM);
  await page.locator('.transport .play').click();
  return (await page.evaluate('window.__pauseProbe')) as PauseSample;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function slope(all: HeapSample[], key: 'heap_mb' | 'array_buffers_mb' | 'workers_mb' | 'renderer_pss_mb' = 'heap_mb'): number {
  const points = all.filter((p) => p[key] !== undefined);
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((a, p) => a + p.step, 0) / n;
  const my = points.reduce((a, p) => a + p[key]!, 0) / n;
  const sxy = points.reduce((a, p) => a + (p.step - mx) * (p[key]! - my), 0);
  const sxx = points.reduce((a, p) => a + (p.step - mx) ** 2, 0);
  return sxx > 0 ? (sxy / sxx) * 1024 : 0;
}

export async function runLongRunBench(opts: { steps: number; every?: number }): Promise<LongRunResult> {
  const { openPage } = await import('../cli/browser/open-page');
  const query = `${LONG_RUN_QUERY}&steps=${opts.steps + 1000}`;
  const every = opts.every ?? 1000;
  const h = await openPage('nogpu', `/?v=1&${query}`);
  const log = (x: unknown) => process.stderr.write(`long run: ${JSON.stringify(x)}\n`);
  try {
    const { page } = h;
    await page.waitForFunction(() => {
      const play = document.querySelector<HTMLButtonElement>('.transport .play');
      return !!play && !play.disabled && !document.querySelector('[data-testid=status]')?.textContent?.includes('…');
    }, null, { timeout: 180_000 });
    const heap: HeapSample[] = [{ step: 0, ...(await memoryOf(page, h.userDataDir)) }];
    await page.evaluate(LONGTASKS);
    const pauses: PauseSample[] = [];
    let playMs = 0;
    let t0 = Date.now();
    await page.locator('.transport .play').click();
    await waitStep(page, 100, 180_000);
    heap.push({ step: await stepOf(page), ...(await memoryOf(page, h.userDataDir)) });
    log(heap.at(-1));
    const progress = setInterval(() => void stepOf(page).then((n) => process.stderr.write(`long run: step ${n}/${opts.steps}\n`), () => undefined), 60_000);
    try {
      const marks = [...Array(Math.floor(opts.steps / every)).keys()].map((i) => (i + 1) * every);
      if (marks.at(-1) !== opts.steps) marks.push(opts.steps);
      for (const mark of marks) {
        await waitStep(page, mark, 60 * 60_000);
        playMs += Date.now() - t0;
        const busy = (await page.evaluate(TAKE_LONGTASKS)) as Pick<HeapSample, 'longtask_share' | 'longtask_max_ms'>;
        const p = await measurePause(page);
        pauses.push(p);
        heap.push({ step: p.step_paused, ...(await memoryOf(page, h.userDataDir)), ...busy });
        log({ ...p, ...heap.at(-1) });
        if (mark === marks.at(-1)) break;
        t0 = Date.now();
        await page.locator('.transport .play').click();
      }
    } finally {
      clearInterval(progress);
    }
    const end = heap.at(-1)!.step;
    const tail = heap.filter((x) => x.step >= Math.min(1000, every));
    return {
      steps: end,
      query,
      play_s: +(playMs / 1000).toFixed(1),
      steps_per_s: +(end / (playMs / 1000)).toFixed(2),
      pauses,
      pause_ui_ms_median: median(pauses.map((p) => p.ui_ms)),
      pause_ui_ms_max: Math.max(...pauses.map((p) => p.ui_ms)),
      pause_idle_ms_median: median(pauses.map((p) => p.idle_ms)),
      pause_idle_ms_max: Math.max(...pauses.map((p) => p.idle_ms)),
      heap,
      heap_growth_kb_per_step: +slope(tail.length >= 2 ? tail : heap.slice(1)).toFixed(3),
      array_buffers_growth_kb_per_step: +slope(tail.length >= 2 ? tail : heap.slice(1), 'array_buffers_mb').toFixed(3),
      workers_growth_kb_per_step: +slope(tail.length >= 2 ? tail : heap.slice(1), 'workers_mb').toFixed(3),
      renderer_pss_growth_kb_per_step: +slope(tail.length >= 2 ? tail : heap.slice(1), 'renderer_pss_mb').toFixed(3),
      console_errors: h.errors,
    };
  } finally {
    await h.close();
  }
}
