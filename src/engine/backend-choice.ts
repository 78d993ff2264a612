// How "auto" decides between WebGPU and WASM from their probes (backend-probe.ts), and the words the
// badge shows. The faster measured backend wins; a WebGPU probe that ran out of its time limit or
// failed counts as slower, so a software adapter (SwiftShader, llvmpipe) is only ever chosen when it
// measured faster. Pure: the browser code runs the probes, this only weighs them.
import type { Backend } from './ort-population';

export interface GpuAdapterInfo {
  vendor?: string;
  architecture?: string;
  description?: string;
  device?: string;
  isFallbackAdapter?: boolean;
}

/** A software rasterizer by its adapter info (SwiftShader, llvmpipe, lavapipe, WARP) or the fallback flag. */
export function isSoftwareAdapter(info: GpuAdapterInfo, fallbackFlag = false): boolean {
  if (fallbackFlag || info.isFallbackAdapter) return true;
  const text = [info.vendor, info.architecture, info.description, info.device].filter(Boolean).join(' ');
  return /swiftshader|llvmpipe|lavapipe|softpipe|microsoft basic render|\bwarp\b/i.test(text);
}

export function adapterName(info: GpuAdapterInfo): string {
  return [info.vendor, info.architecture, info.description || info.device].filter(Boolean).join(' / ') || 'unnamed adapter';
}

export type WebgpuProbe =
  | { kind: 'measured'; stepsPerSecond: number }
  /** The probe did not finish within `limitMs` (counts as slower). */
  | { kind: 'ran-out'; limitMs: number }
  | { kind: 'failed'; error: string };

export interface AdapterSummary {
  /** e.g. "google / swiftshader / SwiftShader driver". */
  detail: string;
  software: boolean;
}

export interface BackendChoice {
  backend: Backend;
  /** One line for the badge: "WebGPU 3.1 steps/s vs WASM 9.8: WASM". */
  summary: string;
  webgpu: WebgpuProbe;
  wasmStepsPerSecond: number;
}

/** Time limit of the WebGPU probe: short on a software adapter (never a minute spent measuring it). */
export function webgpuProbeLimitMs(adapter: AdapterSummary): number {
  return adapter.software ? 3_000 : 30_000;
}

export function formatRate(x: number): string {
  return x >= 10 ? x.toFixed(0) : x >= 1 ? x.toFixed(1) : x.toPrecision(2);
}

/** Weigh the two probes. */
export function decideBackend(webgpu: WebgpuProbe, wasmStepsPerSecond: number, adapter: AdapterSummary): BackendChoice {
  const wasm = formatRate(wasmStepsPerSecond);
  const name = adapter.software ? 'WebGPU (software adapter)' : 'WebGPU';
  if (webgpu.kind === 'measured') {
    const backend: Backend = webgpu.stepsPerSecond > wasmStepsPerSecond ? 'webgpu' : 'wasm';
    return { backend, webgpu, wasmStepsPerSecond, summary: `${name} ${formatRate(webgpu.stepsPerSecond)} steps/s vs WASM ${wasm}: ${backend === 'webgpu' ? 'WebGPU' : 'WASM'}` };
  }
  const why = webgpu.kind === 'ran-out' ? `did not finish its ${Math.round(webgpu.limitMs / 1000)} s probe` : `probe failed (${webgpu.error})`;
  return { backend: 'wasm', webgpu, wasmStepsPerSecond, summary: `${name} ${why} vs WASM ${wasm} steps/s: WASM` };
}

/** The badge's note for a choice: the summary line, then what was measured and on which adapter. */
export function choiceNote(choice: BackendChoice, adapter: AdapterSummary, probe: { size: number; batch: number }, cachedAt?: string): string {
  const how = `auto: measured ${probe.size > 1 ? `a population of ${probe.size}, ` : ''}${probe.batch} rows, one sampling pass + one train step per round`;
  const when = cachedAt ? `measured on ${cachedAt}, kept for this adapter and code version` : 'measured now, kept for this adapter and code version';
  return [choice.summary, `${how}; ${when}`, `WebGPU adapter: ${adapter.detail}${adapter.software ? ' (software rasterizer)' : ''}`].join('\n');
}
