// `npm run bench -- --only page-workers`: what the experiments page's workers cost in memory. The
// page starts one worker per core (navigator.hardwareConcurrency, src/ui/experiment/runner.ts), so
// for each count asked for the page is opened with hardwareConcurrency set to it, lesson l's
// shipped experiment (2 variants × 16 seeds on WASM) is created and trained to step 2, and the
// browser's memory (PSS, src/cli/browser/process-memory.ts; workers live in the page's renderer
// process) is sampled every 0.5 s from "Create and train" until 5 s after step 2. Needs the e2e
// build (vite build --mode e2e).
import { loadavg } from 'node:os';
import { openPage } from '../cli/browser/open-page';
import { browserProcessMemory } from '../cli/browser/process-memory';

const LESSON = 'l-votes-disagree';

async function measure(cores: number) {
  const h = await openPage('nogpu', '/index.html?page=experiments&backend=wasm');
  try {
    // a string, not a function: the bench's own transpiler would wrap a function in helpers the page lacks
    await h.context.addInitScript({ content: `Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => ${cores} })` });
    await h.page.reload();
    await h.page.getByText('No experiment open').waitFor({ timeout: 120_000 });
    const idle = browserProcessMemory(h.userDataDir);
    if (!idle) throw new Error('page-workers: the browser\'s memory cannot be read here (/proc)');
    const load_before = +loadavg()[0].toFixed(2);
    await h.page.getByLabel('lesson experiment').selectOption(LESSON);
    await h.page.getByRole('button', { name: 'Create and train' }).click();
    const t0 = performance.now();
    let peakTotal = 0;
    let peakRenderer = 0;
    const sample = () => {
      const m = browserProcessMemory(h.userDataDir);
      peakTotal = Math.max(peakTotal, m?.total_pss_mb ?? 0);
      peakRenderer = Math.max(peakRenderer, m?.pss_mb.renderer ?? 0);
    };
    const timer = setInterval(sample, 500);
    try {
      await h.page.waitForFunction(() => Number(document.querySelector('[data-testid=exp-step] b')?.textContent) >= 2, null, { timeout: 900_000 });
      const toStep2 = (performance.now() - t0) / 1000;
      await new Promise((r) => setTimeout(r, 5000));
      sample();
      if (h.errors.length) throw new Error(`page-workers: page errors ${h.errors.slice(0, 3).join(' | ')}`);
      const workers = await h.page.evaluate(() => navigator.hardwareConcurrency);
      return {
        hardware_concurrency: workers, load_before,
        idle_renderer_pss_mb: idle.pss_mb.renderer ?? 0, idle_total_pss_mb: idle.total_pss_mb,
        peak_renderer_pss_mb: +peakRenderer.toFixed(0), peak_total_pss_mb: +peakTotal.toFixed(0),
        seconds_to_step_2: +toStep2.toFixed(1),
      };
    } finally {
      clearInterval(timer);
    }
  } finally {
    await h.close();
  }
}

/** Each count in turn (the page's worker count is min(cores, 8, groups): runner.ts). */
export async function runPageWorkersBench(counts: number[]) {
  const runs = [];
  for (const c of counts) runs.push(await measure(c));
  return { experiment: `public/experiments/${LESSON}.json as shipped`, backend: 'wasm', runs };
}
