// onnxruntime-web's WebGPU EP in Node (benchmarks only): Dawn's Node bindings (npm `webgpu`, a
// bench-only install in bench/webgpu/, kept out of the lab's dependencies) give Node a
// `navigator.gpu`; ORT's WebGPU build is imported by file path (its `webgpu` subpath fails in Node).
// The three shims are the recipe of DESIGN.md "WebGPU without a browser".
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { adapterName, isSoftwareAdapter, type GpuAdapterInfo } from './backend-choice';
import type { OrtModule } from './ort-population';

/** Where the bench-only install lives (its own package.json and lock). */
export const WEBGPU_INSTALL_DIR = fileURLToPath(new URL('../../bench/webgpu/', import.meta.url));

type WriteBuffer = (buffer: unknown, offset: number, data: unknown, dataOffset?: number, size?: number) => void;
interface GpuLike {
  requestAdapter(): Promise<{ info?: GpuAdapterInfo; isFallbackAdapter?: boolean } | null>;
}

export interface NodeWebgpu {
  ort: OrtModule;
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
  queueProto.writeBuffer = function (this: unknown, buffer, offset, data, dataOffset, size) {
    const view = ArrayBuffer.isView(data) ? data : null;
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
  return { ort, adapter: { name: adapterName(info), software: isSoftwareAdapter(info, fallback) }, close: () => clearInterval(keepAlive) };
}
