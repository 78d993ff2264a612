// The builds of onnxruntime-web a browser worker runs, each loaded the first time it is needed: the
// plain WASM build for the WASM backend, and the native WebGPU build only where WebGPU is tried. The
// WebGPU build is compiled with Asyncify (its WebAssembly awaits the GPU): 27 MB of WebAssembly
// against the plain build's 14 MB, so a worker on WASM compiled twice as much for slower code
// (docs/performance.md). Both give the same WASM results bit for bit
// (tests/e2e/reproducible.test.ts: the page's frames equal Node's, which runs the plain build).
import type { Backend, OrtModule } from './ort-session';

let wasmBuild: Promise<OrtModule> | null = null;
let webgpuBuild: Promise<OrtModule> | null = null;

/** The build for `backend`: WebGPU's also carries the WASM EP, for the ops it keeps on the CPU. */
export function ortFor(backend: Backend): Promise<OrtModule> {
  if (backend === 'wasm') return (wasmBuild ??= import('onnxruntime-web/wasm'));
  return (webgpuBuild ??= import('onnxruntime-web/webgpu'));
}
