// Experiment bundles: one versioned JSON document holding the spec and every trained cell (config,
// timeline, metric frames, where it resumed). Written by the CLI's merge and the lab's export, read
// by the lab's import; parsing names every bad field and builds nothing until the whole file is
// valid: frames only at the spec's steps and with metrics, changes that are settings on the run's
// timeline, traces shaped as samples, no run carrying another seed's frames, and the runs are
// checked even when the spec itself is bad.
import { isObject } from '../unknown';
import { configErrors, describeValue, errorLines, type Config, type FieldError } from '../config';
import { depthError } from '../json-depth';
import type { TimelineEntry } from '../loop';
import type { MetricsFrame } from '../metrics';
import { firstFrameDifference } from './frame-difference';
import { ExperimentSpecError, cellCount, parseExperimentSpec, seedPosition, variantConfig, type ExperimentSpec } from './spec';

export const BUNDLE_SCHEMA = 'invariant-lab/experiment';
export const BUNDLE_SCHEMA_VERSION = 1;

export interface BundleRun {
  variant: number;
  seed: number;
  config: Config;
  timeline: TimelineEntry[];
  frames: MetricsFrame[];
  /** The base's scalars, measured before the first step: step 0 of the plots (a share "of step 0" is of these). */
  base?: Record<string, number>;
  /** Why the run ended before spec.steps (e.g. "non-finite metric train/loss = NaN"). */
  stoppedBy?: string;
  /** Engine backend that trained it ("wasm", "webgpu", "tabular"): bit-for-bit reproduction holds per engine. */
  engine?: string;
  /** Where training was interrupted and continued (a reload): from what, and whether bit for bit. */
  resumed?: Resume[];
}

export interface Resume {
  /** The last step before the interruption: training continued from its state. */
  step: number;
  /** The continuation equals an uninterrupted run (a full snapshot); false: e.g. weights only. */
  exact: boolean;
  /** What it continued from ("stored weights", "a snapshot"). */
  from: string;
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
    super(`bundle: ${errorLines(errors).join('; ')}`);
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

// A Map, not an object: "toString" or "__proto__" as a value must not find Object.prototype's members.
const NON_FINITE: ReadonlyMap<string, number> = new Map([['NaN', NaN], ['Infinity', Infinity], ['-Infinity', -Infinity]]);

/** A metric value as JSON carries it: a number, or one of the non-finite numbers' strings. */
export function jsonNumber(x: unknown): number | undefined {
  if (typeof x === 'number') return x;
  return typeof x === 'string' ? NON_FINITE.get(x) : undefined;
}

/** Names of Object.prototype (__proto__, constructor, toString, …): never metric names. */
const PROTOTYPE_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** A metric key a bundle may hold; else reported (an assignment of "__proto__" would replace a prototype). */
function metricKey(k: string, path: string, errors: FieldError[]): boolean {
  if (!PROTOTYPE_NAMES.has(k)) return true;
  errors.push({ field: `${path}.${k}`, message: 'not a metric name (a name of Object.prototype)' });
  return false;
}

export function bundleToJson(b: ExperimentBundle): string {
  return stringifyWithNonFinite(b);
}

export function makeBundle(spec: ExperimentSpec, runs: BundleRun[], codeVersion: string): ExperimentBundle {
  return { schema: BUNDLE_SCHEMA, schemaVersion: BUNDLE_SCHEMA_VERSION, codeVersion, spec, runs };
}

// ---- parsing ---------------------------------------------------------------------------------

function numberRecord(x: unknown, path: string, errors: FieldError[]): Record<string, number> {
  const out: Record<string, number> = {};
  if (!isObject(x)) {
    errors.push({ field: path, message: 'expected an object of numbers' });
    return out;
  }
  for (const [k, v] of Object.entries(x)) {
    if (!metricKey(k, path, errors)) continue;
    const n = jsonNumber(v);
    if (n === undefined) errors.push({ field: `${path}.${k}`, message: `expected a number, got ${describeValue(v)}` });
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
    const n = jsonNumber(v);
    if (n === undefined) errors.push({ field: `${path}[${i}]`, message: `expected a number, got ${describeValue(v)}` });
    return n ?? NaN;
  });
}

const TRACE_NUMBERS = ['session', 'turn', 'score', 'reward', 'lossMask', 'rule', 'advMean', 'advMin', 'advMax'] as const;
const TRACE_STRINGS = ['state', 'response', 'behavior', 'ruleName'] as const;

/** One sample trace of a frame, checked field by field (non-finite numbers as their strings). */
function parseTrace(x: unknown, path: string, errors: FieldError[]): MetricsFrame['trace'][number] | null {
  if (!isObject(x)) {
    errors.push({ field: path, message: 'expected a sample trace object' });
    return null;
  }
  const before = errors.length;
  const out: Record<string, unknown> = {};
  for (const k of TRACE_NUMBERS) {
    const n = jsonNumber(x[k]);
    if (n === undefined) errors.push({ field: `${path}.${k}`, message: `expected a number, got ${describeValue(x[k])}` });
    out[k] = n;
  }
  for (const k of TRACE_STRINGS) {
    if (typeof x[k] !== 'string') errors.push({ field: `${path}.${k}`, message: 'expected a string' });
    out[k] = x[k];
  }
  out.votes = numberArray(x.votes, `${path}.votes`, errors);
  out.advantages = numberArray(x.advantages, `${path}.advantages`, errors);
  if (x.hint !== null && typeof x.hint !== 'string') errors.push({ field: `${path}.hint`, message: 'expected a string or null' });
  if (!Array.isArray(x.hintVotes) || !x.hintVotes.every((v) => typeof v === 'string')) errors.push({ field: `${path}.hintVotes`, message: 'expected an array of strings' });
  if (typeof x.queued !== 'boolean') errors.push({ field: `${path}.queued`, message: 'expected true or false' });
  if (!isObject(x.fields)) errors.push({ field: `${path}.fields`, message: 'expected an object' });
  if (errors.length > before) return null;
  return { ...out, hint: x.hint, hintVotes: [...(x.hintVotes as string[])], queued: x.queued, fields: { ...(x.fields as object) } } as MetricsFrame['trace'][number];
}

/**
 * One metrics frame (from a bundle or a cell log); problems are pushed onto errors. With the spec's
 * step count, a step outside 1..steps is refused.
 */
export function parseFrame(x: unknown, path: string, errors: FieldError[], steps?: number): MetricsFrame {
  if (!isObject(x)) {
    errors.push({ field: path, message: 'expected a metrics frame object' });
    return { step: 0, version: 0, scalars: {}, series: {}, ratioEdges: [], perf: {}, changes: {}, trace: [] };
  }
  const step = x.step;
  if (!Number.isInteger(step) || (step as number) < 0) errors.push({ field: `${path}.step`, message: `expected a step number, got ${JSON.stringify(step)}` });
  else if (steps !== undefined && ((step as number) < 1 || (step as number) > steps)) errors.push({ field: `${path}.step`, message: `step ${String(step)} is not a step of the spec (1–${steps})` });
  if (typeof x.version !== 'number') errors.push({ field: `${path}.version`, message: 'expected a number' });
  const series: Record<string, number[]> = {};
  if (!isObject(x.series)) errors.push({ field: `${path}.series`, message: 'expected an object of number arrays' });
  else for (const [k, v] of Object.entries(x.series)) if (metricKey(k, `${path}.series`, errors)) series[k] = numberArray(v, `${path}.series.${k}`, errors);
  const changes = x.changes ?? {};
  if (!isObject(changes)) errors.push({ field: `${path}.changes`, message: 'expected an object of settings' });
  else for (const er of configErrors(changes)) errors.push({ field: `${path}.changes.${er.field}`, message: er.message });
  const trace: MetricsFrame['trace'] = [];
  if (!Array.isArray(x.trace ?? [])) errors.push({ field: `${path}.trace`, message: 'expected an array of sample traces' });
  else ((x.trace ?? []) as unknown[]).forEach((t, i) => {
    const parsed = parseTrace(t, `${path}.trace[${i}]`, errors);
    if (parsed) trace.push(parsed);
  });
  const scalars = numberRecord(x.scalars, `${path}.scalars`, errors);
  if (isObject(x.scalars) && Object.keys(scalars).length === 0 && Object.keys(x.scalars).length === 0) errors.push({ field: `${path}.scalars`, message: 'a frame without metrics' });
  return {
    step: step as number,
    version: x.version as number,
    scalars,
    series,
    ratioEdges: numberArray(x.ratioEdges, `${path}.ratioEdges`, errors),
    perf: x.perf === undefined ? {} : numberRecord(x.perf, `${path}.perf`, errors),
    changes: isObject(changes) ? { ...changes } : {},
    trace,
  };
}

function parseResumes(x: unknown, path: string, errors: FieldError[], steps?: number): Resume[] | undefined {
  if (x === undefined) return undefined;
  if (!Array.isArray(x)) {
    errors.push({ field: path, message: 'expected an array of { step, exact, from }' });
    return undefined;
  }
  return x.map((r, i) => {
    const p = `${path}[${i}]`;
    if (!isObject(r) || !Number.isInteger(r.step) || (r.step as number) < 0 || (steps !== undefined && (r.step as number) >= steps) || typeof r.exact !== 'boolean' || typeof r.from !== 'string')
      errors.push({ field: p, message: `expected { step (0–${steps === undefined ? 'steps' : steps - 1}), exact (true/false), from (text) }` });
    return { step: Number((r as Resume).step), exact: (r as Resume).exact === true, from: String((r as Resume).from) };
  });
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

/**
 * One run of a bundle checked against the spec: its config must be the spec's cell config, its
 * frames at the spec's steps. With no (valid) spec, everything that does not need one is checked.
 */
export function parseBundleRun(x: unknown, spec: ExperimentSpec | null, path: string, errors: FieldError[]): BundleRun | null {
  if (!isObject(x)) {
    errors.push({ field: path, message: 'expected a run object' });
    return null;
  }
  const before = errors.length;
  const { variant, seed } = x;
  if (!Number.isInteger(variant) || (variant as number) < 0 || (spec && (variant as number) >= spec.variants.length))
    errors.push({ field: `${path}.variant`, message: spec ? `expected a variant index 0..${spec.variants.length - 1}, got ${JSON.stringify(variant)}` : `expected a variant index, got ${JSON.stringify(variant)}` });
  if (spec ? seedPosition(spec, seed) < 0 : !Number.isInteger(seed)) errors.push({ field: `${path}.seed`, message: spec ? `${JSON.stringify(seed)} is not one of the spec's seeds` : `expected a seed, got ${JSON.stringify(seed)}` });
  if (!isObject(x.config)) errors.push({ field: `${path}.config`, message: 'expected a config object' });
  else {
    for (const e of configErrors(x.config)) errors.push({ field: `${path}.config.${e.field}`, message: e.message });
    if (errors.length === before && spec) {
      const want = variantConfig(spec, variant as number, seed as number);
      const diff = (Object.keys(want) as (keyof Config)[]).filter((k) => (x.config as Record<string, unknown>)[k] !== want[k]);
      if (diff.length) errors.push({ field: `${path}.config`, message: `differs from the spec's variant ${variant} at seed ${seed} in ${diff.join(', ')}` });
    }
  }
  const timeline = parseTimeline(x.timeline, `${path}.timeline`, errors);
  const frames = Array.isArray(x.frames) ? x.frames.map((f, i) => parseFrame(f, `${path}.frames[${i}]`, errors, spec?.steps)) : (errors.push({ field: `${path}.frames`, message: 'expected an array of metrics frames' }), []);
  frames.forEach((f, i) => {
    if (i > 0 && f.step <= frames[i - 1].step) errors.push({ field: `${path}.frames[${i}].step`, message: `steps must increase (${frames[i - 1].step} then ${f.step})` });
    // a setting changed live takes effect at a step and is on the timeline at the step before it
    if (Object.keys(f.changes).length && !timeline.some((e) => e.step === f.step - 1 && JSON.stringify(e.patch) === JSON.stringify(f.changes)))
      errors.push({ field: `${path}.frames[${i}].changes`, message: `settings changed at step ${f.step} but the run's timeline has no such change at step ${f.step - 1}` });
  });
  const resumed = parseResumes(x.resumed, `${path}.resumed`, errors, spec?.steps);
  const base = x.base === undefined ? undefined : numberRecord(x.base, `${path}.base`, errors);
  if (x.stoppedBy !== undefined && typeof x.stoppedBy !== 'string') errors.push({ field: `${path}.stoppedBy`, message: 'expected a string' });
  if (x.engine !== undefined && typeof x.engine !== 'string') errors.push({ field: `${path}.engine`, message: 'expected a string' });
  if (errors.length > before) return null;
  const run: BundleRun = { variant: variant as number, seed: seed as number, config: x.config as Config, timeline, frames };
  if (base) run.base = base;
  if (x.stoppedBy !== undefined) run.stoppedBy = x.stoppedBy as string;
  if (x.engine !== undefined) run.engine = x.engine as string;
  if (resumed) run.resumed = resumed;
  return run;
}

/**
 * Runs of different seeds never train to the same frames: a run whose every frame equals another
 * seed's run (deterministic parts) carries that run's frames. Candidates share their first frame.
 */
function carriedFrames(runs: readonly { run: BundleRun; path: string }[], errors: FieldError[]): void {
  const byFirst = new Map<string, { run: BundleRun; path: string }[]>();
  for (const r of runs) {
    const first = r.run.frames[0];
    if (!first) continue;
    const key = stringifyWithNonFinite([first.step, first.scalars]);
    const same = byFirst.get(key) ?? [];
    const twin = same.find((o) => o.run.seed !== r.run.seed && o.run.frames.length === r.run.frames.length && firstFrameDifference(o.run.frames, r.run.frames) === null);
    if (twin) errors.push({ field: `${r.path}.frames`, message: `the frames of ${twin.path} (seed ${twin.run.seed}), metric for metric, though this run's seed is ${r.run.seed}` });
    same.push(r);
    byFirst.set(key, same);
  }
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
  const deep = depthError(x, 'the bundle');
  if (deep) throw new BundleError([{ field: '(root)', message: deep }]);
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
  else {
    const seen = new Set<number>();
    const parsed: { run: BundleRun; path: string }[] = [];
    x.runs.forEach((r, i) => {
      const run = parseBundleRun(r, spec, `runs[${i}]`, errors);
      if (!run) return;
      parsed.push({ run, path: `runs[${i}]` });
      if (!spec) return;
      const idx = runIndex(spec, run);
      if (seen.has(idx)) errors.push({ field: `runs[${i}]`, message: `duplicate cell (variant ${run.variant}, seed ${run.seed})` });
      seen.add(idx);
      runs.push(run);
    });
    carriedFrames(parsed, errors);
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
  const parsed: { run: BundleRun; path: string }[] = [];
  runs.forEach((r, i) => {
    const checked = parseBundleRun(JSON.parse(stringifyWithNonFinite(r)), spec, `cells[${i}]`, errors);
    if (!checked) return;
    parsed.push({ run: checked, path: `cells[${i}]` });
    const idx = runIndex(spec, r);
    if (byIndex.has(idx)) errors.push({ field: `cells[${i}]`, message: `duplicate cell ${idx} (variant ${r.variant}, seed ${r.seed})` });
    else byIndex.set(idx, r);
  });
  if (!opts.partial) {
    const missing = Array.from({ length: cellCount(spec) }, (_, i) => i).filter((i) => !byIndex.has(i));
    if (missing.length) errors.push({ field: 'cells', message: `missing cell ${missing.length === 1 ? 'index' : 'indices'} ${missing.join(', ')} of ${cellCount(spec)}` });
  }
  carriedFrames(parsed, errors);
  if (errors.length) throw new BundleError(errors);
  return makeBundle(spec, [...byIndex.keys()].sort((a, b) => a - b).map((i) => byIndex.get(i)!), codeVersion);
}
