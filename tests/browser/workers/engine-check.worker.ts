// Test worker: runs the cross-backend engine check and the benchmark inside a real Web Worker.
import * as Comlink from 'comlink';
import type { BackendPreference } from '../../../src/core/run/types';
import { createBrowserEngine, defaultWasmThreads, ortFor, webgpuAdapter } from '../../../src/engine/browser';
import { runBenchmark, type BenchResult, type BrowserBenchEnv, type BrowserBenchOptions } from '../../../src/bench/engine';
import { CHECK_SHAPE, engineCheck, type EngineCheckResult } from '../../support/engine-check';

export interface EngineCheckApi {
  check(prefer: BackendPreference, seed: number): Promise<EngineCheckResult & { backend: string; note: string }>;
  bench(backend: 'webgpu' | 'wasm', reps: number, leakSteps: number, opts?: BrowserBenchOptions): Promise<BenchResult & BrowserBenchEnv>;
  /** A WebGPU engine, then its device destroyed: what `engine.lost` reports (null: nothing within 60 s). */
  deviceLoss(): Promise<{ backend: string; lost: string | null }>;
}

const api: EngineCheckApi = {
  async check(prefer, seed) {
    const engine = await createBrowserEngine(CHECK_SHAPE, { prefer, seed });
    try {
      return { ...(await engineCheck(engine)), backend: engine.backend, note: engine.backendNote };
    } finally {
      await engine.dispose();
    }
  },
  async bench(backend, reps, leakSteps, opts = {}) {
    // performance.memory exists in Chromium pages but not in workers: report none rather than zeros
    const heap = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
    const memory = heap ? () => ({ js_heap: heap.usedJSHeapSize }) : undefined;
    const ort = await ortFor(backend); // the build the lab runs this backend on
    ort.env.wasm.numThreads = opts.numThreads ?? defaultWasmThreads();
    const adapter = backend === 'webgpu' ? (await webgpuAdapter()).detail : undefined;
    const result = await runBenchmark(ort, { backend, reps, leakSteps, memory, ensembleP: opts.ensembleP });
    return { ...result, cross_origin_isolated: self.crossOriginIsolated, wasm_threads: ort.env.wasm.numThreads ?? 0, adapter };
  },
  async deviceLoss() {
    const engine = await createBrowserEngine(CHECK_SHAPE, { prefer: 'webgpu', seed: 1 });
    try {
      if (engine.backend !== 'webgpu') return { backend: engine.backend, lost: null };
      const device = (await (await ortFor('webgpu')).env.webgpu.device) as unknown as { destroy(): void };
      device.destroy();
      const timeout = new Promise<null>((r) => setTimeout(() => r(null), 60_000));
      return { backend: engine.backend, lost: await Promise.race([engine.lost ?? timeout, timeout]) };
    } finally {
      await engine.dispose().catch(() => undefined);
    }
  },
};

// ORT's WASM threads are module workers named 'em-pthread': expose only in the real worker.
if (!self.name.startsWith('em-pthread')) Comlink.expose(api);
