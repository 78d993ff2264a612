// The onnxruntime-web pieces a population (ort-population.ts) is built of: the module and backend
// types, its options, a session from a graph, the parameter matrices ([P, N], with the generation
// of each member's row) and how reads group members by matrix, member rows, tensor disposal.
import type * as Ort from 'onnxruntime-web';
import type { Graph } from '../graph/builder';
import { encodeModel } from '../graph/encode';
import type { OutputLayout } from '../model/graphs';
import { initParams, type ParamLayout } from '../model/layout';

export type OrtModule = typeof Ort;
/** onnxruntime-web's types (Tensor, InferenceSession), for code that holds a build as a value. */
export type { Ort };
export type Backend = 'webgpu' | 'wasm';

export interface OrtPopulationOptions {
  backend: Backend;
  /** Members (default 1). */
  size?: number;
  /** Seed of the deterministic init (member p: seed + p), ignored where `weights` gives weights. */
  seed: number;
  /** Initial weights: one vector for every member, or one per member. */
  weights?: Float32Array | Float32Array[];
  /** Why this backend was chosen (e.g. the WebGPU failure that caused a WASM fallback). */
  note?: string;
  /** Resolves when the backend's device is gone (WebGPU device loss). */
  lost?: Promise<string>;
  /** How results come back (default 'fused': one readback per run; 'separate' only for the bench's before/after). */
  outputs?: OutputLayout;
}

/** A parameter matrix [P, N] and which version (generation) of each member's row it holds. */
export interface ParamBuf {
  tensor: Ort.Tensor;
  gens: number[];
  /** Holders: the trainer and weights handles; disposed at 0. */
  refs: number;
}

export type Sessions = Record<'score' | 'generate' | 'train' | 'sft', Ort.InferenceSession>;

/** The weights a population starts from: `opts.weights` (one for all, or one per member), else the seeded init. */
export function initialWeights(layout: ParamLayout, size: number, opts: Pick<OrtPopulationOptions, 'seed' | 'weights'>): Float32Array[] {
  const w = opts.weights;
  return Array.from({ length: size }, (_, p) => (Array.isArray(w) ? w[p] : w) ?? initParams(layout, opts.seed + p));
}

/** Member p's block of `size` values (a copy: results outlive the run's buffers). */
export function row<A extends Int32Array | Float32Array>(a: A, p: number, size: number): A {
  return a.slice(p * size, (p + 1) * size) as A;
}

/** The outputs a train step keeps on the device (WebGPU): parameters and moments are fed back. */
export const TRAIN_DEVICE_OUTPUTS = ['params_out', 'm_out', 'v_out'];

/** A session of graph `g`; `gpuOutputs` stay on the device where the backend is WebGPU. */
export async function createSession(ort: OrtModule, g: Graph, backend: Backend, gpuOutputs: string[]): Promise<Ort.InferenceSession> {
  if (backend !== 'webgpu') gpuOutputs = [];
  const preferredOutputLocation = Object.fromEntries(gpuOutputs.map((n) => [n, 'gpu-buffer' as const]));
  return ort.InferenceSession.create(encodeModel(g), {
    executionProviders: [backend],
    graphOptimizationLevel: 'all',
    // Errors only: at creation ORT warns that shape ops run on the CPU, which is by design.
    logSeverityLevel: 3,
    ...(gpuOutputs.length ? { preferredOutputLocation } : {}),
  });
}

export function disposeAll(ts: (Ort.Tensor | undefined)[]): void {
  for (const t of ts) if (t && t.location !== 'cpu') t.dispose();
}

/**
 * Members grouped by the parameter matrix to read them from, in as few groups as it takes: `need`
 * gives each member the matrix and generation of the row it needs; a matrix serves every member
 * whose needed generation it holds.
 */
export function fewestMatrices(need: ReadonlyMap<number, { buf: ParamBuf; gen: number }>): { buf: ParamBuf; members: number[] }[] {
  const groups: { buf: ParamBuf; members: number[] }[] = [];
  let left = [...need.keys()];
  while (left.length) {
    let best: { buf: ParamBuf; members: number[] } | null = null;
    for (const p of left) {
      const buf = need.get(p)!.buf;
      const members = left.filter((q) => buf.gens[q] === need.get(q)!.gen);
      if (!best || members.length > best.members.length) best = { buf, members };
    }
    groups.push(best!);
    left = left.filter((p) => !best!.members.includes(p));
  }
  return groups;
}
