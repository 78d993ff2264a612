// Experiment bundles: one versioned JSON document holding the spec and every trained cell (config,
// timeline, metric frames). Written by the CLI's merge and the lab's export, read by the lab's
// import; parsing names every bad field and builds nothing until the whole file is valid.
import { configErrors, type Config, type FieldError } from '../config';
import type { TimelineEntry } from '../loop';
import { asPerf, asScalars, asSeries, scalarAt, seriesAt, type MetricsFrame } from '../metrics';
import { ExperimentSpecError, cellCount, parseExperimentSpec, seedPosition, variantConfig, type ExperimentSpec } from './spec';

export const BUNDLE_SCHEMA = 'invariant-lab/experiment';
export const BUNDLE_SCHEMA_VERSION = 1;

export interface BundleRun {
  variant: number;
  seed: number;
  config: Config;
  timeline: TimelineEntry[];
  frames: MetricsFrame[];
  /** Why the run ended before spec.steps (e.g. "non-finite metric train/loss = NaN"). */
  stoppedBy?: string;
  /** Engine backend that trained it ("wasm", "webgpu", "tabular"): bit-for-bit reproduction holds per engine. */
  engine?: string;
}

export interface ExperimentBundle {
  schema: typeof BUNDLE_SCHEMA;
  schemaVersion: 1;
  codeVersion: string;
  spec: ExperimentSpec;
  /** In cell order (variant, then seed as listed in the spec); a partial experiment lacks some cells. */
  runs: BundleRun[];
}

export class BundleError extends Error {
  constructor(readonly errors: FieldError[]) {
    super(`bundle: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`);
  }
}

/** Cell index of a run (variant * seeds + seedIndex). */
export function runIndex(spec: ExperimentSpec, r: { variant: number; seed: number }): number {
  return r.variant * spec.seeds.length + seedPosition(spec, r.seed);
}

// ---- JSON with non-finite numbers ----------------------------------------------------------
// JSON has no NaN/Infinity (JSON.stringify writes null); a diverged run's last frame holds one,
// so metric values travel as the strings "NaN", "Infinity", "-Infinity".

export function stringifyWithNonFinite(value: unknown, space?: number): string {
  return JSON.stringify(value, (_k, x: unknown) => (typeof x === 'number' && !Number.isFinite(x) ? String(x) : x), space);
}

const NON_FINITE: Record<string, number> = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity };

function num(x: unknown): number | undefined {
  if (typeof x === 'number') return x;
  return typeof x === 'string' && x in NON_FINITE ? NON_FINITE[x] : undefined;
}

export function bundleToJson(b: ExperimentBundle): string {
  return stringifyWithNonFinite(b);
}

export function makeBundle(spec: ExperimentSpec, runs: BundleRun[], codeVersion: string): ExperimentBundle {
  return { schema: BUNDLE_SCHEMA, schemaVersion: BUNDLE_SCHEMA_VERSION, codeVersion, spec, runs };
}

// ---- parsing ---------------------------------------------------------------------------------

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

function numberRecord(x: unknown, path: string, errors: FieldError[]): Record<string, number> {
  const out: Record<string, number> = {};
  if (!isObject(x)) {
    errors.push({ field: path, message: 'expected an object of numbers' });
    return out;
  }
  for (const [k, v] of Object.entries(x)) {
    const n = num(v);
    if (n === undefined) errors.push({ field: `${path}.${k}`, message: `expected a number, got ${JSON.stringify(v)}` });
    else out[k] = n;
  }
  return out;
}

function numberArray(x: unknown, path: string, errors: FieldError[]): number[] {
  if (!Array.isArray(x)) {
    errors.push({ field: path, message: 'expected an array of numbers' });
    return [];
  }
  return x.map((v, i) => {
    const n = num(v);
    if (n === undefined) errors.push({ field: `${path}[${i}]`, message: `expected a number, got ${JSON.stringify(v)}` });
    return n ?? NaN;
  });
}

/** One metrics frame (from a bundle or a cell log); problems are pushed onto errors. */
export function parseFrame(x: unknown, path: string, errors: FieldError[]): MetricsFrame {
  if (!isObject(x)) {
    errors.push({ field: path, message: 'expected a metrics frame object' });
    return { step: 0, version: 0, scalars: asScalars({}), series: asSeries({}), ratioEdges: [], perf: asPerf({}), changes: {}, trace: [] };
  }
  const step = x.step;
  if (!Number.isInteger(step) || (step as number) < 0) errors.push({ field: `${path}.step`, message: `expected a step number, got ${JSON.stringify(step)}` });
  if (typeof x.version !== 'number') errors.push({ field: `${path}.version`, message: 'expected a number' });
  const series: Record<string, number[]> = {};
  if (!isObject(x.series)) errors.push({ field: `${path}.series`, message: 'expected an object of number arrays' });
  else for (const [k, v] of Object.entries(x.series)) series[k] = numberArray(v, `${path}.series.${k}`, errors);
  const changes = x.changes ?? {};
  if (!isObject(changes)) errors.push({ field: `${path}.changes`, message: 'expected an object' });
  const trace = x.trace ?? [];
  if (!Array.isArray(trace)) errors.push({ field: `${path}.trace`, message: 'expected an array' });
  return {
    step: step as number,
    version: x.version as number,
    scalars: asScalars(numberRecord(x.scalars, `${path}.scalars`, errors)),
    series: asSeries(series),
    ratioEdges: numberArray(x.ratioEdges, `${path}.ratioEdges`, errors),
    perf: asPerf(x.perf === undefined ? {} : numberRecord(x.perf, `${path}.perf`, errors)),
    changes: changes as Record<string, unknown>,
    trace: trace as MetricsFrame['trace'],
  };
}

function parseTimeline(x: unknown, path: string, errors: FieldError[]): TimelineEntry[] {
  if (!Array.isArray(x)) {
    errors.push({ field: path, message: 'expected an array of { step, patch }' });
    return [];
  }
  return x.map((e, i) => {
    const p = `${path}[${i}]`;
    if (!isObject(e) || !Number.isInteger(e.step) || (e.step as number) < 0 || !isObject(e.patch)) {
      errors.push({ field: p, message: 'expected { step, patch }' });
      return { step: 0, patch: {} };
    }
    for (const er of configErrors(e.patch)) errors.push({ field: `${p}.patch.${er.field}`, message: er.message });
    return { step: e.step as number, patch: e.patch as Partial<Config> };
  });
}

/** One run of a bundle checked against the spec: its config must be the spec's cell config. */
export function parseBundleRun(x: unknown, spec: ExperimentSpec, path: string, errors: FieldError[]): BundleRun | null {
  if (!isObject(x)) {
    errors.push({ field: path, message: 'expected a run object' });
    return null;
  }
  const before = errors.length;
  const { variant, seed } = x;
  if (!Number.isInteger(variant) || (variant as number) < 0 || (variant as number) >= spec.variants.length)
    errors.push({ field: `${path}.variant`, message: `expected a variant index 0..${spec.variants.length - 1}, got ${JSON.stringify(variant)}` });
  if (seedPosition(spec, seed) < 0) errors.push({ field: `${path}.seed`, message: `${JSON.stringify(seed)} is not one of the spec's seeds` });
  if (!isObject(x.config)) errors.push({ field: `${path}.config`, message: 'expected a config object' });
  else {
    for (const e of configErrors(x.config)) errors.push({ field: `${path}.config.${e.field}`, message: e.message });
    if (errors.length === before) {
      const want = variantConfig(spec, variant as number, seed as number);
      const diff = (Object.keys(want) as (keyof Config)[]).filter((k) => (x.config as Record<string, unknown>)[k] !== want[k]);
      if (diff.length) errors.push({ field: `${path}.config`, message: `differs from the spec's variant ${variant} at seed ${seed} in ${diff.join(', ')}` });
    }
  }
  const timeline = parseTimeline(x.timeline, `${path}.timeline`, errors);
  const frames = Array.isArray(x.frames) ? x.frames.map((f, i) => parseFrame(f, `${path}.frames[${i}]`, errors)) : (errors.push({ field: `${path}.frames`, message: 'expected an array of metrics frames' }), []);
  frames.forEach((f, i) => {
    if (i > 0 && f.step <= frames[i - 1].step) errors.push({ field: `${path}.frames[${i}].step`, message: `steps must increase (${frames[i - 1].step} then ${f.step})` });
  });
  if (x.stoppedBy !== undefined && typeof x.stoppedBy !== 'string') errors.push({ field: `${path}.stoppedBy`, message: 'expected a string' });
  if (x.engine !== undefined && typeof x.engine !== 'string') errors.push({ field: `${path}.engine`, message: 'expected a string' });
  if (errors.length > before) return null;
  const run: BundleRun = { variant: variant as number, seed: seed as number, config: x.config as Config, timeline, frames };
  if (x.stoppedBy !== undefined) run.stoppedBy = x.stoppedBy as string;
  if (x.engine !== undefined) run.engine = x.engine as string;
  return run;
}

/** Validate parsed JSON (or JSON text) as a bundle; throws BundleError listing every bad field. */
export function parseBundle(input: unknown): ExperimentBundle {
  let x = input;
  if (typeof input === 'string') {
    try {
      x = JSON.parse(input);
    } catch (e) {
      throw new BundleError([{ field: '(root)', message: `not JSON: ${(e as Error).message}` }]);
    }
  }
  if (!isObject(x)) throw new BundleError([{ field: '(root)', message: 'expected a JSON object' }]);
  const errors: FieldError[] = [];
  for (const k of Object.keys(x)) if (!['schema', 'schemaVersion', 'codeVersion', 'spec', 'runs'].includes(k)) errors.push({ field: k, message: 'unknown key' });
  if (x.schema !== BUNDLE_SCHEMA) errors.push({ field: 'schema', message: `expected "${BUNDLE_SCHEMA}", got ${JSON.stringify(x.schema)}` });
  if (x.schemaVersion !== BUNDLE_SCHEMA_VERSION) errors.push({ field: 'schemaVersion', message: `expected ${BUNDLE_SCHEMA_VERSION}, got ${JSON.stringify(x.schemaVersion)}` });
  if (typeof x.codeVersion !== 'string') errors.push({ field: 'codeVersion', message: 'expected a string' });
  let spec: ExperimentSpec | null = null;
  try {
    spec = parseExperimentSpec(x.spec);
  } catch (e) {
    if (!(e instanceof ExperimentSpecError)) throw e;
    for (const er of e.errors) errors.push({ field: `spec.${er.field}`, message: er.message });
  }
  const runs: BundleRun[] = [];
  if (!Array.isArray(x.runs)) errors.push({ field: 'runs', message: 'expected an array of runs' });
  else if (spec) {
    const seen = new Set<number>();
    x.runs.forEach((r, i) => {
      const run = parseBundleRun(r, spec, `runs[${i}]`, errors);
      if (!run) return;
      const idx = runIndex(spec, run);
      if (seen.has(idx)) errors.push({ field: `runs[${i}]`, message: `duplicate cell (variant ${run.variant}, seed ${run.seed})` });
      seen.add(idx);
      runs.push(run);
    });
  }
  if (errors.length || !spec) throw new BundleError(errors);
  runs.sort((a, b) => runIndex(spec, a) - runIndex(spec, b));
  return makeBundle(spec, runs, x.codeVersion as string);
}

/**
 * Merge cell results of one spec into a bundle (cell order). Throws naming any run that is not a
 * cell of the spec, any duplicate, and (unless partial) every missing index.
 */
export function mergeCells(spec: ExperimentSpec, runs: readonly BundleRun[], codeVersion: string, opts: { partial?: boolean } = {}): ExperimentBundle {
  const errors: FieldError[] = [];
  const byIndex = new Map<number, BundleRun>();
  runs.forEach((r, i) => {
    const checked = parseBundleRun(JSON.parse(stringifyWithNonFinite(r)), spec, `cells[${i}]`, errors);
    if (!checked) return;
    const idx = runIndex(spec, r);
    if (byIndex.has(idx)) errors.push({ field: `cells[${i}]`, message: `duplicate cell ${idx} (variant ${r.variant}, seed ${r.seed})` });
    else byIndex.set(idx, r);
  });
  if (!opts.partial) {
    const missing = Array.from({ length: cellCount(spec) }, (_, i) => i).filter((i) => !byIndex.has(i));
    if (missing.length) errors.push({ field: 'cells', message: `missing cell ${missing.length === 1 ? 'index' : 'indices'} ${missing.join(', ')} of ${cellCount(spec)}` });
  }
  if (errors.length) throw new BundleError(errors);
  return makeBundle(spec, [...byIndex.keys()].sort((a, b) => a - b).map((i) => byIndex.get(i)!), codeVersion);
}

// ---- reproduction ----------------------------------------------------------------------------

export interface FrameDifference {
  step: number;
  key: string;
  expected: unknown;
  got: unknown;
}

/** Same number bit for bit (NaN equals NaN; 0 and −0 differ). */
const same = (x: unknown, y: unknown) => Object.is(x, y);

/**
 * First difference between two runs' frames in their deterministic parts (step, version, scalars,
 * series, ratio edges, changes; never perf, the wall clock, nor traces), or null when identical.
 */
export function firstFrameDifference(expected: readonly MetricsFrame[], got: readonly MetricsFrame[]): FrameDifference | null {
  const n = Math.max(expected.length, got.length);
  for (let i = 0; i < n; i++) {
    const a = expected[i];
    const b = got[i];
    if (!a || !b) return { step: (a ?? b).step, key: 'frames', expected: a ? 'a frame' : 'no frame', got: b ? 'a frame' : 'no frame' };
    const d = (key: string, x: unknown, y: unknown): FrameDifference => ({ step: a.step, key, expected: x, got: y });
    if (!same(a.step, b.step)) return d('step', a.step, b.step);
    if (!same(a.version, b.version)) return d('version', a.version, b.version);
    for (const k of new Set([...Object.keys(a.scalars), ...Object.keys(b.scalars)])) if (!same(scalarAt(a.scalars, k), scalarAt(b.scalars, k))) return d(k, scalarAt(a.scalars, k), scalarAt(b.scalars, k));
    for (const k of new Set([...Object.keys(a.series), ...Object.keys(b.series)])) {
      const x = seriesAt(a.series, k) ?? [];
      const y = seriesAt(b.series, k) ?? [];
      if (x.length !== y.length || x.some((v, j) => !same(v, y[j]))) return d(k, x, y);
    }
    if (a.ratioEdges.length !== b.ratioEdges.length || a.ratioEdges.some((v, j) => !same(v, b.ratioEdges[j]))) return d('ratioEdges', a.ratioEdges, b.ratioEdges);
    if (JSON.stringify(a.changes) !== JSON.stringify(b.changes)) return d('changes', a.changes, b.changes);
  }
  return null;
}

export interface Reproduction {
  /** Every re-run cell gave the same metrics bit for bit. */
  identical: boolean;
  cells: number;
  /** Cells whose engine differs from the stored one: bit-for-bit equality is not expected there. */
  otherEngine: number[];
  first?: FrameDifference & { cell: number };
}

/** Compare re-run cells with the bundle's (matched by variant and seed). */
export function reproduceCheck(bundle: ExperimentBundle, reruns: readonly BundleRun[]): Reproduction {
  const out: Reproduction = { identical: true, cells: 0, otherEngine: [] };
  for (const r of reruns) {
    const cell = runIndex(bundle.spec, r);
    const stored = bundle.runs.find((s) => s.variant === r.variant && s.seed === r.seed);
    if (!stored) throw new RangeError(`re-run cell ${cell} (variant ${r.variant}, seed ${r.seed}) is not in the bundle`);
    out.cells++;
    if (stored.engine && r.engine && stored.engine !== r.engine) out.otherEngine.push(cell);
    const d = firstFrameDifference(stored.frames, r.frames);
    if (d && out.identical) {
      out.identical = false;
      out.first = { ...d, cell };
    }
  }
  return out;
}
