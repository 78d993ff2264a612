// Checkpoints: the flat parameter vector as raw little-endian float32 plus a JSON manifest entry
// per task (public/checkpoints/manifest.json, written by `npm run pretrain`). One rule decides
// whether a checkpoint fits a model; the CLI, the fidelity suite and the lab worker all call it.
import type { PolicyShape } from '../core/engine';
import { paramLayout } from './layout';

export interface CheckpointEntry {
  file: string;
  shape: PolicyShape;
  params: number;
  temperature: number;
  steps: number;
  lr: number;
  batch: number;
  seed: number;
  finalLoss: number;
  sha256: string;
}

export type Manifest = Record<string, CheckpointEntry>;

/** Why a checkpoint does not fit this model and sampling temperature, or null when it does. */
export function checkpointMismatch(entry: CheckpointEntry, shape: PolicyShape, temperature: number): string | null {
  if (JSON.stringify(entry.shape) !== JSON.stringify(shape)) return `the checkpoint ${entry.file} is for another model shape`;
  if (entry.params !== paramLayout(shape).total) return `the checkpoint ${entry.file} has ${entry.params} parameters, the model ${paramLayout(shape).total}`;
  if (entry.temperature !== temperature) return `the checkpoint ${entry.file} was trained at temperature ${entry.temperature}`;
  return null;
}

/** Raw checkpoint bytes → weights (copied, aligned), checked against the entry's size. */
export function decodeCheckpoint(bytes: ArrayBuffer | Uint8Array, entry: CheckpointEntry): Float32Array {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  if (view.byteLength !== entry.params * 4) throw new Error(`checkpoint ${entry.file} has ${view.byteLength / 4} values, expected ${entry.params}`);
  const out = new Float32Array(entry.params);
  new Uint8Array(out.buffer).set(view);
  for (let i = 0; i < out.length; i++) if (!Number.isFinite(out[i])) throw new Error(`checkpoint ${entry.file} holds a non-finite value at ${i}`);
  return out;
}

export function encodeCheckpoint(weights: Float32Array): Uint8Array {
  return new Uint8Array(weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength));
}
