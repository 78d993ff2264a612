/**
 * Contract of the engine probe worker (`probe.worker.ts`), used by browser e2e tests to run any
 * ONNX model on a chosen onnxruntime-web backend inside a Web Worker. Everything here is
 * structured-clone and JSON friendly so it crosses comlink and Playwright's `page.evaluate`.
 */

export type ProbeBackend = 'webgpu' | 'wasm';
/** `auto` = WebGPU first, WASM when WebGPU is unavailable or the session cannot be created. */
export type ProbeBackendRequest = ProbeBackend | 'auto';

export type TensorType = 'float32' | 'int32' | 'int64' | 'bool' | 'uint8';

/** A tensor as plain data (int64 as JS numbers; bool as 0/1). */
export interface TensorJson {
  type: TensorType;
  dims: number[];
  data: number[];
}

export interface ProbeRunRequest {
  /** Serialized ModelProto. */
  model: Uint8Array;
  feeds: Record<string, TensorJson>;
  backend: ProbeBackendRequest;
  /** Number of session.run calls (default 1). */
  steps?: number;
  /**
   * outputName → inputName: after each step the output becomes that input of the next step.
   * On WebGPU these outputs stay on the GPU (`preferredOutputLocation: 'gpu-buffer'`) unless
   * `gpuResident` is false; the previous step's fed-back tensors are disposed.
   */
  feedback?: Record<string, string>;
  /** Keep fed-back outputs as gpu-buffer tensors on WebGPU (default true). */
  gpuResident?: boolean;
  /** ort.env.wasm.numThreads for this worker (default: ORT's own choice). */
  numThreads?: number;
  /** Output names to return (default: all outputs of the last step). */
  fetch?: string[];
}

export interface AdapterInfoJson {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
}

export interface ProbeEnv {
  crossOriginIsolated: boolean;
  hardwareConcurrency: number;
  hasNavigatorGpu: boolean;
  /** null when navigator.gpu is absent or requestAdapter() returns null. */
  adapter: AdapterInfoJson | null;
  ortVersion: string;
}

export interface ProbeRunResult {
  backend: ProbeBackend;
  /** Why `auto` fell back to WASM (absent when it did not). */
  fallbackReason?: string;
  env: ProbeEnv;
  outputs: Record<string, TensorJson>;
  /** Data location of each fetched output after the last step ('cpu' | 'gpu-buffer' | ...). */
  outputLocations: Record<string, string>;
  /** Locations of the fed-back outputs at every step, to prove GPU residency. */
  feedbackLocations: string[][];
  numThreads: number;
  createMs: number;
  /** Wall time of each session.run (first includes shader compilation on WebGPU). */
  runMs: number[];
}

export interface ProbeApi {
  env(): Promise<ProbeEnv>;
  run(req: ProbeRunRequest): Promise<ProbeRunResult>;
}
