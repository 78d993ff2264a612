// Page script of the engine check: `window.engineCheck` runs the engine in a fresh Web Worker.
import * as Comlink from 'comlink';
import type { BrowserBenchOptions } from '../../src/bench/engine';
import type { EngineCheckApi } from './workers/engine-check.worker';

async function inWorker<T>(fn: (api: Comlink.Remote<EngineCheckApi>) => Promise<T>): Promise<T> {
  const worker = new Worker(new URL('./workers/engine-check.worker.ts', import.meta.url), { type: 'module', name: 'engine-check' });
  const api = Comlink.wrap<EngineCheckApi>(worker);
  try {
    return await fn(api);
  } finally {
    worker.terminate();
  }
}

const page = {
  check: (prefer: 'auto' | 'webgpu' | 'wasm', seed: number) => inWorker((api) => api.check(prefer, seed)),
  bench: (backend: 'webgpu' | 'wasm', reps: number, leakSteps: number, opts?: BrowserBenchOptions) =>
    inWorker((api) => api.bench(backend, reps, leakSteps, opts)),
  deviceLoss: () => inWorker((api) => api.deviceLoss()),
};
(window as unknown as { engineCheck: typeof page }).engineCheck = page;
document.getElementById('status')!.textContent = 'ready';
document.body.dataset.ready = '1';
