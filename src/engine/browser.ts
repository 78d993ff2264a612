// Browser entry (inside a Web Worker). The backend is the user's choice, or ("auto") the faster of
// the two as measured on this machine; any WebGPU failure falls back to WASM with the reason kept.
import type { PolicyShape } from '../core/engine';
import type { BackendPreference } from '../core/run/types';
import {
  adapterName, choiceNote, decideBackend, isSoftwareAdapter, webgpuProbeLimitMs, type AdapterSummary, type GpuAdapterInfo, type WebgpuProbe,
} from './backend-choice';
import { probeStepsPerSecond, type ProbeReply, type ProbeWorkload } from './backend-probe';
import { OrtEngine, OrtPopulation, type Backend, type OrtModule } from './ort-engine';
import { initialWeights } from './ort-session';
import { ortFor } from './ort-builds';
import { keepChoice, readChoice } from './probe-cache';

// onnxruntime-web's builds, one per backend (ort-builds.ts); the browser test workers take them from here too.
export { ortFor };
export type { Ort, OrtModule } from './ort-session';

/** `backend`'s build with `threads` WASM threads (read when the build starts its first session). */
async function ortWithThreads(backend: Backend, threads: number): Promise<OrtModule> {
  const ort = await ortFor(backend);
  ort.env.wasm.numThreads = threads;
  return ort;
}

export interface BrowserEngineOptions {
  prefer: BackendPreference;
  seed: number;
  weights?: Float32Array;
  /** WASM threads (needs cross-origin isolation); default: defaultWasmThreads(). */
  numThreads?: number;
  /** Rows per member in the "auto" probe: the config's rollout batch (default 16). */
  probeBatch?: number;
  /** Why WASM is forced, shown instead of "WASM chosen in the settings" (e.g. after a WebGPU device loss). */
  reason?: string;
}

const DEFAULT_PROBE_BATCH = 16;

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
  info?: GpuAdapterInfo;
  isFallbackAdapter?: boolean;
}

type AdapterState = ({ ok: true } & AdapterSummary) | { ok: false; detail: string };

/** The WebGPU adapter (its name, and whether it is a software rasterizer), or why there is none. */
export async function webgpuAdapter(): Promise<AdapterState> {
  const gpu = (navigator as unknown as { gpu?: { requestAdapter(): Promise<GpuAdapterLike | null> } }).gpu;
  if (!gpu) return { ok: false, detail: 'navigator.gpu is absent (no WebGPU in this browser)' };
  const adapter = await gpu.requestAdapter().catch(() => null);
  if (!adapter) return { ok: false, detail: 'requestAdapter() returned no adapter' };
  const info = adapter.info ?? {};
  return { ok: true, detail: adapterName(info), software: isSoftwareAdapter(info, adapter.isFallbackAdapter) };
}

interface GpuDeviceLike {
  lost: Promise<{ reason?: string; message?: string }>;
}

/**
 * The WebGPU device onnxruntime-web runs on (created with the first WebGPU session), as a promise
 * of why it was lost: driver reset, GPU process crash, `device.destroy()`.
 */
function deviceLost(ort: OrtModule): Promise<string> {
  const lost = async () => {
    const device = (await ort.env.webgpu.device) as unknown as GpuDeviceLike;
    const info = await device.lost;
    return [info.reason, info.message].filter(Boolean).join(': ') || 'unknown reason';
  };
  // no device to watch: never resolves (nothing to report), rather than an unhandled rejection
  return lost().catch(() => new Promise<string>(() => undefined));
}

/**
 * The WebGPU probe in a worker of its own (src/engine/probe.worker.ts), ended at `limitMs`: a probe
 * that runs out counts as slower (backend-choice.ts).
 */
function probeWebgpuIsolated(workload: ProbeWorkload, limitMs: number): Promise<WebgpuProbe> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./probe.worker.ts', import.meta.url), { type: 'module', name: 'backend-probe' });
    } catch (e) {
      resolve({ kind: 'failed', error: `no probe worker: ${String(e)}` });
      return;
    }
    const done = (r: WebgpuProbe) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(r);
    };
    const timer = setTimeout(() => done({ kind: 'ran-out', limitMs }), limitMs);
    worker.onmessage = (e: MessageEvent<ProbeReply>) => done(e.data.ok ? { kind: 'measured', stepsPerSecond: e.data.stepsPerSecond } : { kind: 'failed', error: e.data.error });
    worker.onerror = (e) => done({ kind: 'failed', error: e.message || 'the probe worker failed to load' });
    worker.postMessage(workload);
  });
}

/** Kept choices are per adapter, code version and workload (another model or population measures again). */
function choiceKey(adapter: AdapterSummary, w: ProbeWorkload, threads: number): string {
  const version = (import.meta.env.VITE_CODE_VERSION as string | undefined) ?? 'dev';
  return [version, adapter.detail, JSON.stringify(w.shape), `P${w.size}`, `B${w.batch}`, `threads${threads}`].join('|');
}

export type BrowserPopulationOptions = Omit<BrowserEngineOptions, 'weights'> & { size: number; weights?: Float32Array | Float32Array[] };

/**
 * A population of `size` policies (1: a single run; an ensemble: see src/core/ensemble.ts) on the
 * backend chosen as `prefer` says: WASM or WebGPU when the user chose one (WebGPU falls back to WASM
 * on any failure, with the reason); "auto" measures both on this workload (backend-probe.ts), keeps
 * the result per adapter + code version and takes the faster. backendNote's first line says why.
 */
export async function createBrowserPopulation(shape: PolicyShape, opts: BrowserPopulationOptions): Promise<OrtPopulation> {
  const threads = opts.numThreads ?? defaultWasmThreads();
  const base = { seed: opts.seed, weights: opts.weights, size: opts.size };
  const wasm = async (note: string) => OrtPopulation.create(await ortWithThreads('wasm', threads), shape, { ...base, backend: 'wasm', note });
  const webgpu = async (note: string) => {
    try {
      const ort = await ortWithThreads('webgpu', threads);
      const pop = await OrtPopulation.create(ort, shape, { ...base, backend: 'webgpu', note });
      pop.lost = deviceLost(ort);
      return pop;
    } catch (err) {
      return wasm(`WebGPU session failed (${String(err)}); fell back to WASM\n${note}`);
    }
  };
  if (opts.prefer === 'wasm') return wasm(opts.reason ?? 'WASM chosen in the settings');
  const adapter = await webgpuAdapter();
  if (!adapter.ok) return wasm(`${adapter.detail}; fell back to WASM`);
  if (opts.prefer === 'webgpu') return webgpu(`WebGPU chosen in the settings\nWebGPU adapter: ${adapter.detail}`);

  const workload: ProbeWorkload = { shape, size: opts.size, batch: opts.probeBatch ?? DEFAULT_PROBE_BATCH };
  const key = choiceKey(adapter, workload, threads);
  const kept = await readChoice(key);
  if (kept) {
    const note = choiceNote(kept.choice, adapter, workload, kept.at);
    return kept.choice.backend === 'webgpu' ? webgpu(note) : wasm(note);
  }
  // WASM first, in this worker (its population is the one kept when WASM wins), then WebGPU alone
  const pop = await wasm('');
  const wasmRate = await probeStepsPerSecond(pop, workload.batch);
  const probe = await probeWebgpuIsolated(workload, webgpuProbeLimitMs(adapter));
  const choice = decideBackend(probe, wasmRate, adapter);
  if (probe.kind !== 'failed') await keepChoice(key, choice);
  const note = choiceNote(choice, adapter, workload);
  if (choice.backend === 'webgpu') {
    await pop.dispose();
    return webgpu(note);
  }
  await pop.setWeights(initialWeights(pop.layout, opts.size, base)); // the probe's steps leave no trace
  pop.backendNote = note;
  return pop;
}

/** A single run (a population of one) on the backend createBrowserPopulation chooses. */
export async function createBrowserEngine(shape: PolicyShape, opts: BrowserEngineOptions): Promise<OrtEngine> {
  return OrtEngine.of(await createBrowserPopulation(shape, { ...opts, size: 1 }));
}
