// Browser entry (inside a Web Worker): the native WebGPU build of onnxruntime-web, which also
// carries the WASM EP. WebGPU is tried first; any failure falls back to WASM with the reason kept.
import * as ort from 'onnxruntime-web/webgpu';
import type { PolicyShape } from '../core/engine';
import { OrtEngine, OrtPopulation, type Backend } from './ort-engine';

// Re-exported for the browser test workers (probe, engine check): onnxruntime-web is imported only here.
export { ort };

export type BackendPreference = Backend | 'auto';

export interface BrowserEngineOptions {
  prefer: BackendPreference;
  seed: number;
  weights?: Float32Array;
  /** WASM threads (needs cross-origin isolation); default: defaultWasmThreads(). */
  numThreads?: number;
}

/**
 * WASM threads to use: 1 without cross-origin isolation (no SharedArrayBuffer), else at least the
 * second thread (ORT's own default is 1 on a 2-core machine), up to 4 on larger ones.
 */
export function defaultWasmThreads(): number {
  const cores = navigator.hardwareConcurrency || 2;
  // On 2 cores the page and the worker already use both: two ORT threads ran slower than one in
  // `npm run bench -- --browser` (train 0.22x / 0.78x, sampling 0.28x in two runs), so one thread.
  if (!self.crossOriginIsolated || cores <= 2) return 1;
  return Math.min(4, Math.ceil(cores / 2));
}

interface GpuAdapterLike {
  info?: { vendor?: string; architecture?: string; description?: string };
}

/** A short description of the WebGPU adapter, or why there is none. */
export async function webgpuAdapter(): Promise<{ ok: boolean; detail: string }> {
  const gpu = (navigator as unknown as { gpu?: { requestAdapter(): Promise<GpuAdapterLike | null> } }).gpu;
  if (!gpu) return { ok: false, detail: 'navigator.gpu is absent (no WebGPU in this browser)' };
  const adapter = await gpu.requestAdapter().catch(() => null);
  if (!adapter) return { ok: false, detail: 'requestAdapter() returned no adapter' };
  const i = adapter.info ?? {};
  return { ok: true, detail: [i.vendor, i.architecture, i.description].filter(Boolean).join(' / ') || 'unnamed adapter' };
}

interface GpuDeviceLike {
  lost: Promise<{ reason?: string; message?: string }>;
}

/**
 * The WebGPU device onnxruntime-web runs on (created with the first WebGPU session), as a promise
 * of why it was lost: driver reset, GPU process crash, `device.destroy()`.
 */
function deviceLost(): Promise<string> {
  const lost = async () => {
    const device = (await ort.env.webgpu.device) as unknown as GpuDeviceLike;
    const info = await device.lost;
    return [info.reason, info.message].filter(Boolean).join(': ') || 'unknown reason';
  };
  // no device to watch: never resolves (nothing to report), rather than an unhandled rejection
  return lost().catch(() => new Promise<string>(() => undefined));
}

export async function createBrowserEngine(shape: PolicyShape, opts: BrowserEngineOptions): Promise<OrtEngine> {
  ort.env.wasm.numThreads = opts.numThreads ?? defaultWasmThreads();
  const base = { seed: opts.seed, weights: opts.weights };
  if (opts.prefer === 'wasm') return OrtEngine.create(ort, shape, { ...base, backend: 'wasm', note: 'WASM chosen in the settings' });
  const adapter = await webgpuAdapter();
  if (adapter.ok) {
    try {
      const engine = await OrtEngine.create(ort, shape, { ...base, backend: 'webgpu', note: `WebGPU adapter: ${adapter.detail}` });
      engine.lost = deviceLost();
      return engine;
    } catch (err) {
      return OrtEngine.create(ort, shape, { ...base, backend: 'wasm', note: `WebGPU session failed (${String(err)}); fell back to WASM` });
    }
  }
  return OrtEngine.create(ort, shape, { ...base, backend: 'wasm', note: `${adapter.detail}; fell back to WASM` });
}

/**
 * A population of `size` policies (an ensemble: see src/core/ensemble.ts) with the same backend
 * choice as createBrowserEngine: WebGPU first, WASM on any failure, the reason in backendNote.
 * `weights`: one vector for every member (e.g. the shipped base) or one per member.
 */
export async function createBrowserPopulation(
  shape: PolicyShape,
  opts: Omit<BrowserEngineOptions, 'weights'> & { size: number; weights?: Float32Array | Float32Array[] },
): Promise<OrtPopulation> {
  ort.env.wasm.numThreads = opts.numThreads ?? defaultWasmThreads();
  const base = { seed: opts.seed, weights: opts.weights, size: opts.size };
  if (opts.prefer === 'wasm') return OrtPopulation.create(ort, shape, { ...base, backend: 'wasm', note: 'WASM chosen in the settings' });
  const adapter = await webgpuAdapter();
  if (adapter.ok) {
    try {
      const pop = await OrtPopulation.create(ort, shape, { ...base, backend: 'webgpu', note: `WebGPU adapter: ${adapter.detail}` });
      pop.lost = deviceLost();
      return pop;
    } catch (err) {
      return OrtPopulation.create(ort, shape, { ...base, backend: 'wasm', note: `WebGPU session failed (${String(err)}); fell back to WASM` });
    }
  }
  return OrtPopulation.create(ort, shape, { ...base, backend: 'wasm', note: `${adapter.detail}; fell back to WASM` });
}
