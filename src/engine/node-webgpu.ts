// onnxruntime-web's WebGPU EP in Node (benchmarks only): Dawn's Node bindings (npm `webgpu`, a
// bench-only install in bench/webgpu/, kept out of the lab's dependencies) give Node a
// `navigator.gpu`; ORT's WebGPU build is imported by file path (its `webgpu` subpath fails in Node).
// Three shims make it work (loadNodeWebgpu: navigator.gpu, copies of shared-memory views, a
// keep-alive timer; docs/engine.md "WebGPU in Node"). The WebGPU calls ORT makes
// are counted at the API (`gpuCalls`): kernels dispatched, command buffers submitted, buffers mapped
// for reading (readbacks the run waits for), buffer writes (uploads) and their bytes.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { adapterName, isSoftwareAdapter, type GpuAdapterInfo } from './backend-choice';
import type { OrtModule } from './ort-population';
import { sortedCounts } from './run-costs';

/** Where the bench-only install lives (its own package.json and lock). */
export const WEBGPU_INSTALL_DIR = fileURLToPath(new URL('../../bench/webgpu/', import.meta.url));

type WriteBuffer = (buffer: unknown, offset: number, data: unknown, dataOffset?: number, size?: number) => void;
interface GpuLike {
  requestAdapter(): Promise<{ info?: GpuAdapterInfo; isFallbackAdapter?: boolean } | null>;
}

/** WebGPU API calls since the last reset (counted on the prototypes, so every device's calls). */
export interface GpuCalls {
  dispatches: number;
  submits: number;
  maps: number;
  writes: number;
  write_bytes: number;
  copies: number;
  /** Dispatches per kernel: the label onnxruntime gives each compute pipeline (its program's name, e.g. MatMul, LayerNorm). */
  kernels: Record<string, number>;
}

export interface NodeWebgpu {
  ort: OrtModule;
  gpuCalls: { read(): GpuCalls; reset(): void };
  /** The adapter as Dawn names it (vendor / architecture / description), and whether it is software. */
  adapter: { name: string; software: boolean };
  /** Let Node exit (clears the keep-alive timer). */
  close(): void;
}

export async function loadNodeWebgpu(): Promise<NodeWebgpu> {
  const entry = `${WEBGPU_INSTALL_DIR}node_modules/webgpu/index.js`;
  if (!existsSync(entry)) {
    throw new Error(`the WebGPU bench needs its own install: npm --prefix bench/webgpu ci (Dawn's Node bindings, npm 'webgpu' 0.6.2; not found at ${entry})`);
  }
  const { create, globals } = (await import(pathToFileURL(entry).href)) as { create(flags: string[]): GpuLike; globals: Record<string, unknown> };
  Object.assign(globalThis, globals);
  const gpu = create([]);
  // Shim 1: ORT looks for navigator.gpu (Node 20 has no navigator; Node 21+ has one without gpu).
  Object.defineProperty(globalThis, 'navigator', { value: { ...(globalThis.navigator ?? {}), gpu }, configurable: true, writable: true });
  // Shim 2: ORT's threaded WASM heap is a SharedArrayBuffer; Dawn rejects views of one ("Invalid argument").
  const queueProto = (globals.GPUQueue as { prototype: { writeBuffer: WriteBuffer } }).prototype;
  const writeBuffer = queueProto.writeBuffer;
  const calls = countCalls(globals);
  queueProto.writeBuffer = function (this: unknown, buffer, offset, data, dataOffset, size) {
    const view = ArrayBuffer.isView(data) ? data : null;
    calls.count.writes++;
    // dataOffset / size count elements of a typed array, bytes of an ArrayBuffer
    const unit = view && 'BYTES_PER_ELEMENT' in view ? (view as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT : 1;
    const total = view ? view.byteLength : (data as ArrayBuffer).byteLength;
    calls.count.write_bytes += size !== undefined ? size * unit : total - (dataOffset ?? 0) * unit;
    if (view && view.buffer instanceof SharedArrayBuffer) {
      // same element type, so dataOffset / size (in elements) keep their meaning
      const Ctor = view.constructor as new (b: ArrayBuffer) => ArrayBufferView;
      const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength).slice();
      return writeBuffer.call(this, buffer, offset, view instanceof DataView ? new DataView(bytes.buffer) : new Ctor(bytes.buffer), dataOffset, size);
    }
    return writeBuffer.call(this, buffer, offset, data, dataOffset, size);
  };
  // Shim 3: Dawn's pending work holds no Node handle; without a timer Node exits mid-run.
  const keepAlive = setInterval(() => undefined, 1000);
  const adapter = await gpu.requestAdapter();
  if (!adapter) {
    clearInterval(keepAlive);
    throw new Error('WebGPU in Node: requestAdapter() returned no adapter (no Vulkan driver? with no GPU: VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json)');
  }
  const info = adapter.info ?? {};
  // the package's exports map hides dist/: find the file beside its Node entry
  const ortFile = join(dirname(createRequire(import.meta.url).resolve('onnxruntime-web')), 'ort.webgpu.mjs');
  const ort = (await import(pathToFileURL(ortFile).href)) as OrtModule;
  const fallback = adapter.isFallbackAdapter ?? false;
  return {
    ort, gpuCalls: { read: () => ({ ...calls.count, kernels: sortedCounts(calls.count.kernels) }), reset: calls.reset },
    adapter: { name: adapterName(info), software: isSoftwareAdapter(info, fallback) }, close: () => clearInterval(keepAlive),
  };
}

type Method = (this: unknown, ...args: unknown[]) => unknown;

type Counted = Exclude<keyof GpuCalls, 'kernels'>;

/**
 * Counts dispatches (in all and per kernel), submits, maps and copies by wrapping Dawn's prototypes
 * (writes: in shim 2). A dispatch is attributed to the label of the pipeline last set on its pass.
 */
function countCalls(globals: Record<string, unknown>) {
  const zero = (): GpuCalls => ({ dispatches: 0, submits: 0, maps: 0, writes: 0, write_bytes: 0, copies: 0, kernels: {} });
  const calls = { count: zero(), reset: () => Object.assign(calls.count, zero()) };
  const proto = (cls: string) => (globals[cls] as { prototype: Record<string, Method> }).prototype;
  const wrap = (cls: string, method: string, key: Counted, also?: (args: unknown[]) => void) => {
    const inner = proto(cls)[method];
    proto(cls)[method] = function (this: unknown, ...args: unknown[]) {
      calls.count[key]++;
      also?.(args);
      return inner.apply(this, args);
    };
  };
  const labels = new WeakMap<object, string>();
  const device = proto('GPUDevice');
  for (const method of ['createComputePipeline', 'createComputePipelineAsync']) {
    const inner = device[method];
    device[method] = function (this: unknown, ...args: unknown[]) {
      // onnxruntime names the shader module after its program (the pipeline itself may have no label)
      const desc = args[0] as { label?: string; compute?: { module?: { label?: string } } } | undefined;
      const label = desc?.label || desc?.compute?.module?.label || '(unlabeled)';
      const made = inner.apply(this, args) as object | PromiseLike<object>;
      if (typeof (made as PromiseLike<object>).then === 'function') return (made as PromiseLike<object>).then((p) => (labels.set(p, label), p));
      labels.set(made as object, label);
      return made;
    };
  }
  let current = '(none)';
  const setPipeline = proto('GPUComputePassEncoder').setPipeline;
  proto('GPUComputePassEncoder').setPipeline = function (this: unknown, ...args: unknown[]) {
    current = labels.get(args[0] as object) ?? '(unlabeled)';
    return setPipeline.apply(this, args);
  };
  const perKernel = () => (calls.count.kernels[current] = (calls.count.kernels[current] ?? 0) + 1);
  wrap('GPUComputePassEncoder', 'dispatchWorkgroups', 'dispatches', perKernel);
  wrap('GPUComputePassEncoder', 'dispatchWorkgroupsIndirect', 'dispatches', perKernel);
  wrap('GPUQueue', 'submit', 'submits');
  wrap('GPUBuffer', 'mapAsync', 'maps');
  wrap('GPUCommandEncoder', 'copyBufferToBuffer', 'copies');
  return calls;
}
