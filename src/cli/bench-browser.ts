// `npm run bench -- --browser`: the same benchmark inside a Web Worker of headless Chromium
// (Debian's chromium, SwiftShader WebGPU flags from DESIGN.md) for wasm and webgpu. Builds the e2e
// site (dist-e2e/, with the fixture pages) when it is missing. SwiftShader runs WebGPU on the CPU: its numbers test the path, not a GPU.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { BenchResult } from '../engine/bench';

type PageApi = { engineCheck: { bench(b: string, reps: number, leak: number): Promise<BenchResult> } };

export async function runBrowserBench(opts: { reps: number; leakSteps: number }): Promise<Record<string, unknown>> {
  // The browser harness and its engine-check page are test code: loaded only for --browser.
  const { DIST, openPage } = await import('../../tests/browser/harness');
  if (!existsSync(`${DIST}/tests/browser/engine.html`)) execSync('npx vite build --mode e2e', { stdio: 'ignore' });
  const h = await openPage('webgpu', '/tests/browser/engine.html');
  try {
    await h.page.waitForSelector('body[data-ready="1"]', { state: 'attached', timeout: 30_000 });
    const run = (backend: string, reps: number, leak: number) =>
      h.page.evaluate(([b, r, l]) => (window as unknown as PageApi).engineCheck.bench(b as string, r as number, l as number), [backend, reps, leak]);
    const wasm = await run('wasm', opts.reps, opts.leakSteps);
    // SwiftShader is 20–60× slower than WASM: a few reps and a short leak check only.
    const webgpu = await run('webgpu', Math.min(opts.reps, 3), Math.min(opts.leakSteps, 50)).catch((e: unknown) => ({ error: String(e) }));
    return { browser: 'chromium (headless, SwiftShader WebGPU)', wasm, webgpu, console_errors: h.errors };
  } finally {
    await h.close();
  }
}
