/**
 * A run snapshot (types.ts LabSnapshot) as a JSON file, exactly: typed arrays are written as their
 * bytes in base64 ({"$f32": "..."}, {"$f64": "..."}: every bit kept, -0 and NaN payloads included),
 * and reading checks the shape and the settings before anything runs on it.
 */
import { errorText, isObject } from '../unknown';
import { makeConfig } from '../config';
import type { LabSnapshot } from './types';

export const SNAPSHOT_FILE_FORMAT = 'invariant-lab/run-snapshot@1';

export function snapshotToJson(snap: LabSnapshot): string {
  return JSON.stringify({ format: SNAPSHOT_FILE_FORMAT, snapshot: snap }, (_key, v: unknown) => {
    if (v instanceof Float32Array) return { $f32: toBase64(v) };
    if (v instanceof Float64Array) return { $f64: toBase64(v) };
    return v;
  });
}

function toBase64(a: Float32Array | Float64Array): string {
  const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

function fromBase64(text: string, width: 4 | 8): Float32Array | Float64Array {
  const bin = atob(text);
  if (bin.length % width) throw new Error(`snapshot: ${bin.length} bytes is not a whole number of ${width * 8}-bit floats`);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return width === 4 ? new Float32Array(bytes.buffer) : new Float64Array(bytes.buffer);
}

function revive(_key: string, v: unknown): unknown {
  if (!isObject(v)) return v;
  const keys = Object.keys(v);
  if (keys.length !== 1) return v;
  const text = v[keys[0]];
  if ((keys[0] === '$f32' || keys[0] === '$f64') && typeof text === 'string') return fromBase64(text, keys[0] === '$f32' ? 4 : 8);
  return v;
}

/** The snapshot in a file's text; throws naming what is wrong (not JSON, another format, a missing part, a bad setting). */
export function snapshotFromJson(text: string): LabSnapshot {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ''), revive);
  } catch (e) {
    throw new Error(`not valid JSON (${errorText(e)})`);
  }
  if (!isObject(doc) || doc.format !== SNAPSHOT_FILE_FORMAT) throw new Error(`not a run snapshot (expected "format": "${SNAPSHOT_FILE_FORMAT}")`);
  const s = doc.snapshot;
  if (!isObject(s)) throw new Error('snapshot: missing');
  const wholeStep = (k: string, v: unknown) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new Error(`snapshot.${k}: expected a whole number ≥ 0, got ${JSON.stringify(v)}`);
  };
  wholeStep('step', s.step);
  wholeStep('origin', s.origin);
  if (!(s.base instanceof Float32Array)) throw new Error('snapshot.base: expected float32 weights');
  const run = s.run;
  if (!isObject(run) || run.version !== 1) throw new Error(`snapshot.run.version: expected 1, got ${JSON.stringify(isObject(run) ? run.version : run)}`);
  wholeStep('run.stepIndex', run.stepIndex);
  if ((s.step as number) !== (s.origin as number) + (run.stepIndex as number)) throw new Error(`snapshot.step ${String(s.step)} is not origin ${String(s.origin)} + the run's ${String(run.stepIndex)} steps`);
  const engine = run.engine;
  if (!isObject(engine) || typeof engine.kind !== 'string' || !Array.isArray(engine.handles)) throw new Error('snapshot.run.engine: missing or malformed');
  // the settings are validated as any config is (a bad value names its field)
  makeConfig(run.config as Record<string, unknown>);
  return s as unknown as LabSnapshot;
}
