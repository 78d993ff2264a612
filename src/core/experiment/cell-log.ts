// The JSONL of one experiment cell, as an array scheduler's task writes it: a header line (spec,
// cell, config, code version, engine), one line per metrics frame as it is trained, and an end
// line (steps taken, why it stopped, timeline, the base's scalars: step 0). A task killed midway leaves a file without the end
// line, which merge refuses by name.
import type { FieldError } from '../config';
import { depthError } from '../json-depth';
import { BundleError, parseBundleRun, runIndex, stringifyWithNonFinite, type BundleRun } from './bundle';
import { ExperimentSpecError, parseExperimentSpec, type ExperimentSpec } from './spec';
import type { MetricsFrame } from '../metrics';
import type { TimelineEntry } from '../loop';

export const CELL_SCHEMA = 'invariant-lab/experiment-cell';

export interface CellHeader {
  kind: 'cell';
  schema: typeof CELL_SCHEMA;
  schemaVersion: 1;
  codeVersion: string;
  engine: string;
  index: number;
  variant: number;
  seed: number;
  spec: ExperimentSpec;
  config: BundleRun['config'];
}

export interface CellEnd {
  kind: 'end';
  stepsTaken: number;
  stoppedBy?: string;
  timeline: TimelineEntry[];
  /** The base's scalars (step 0), measured before the first step. */
  base?: Record<string, number>;
  wallSeconds: number;
}

export const headerLine = (h: Omit<CellHeader, 'kind' | 'schema' | 'schemaVersion'>): string =>
  stringifyWithNonFinite({ kind: 'cell', schema: CELL_SCHEMA, schemaVersion: 1, ...h });
export const frameLine = (f: MetricsFrame): string => stringifyWithNonFinite({ kind: 'frame', ...f });
export const endLine = (e: Omit<CellEnd, 'kind'>): string => stringifyWithNonFinite({ kind: 'end', ...e });

export interface ParsedCell {
  spec: ExperimentSpec;
  codeVersion: string;
  index: number;
  run: BundleRun;
}

/** Parse one cell's JSONL; throws BundleError with `name:line` paths. */
export function parseCellLog(text: string, name: string): ParsedCell {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const errors: FieldError[] = [];
  const fail = (field: string, message: string): never => {
    throw new BundleError([...errors, { field, message }]);
  };
  const json = (i: number): Record<string, unknown> => {
    let x: unknown;
    try {
      x = JSON.parse(lines[i]);
    } catch {
      /* reported below */
    }
    const deep = depthError(x, 'the line');
    if (deep) return fail(`${name}:${i + 1}`, deep);
    if (x && typeof x === 'object' && !Array.isArray(x)) return x as Record<string, unknown>;
    return fail(`${name}:${i + 1}`, 'not a JSON object');
  };
  if (lines.length === 0) fail(name, 'empty cell log');
  const h = json(0);
  if (h.kind !== 'cell' || h.schema !== CELL_SCHEMA || h.schemaVersion !== 1) fail(`${name}:1`, `expected a "${CELL_SCHEMA}" v1 header line`);
  let spec: ExperimentSpec;
  try {
    spec = parseExperimentSpec(h.spec);
  } catch (e) {
    if (e instanceof ExperimentSpecError) throw new BundleError(e.errors.map((er) => ({ field: `${name}:1 spec.${er.field}`, message: er.message })));
    throw e;
  }
  const endAt = lines.length - 1;
  const end = json(endAt);
  if (end.kind !== 'end') fail(name, `incomplete: no end line after ${lines.length - 1} frame line(s) (the task was stopped before it finished)`);
  const frames = lines.slice(1, endAt).map((_, i) => {
    const f = json(i + 1);
    if (f.kind !== 'frame') fail(`${name}:${i + 2}`, `expected a frame line, got kind ${JSON.stringify(f.kind)}`);
    return f;
  });
  const run = parseBundleRun({ variant: h.variant, seed: h.seed, config: h.config, timeline: end.timeline, frames, base: end.base, stoppedBy: end.stoppedBy, engine: h.engine }, spec!, name, errors);
  if (typeof h.codeVersion !== 'string') errors.push({ field: `${name}:1 codeVersion`, message: 'expected a string' });
  if (end.stepsTaken !== frames.length) errors.push({ field: `${name}:${endAt + 1} stepsTaken`, message: `${String(end.stepsTaken)} but ${frames.length} frame lines` });
  if (run && h.index !== runIndex(spec!, run)) errors.push({ field: `${name}:1 index`, message: `${String(h.index)} but variant ${run.variant}, seed ${run.seed} is cell ${runIndex(spec!, run)}` });
  if (!run || errors.length) throw new BundleError(errors);
  return { spec: spec!, codeVersion: h.codeVersion as string, index: h.index as number, run };
}
