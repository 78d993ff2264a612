// The shipped base checkpoints on disk (Node): the manifest and the base that fits a config.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PolicyShape } from '../core/engine';
import { checkpointMismatch, decodeCheckpoint, type Manifest } from '../model/checkpoint';

export const CHECKPOINT_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../public/checkpoints');

export function readManifest(): Manifest {
  const p = join(CHECKPOINT_DIR, 'manifest.json');
  return existsSync(p) ? (JSON.parse(readFileSync(p, 'utf8')) as Manifest) : {};
}

/** The shipped base of `task` when it fits the model and temperature, else the reason it does not. */
export function shippedBase(task: string, shape: PolicyShape, temperature: number): { weights: Float32Array; file: string } | string {
  const entry = readManifest()[task];
  if (!entry) return `no shipped checkpoint for ${task}`;
  const mismatch = checkpointMismatch(entry, shape, temperature);
  if (mismatch) return mismatch;
  const file = join(CHECKPOINT_DIR, entry.file);
  return { weights: decodeCheckpoint(readFileSync(file), entry), file };
}
