// `npm run bench -- --browser`: the same benchmark inside Web Workers of headless Chromium (Debian's
// chromium; CHROMIUM_PATH overrides) for wasm — once with one thread, then with `--threads N`
// (default 2) in a cross-origin-isolated page, to measure what more threads buy — and webgpu.
// `--gpu real` launches Chromium on the machine's GPU (Vulkan) instead of SwiftShader, whose WebGPU
// runs on the CPU: its numbers test the path, not a GPU. `--backend wasm|webgpu` runs one backend
// only. Builds the e2e site (dist-e2e/, with the fixture pages) when it is missing. Then a long run of
// the lab page itself (long-run.ts): pause latency and JS heap after `longSteps` steps.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { BenchResult, BrowserBenchEnv, BrowserBenchOptions } from './engine';

type Result = BenchResult & BrowserBenchEnv;
type PageApi = { engineCheck: { bench(b: string, reps: number, leak: number, o: BrowserBenchOptions): Promise<Result> } };

export interface BrowserBenchOptionsCli {
  reps: number;
  leakSteps: number;
  ensembleP: number;
  backend: 'all' | 'wasm' | 'webgpu';
  gpu: 'swiftshader' | 'real';
  /** Steps of the lab-page long run (pause latency, heap); 0 skips it. */
  longSteps: number;
  /** Pause (latency) and read the heap every this many steps of the long run. */
  longEvery?: number;
  /** WASM threads of the run compared with one thread (default 2). */
  threads?: number;
}

export async function runBrowserBench(opts: BrowserBenchOptionsCli): Promise<Record<string, unknown>> {
  const engine = opts.reps > 0 ? await engineBench(opts) : {};
  const long_run = opts.longSteps > 0 ? await (await import('./long-run')).runLongRunBench({ steps: opts.longSteps, every: opts.longEvery }) : undefined;
  return { ...engine, long_run };
}

async function engineBench(opts: BrowserBenchOptionsCli): Promise<Record<string, unknown>> {
  // Chromium and the e2e build's engine-check page (a fixture page): loaded only for --browser.
  const { DIST, openPage } = await import('../cli/browser/open-page');
  if (!existsSync(`${DIST}/tests/browser/engine.html`)) execSync('npx vite build --mode e2e', { stdio: 'ignore' });
  const real = opts.gpu === 'real';
  const h = await openPage(real ? 'gpu' : 'webgpu', '/tests/browser/engine.html');
  try {
    await h.page.waitForSelector('body[data-ready="1"]', { state: 'attached', timeout: 30_000 });
    const run = (backend: string, reps: number, leak: number, o: BrowserBenchOptions) =>
      h.page.evaluate(([b, r, l, x]) => (window as unknown as PageApi).engineCheck.bench(b as string, r as number, l as number, x as BrowserBenchOptions), [backend, reps, leak, o] as const);
    const out: Record<string, unknown> = { browser: `chromium (headless, ${real ? 'real GPU via Vulkan' : 'SwiftShader WebGPU'})` };
    if (opts.backend !== 'webgpu') {
      // one thread, then two or more (the page's default on more than 2 cores), each in a fresh
      // worker: numThreads is fixed once ORT has started
      const single = await run('wasm', opts.reps, 0, { numThreads: 1, ensembleP: opts.ensembleP });
      const threaded = await run('wasm', opts.reps, opts.leakSteps, { numThreads: opts.threads ?? 2, ensembleP: opts.ensembleP });
      out.wasm = threaded;
      out.wasm_one_thread = single;
      out.wasm_thread_speedup = {
        threads: threaded.wasm_threads,
        train: single.train_ms / threaded.train_ms,
        sample: single.sample_tokens_per_s > 0 ? threaded.sample_tokens_per_s / single.sample_tokens_per_s : 0,
      };
    }
    if (opts.backend !== 'wasm') {
      // SwiftShader is 20–60× slower than WASM: a few reps, a short leak check, a population of 2.
      const o = real ? { reps: opts.reps, leak: opts.leakSteps, p: opts.ensembleP } : { reps: Math.min(opts.reps, 3), leak: Math.min(opts.leakSteps, 50), p: Math.min(opts.ensembleP, 2) };
      out.webgpu = await run('webgpu', o.reps, o.leak, { ensembleP: o.p }).catch((e: unknown) => ({ error: String(e) }));
    }
    out.console_errors = h.errors;
    return out;
  } finally {
    await h.close();
  }
}
