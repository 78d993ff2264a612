// Node entry (tests, CLI, benchmarks): the WASM build of onnxruntime-web.
import * as ort from 'onnxruntime-web';
import type { PolicyShape } from '../core/engine';
import { OrtEngine, OrtPopulation } from './ort-engine';

// The one onnxruntime-web module of Node code: the CLI, benchmarks and the gradient checker take it
// from here rather than importing onnxruntime-web themselves.
export { OrtEngine, OrtPopulation, ort };

export function createNodeEngine(shape: PolicyShape, opts: { seed: number; weights?: Float32Array }): Promise<OrtEngine> {
  return OrtEngine.create(ort, shape, { ...opts, backend: 'wasm', note: 'Node: WASM execution provider' });
}

/** A population of `size` policies on WASM (an ensemble: see src/core/ensemble.ts). */
export function createNodePopulation(shape: PolicyShape, opts: { size: number; seed: number; weights?: Float32Array | Float32Array[] }): Promise<OrtPopulation> {
  return OrtPopulation.create(ort, shape, { ...opts, backend: 'wasm', note: 'Node: WASM execution provider' });
}
