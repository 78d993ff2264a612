/**
 * Engine probe worker (test harness): runs an arbitrary ONNX model with onnxruntime-web's native
 * WebGPU build (its WebGPU EP, WASM fallback) inside a module Web Worker. See probe.api.ts for the contract.
 */
import * as Comlink from 'comlink';
import { ortFor, type Ort, type OrtModule } from '../../../src/engine/browser';
import type {
  AdapterInfoJson,
  ProbeApi,
  ProbeBackend,
  ProbeEnv,
  ProbeRunRequest,
  ProbeRunResult,
  TensorJson,
} from './probe.api';

interface GpuLike {
  requestAdapter(): Promise<{ info?: Partial<AdapterInfoJson> } | null>;
}

async function probeEnv(): Promise<ProbeEnv> {
  const ort = await ortFor('webgpu');
  const gpu = (navigator as unknown as { gpu?: GpuLike }).gpu;
  let adapter: AdapterInfoJson | null = null;
  if (gpu) {
    const a = await gpu.requestAdapter().catch(() => null);
    if (a) {
      const i = a.info ?? {};
      adapter = {
        vendor: i.vendor ?? '',
        architecture: i.architecture ?? '',
        device: i.device ?? '',
        description: i.description ?? '',
      };
    }
  }
  return {
    crossOriginIsolated: self.crossOriginIsolated,
    hardwareConcurrency: navigator.hardwareConcurrency,
    hasNavigatorGpu: gpu !== undefined,
    adapter,
    ortVersion: ort.env.versions.web ?? '',
  };
}

function toTensor(ort: OrtModule, t: TensorJson): Ort.Tensor {
  switch (t.type) {
    case 'float32':
      return new ort.Tensor('float32', Float32Array.from(t.data), t.dims);
    case 'int32':
      return new ort.Tensor('int32', Int32Array.from(t.data), t.dims);
    case 'int64':
      return new ort.Tensor('int64', BigInt64Array.from(t.data, (v) => BigInt(v)), t.dims);
    case 'bool':
      return new ort.Tensor('bool', Uint8Array.from(t.data, (v) => (v ? 1 : 0)), t.dims);
    case 'uint8':
      return new ort.Tensor('uint8', Uint8Array.from(t.data), t.dims);
  }
}

async function fromTensor(t: Ort.Tensor): Promise<TensorJson> {
  const data = (await t.getData()) as ArrayLike<number | bigint>;
  const arr: number[] = [];
  for (let i = 0; i < data.length; i++) arr.push(Number(data[i]));
  const type = t.type as TensorJson['type'];
  return { type, dims: [...t.dims], data: arr };
}

async function createSession(
  ort: OrtModule,
  model: Uint8Array,
  backend: ProbeBackend,
  gpuOutputs: string[],
): Promise<Ort.InferenceSession> {
  const opts: Ort.InferenceSession.SessionOptions = {
    executionProviders: [backend],
    graphOptimizationLevel: 'all',
  };
  if (backend === 'webgpu' && gpuOutputs.length > 0) {
    opts.preferredOutputLocation = Object.fromEntries(gpuOutputs.map((n) => [n, 'gpu-buffer']));
  }
  return ort.InferenceSession.create(model, opts);
}

async function run(req: ProbeRunRequest): Promise<ProbeRunResult> {
  const ort = await ortFor('webgpu');
  if (req.numThreads !== undefined) ort.env.wasm.numThreads = req.numThreads;
  const env = await probeEnv();
  const feedback = req.feedback ?? {};
  const gpuOutputs = req.gpuResident === false ? [] : Object.keys(feedback);

  let backend: ProbeBackend = req.backend === 'wasm' ? 'wasm' : 'webgpu';
  let fallbackReason: string | undefined;
  if (backend === 'webgpu' && !env.adapter) {
    if (req.backend === 'webgpu') throw new Error('WebGPU requested but no adapter is available');
    backend = 'wasm';
    fallbackReason = env.hasNavigatorGpu ? 'requestAdapter() returned null' : 'navigator.gpu is absent';
  }
  const t0 = performance.now();
  let session: Ort.InferenceSession;
  try {
    session = await createSession(ort, req.model, backend, gpuOutputs);
  } catch (err) {
    if (req.backend !== 'auto' || backend === 'wasm') throw err;
    fallbackReason = `webgpu session failed: ${String(err)}`;
    backend = 'wasm';
    session = await createSession(ort, req.model, backend, []);
  }
  const createMs = performance.now() - t0;

  const feeds: Record<string, Ort.Tensor> = {};
  for (const [name, t] of Object.entries(req.feeds)) feeds[name] = toTensor(ort, t);
  const owned = new Set<Ort.Tensor>(Object.values(feeds));
  const runMs: number[] = [];
  const feedbackLocations: string[][] = [];
  let results: Ort.InferenceSession.ReturnType = {};
  const steps = req.steps ?? 1;
  try {
    for (let s = 0; s < steps; s++) {
      const t = performance.now();
      results = await session.run(feeds);
      runMs.push(performance.now() - t);
      for (const r of Object.values(results)) owned.add(r);
      feedbackLocations.push(Object.keys(feedback).map((o) => results[o]?.location ?? 'missing'));
      if (s + 1 < steps) {
        for (const [out, inp] of Object.entries(feedback)) {
          const next = results[out];
          if (!next) throw new Error(`feedback output ${out} not produced`);
          const prev = feeds[inp];
          feeds[inp] = next;
          if (prev && prev !== next) {
            prev.dispose();
            owned.delete(prev);
          }
        }
      }
    }
    const names = req.fetch ?? Object.keys(results);
    const outputs: Record<string, TensorJson> = {};
    const outputLocations: Record<string, string> = {};
    for (const n of names) {
      const r = results[n];
      if (!r) throw new Error(`output ${n} not produced`);
      outputLocations[n] = r.location;
      outputs[n] = await fromTensor(r);
    }
    return {
      backend,
      ...(fallbackReason !== undefined ? { fallbackReason } : {}),
      env,
      outputs,
      outputLocations,
      feedbackLocations,
      numThreads: ort.env.wasm.numThreads ?? 0,
      createMs,
      runMs,
    };
  } finally {
    for (const t of owned) t.dispose();
    await session.release();
  }
}

const api: ProbeApi = { env: probeEnv, run };
// ORT's WASM pthreads start as module workers named 'em-pthread': only the real worker exposes the API.
if (!self.name.startsWith('em-pthread')) Comlink.expose(api);
