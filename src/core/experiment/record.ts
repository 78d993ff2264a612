// A recorded experiment: the per-seed, per-variant series of the few metrics a lesson's numbers are
// computed from (public/experiments/results/<spec name>.json), with how it was produced (command,
// code version, date, base). Far smaller than a bundle (no traces, no other metrics), exact to the
// last bit (the JSON numbers are the frames' own), so a re-run cell can be compared with it bit for
// bit and the lesson values derived from it (lesson-values.ts) through the same paired statistics
// as the experiments page.
import { describeValue, type FieldError } from '../config';
import { depthError } from '../json-depth';
import { scalarAt, seriesAt, type MetricsFrame } from '../metrics';
import { isObject } from '../unknown';
import { jsonNumber, makeBundle, stringifyWithNonFinite, type BundleRun, type ExperimentBundle } from './bundle';
import { ExperimentSpecError, cellCount, parseExperimentSpec, seedPosition, variantConfig, type ExperimentSpec } from './spec';

export const RECORD_SCHEMA = 'invariant-lab/experiment-record';

/** How a record was produced: enough to make it again and to know which code and base it holds. */
export interface RecordProvenance {
  command: string;
  /** The code version of the cells (package version + commit, as the cell logs carry it). */
  codeVersion: string;
  /** When the record was made from the cell logs (ISO 8601). */
  date: string;
  /** The base the cells started from (checkpoint file and hash, or how it was pretrained). */
  base: string;
  engine: string;
}

export interface RecordedRun {
  variant: number;
  seed: number;
  /** Why the run ended before spec.steps (a non-finite metric). */
  stoppedBy?: string;
  /** Per metric, its value at steps 1..n (n = the steps the run took); null where the step lacks it. */
  series: Record<string, (number | null)[]>;
  /** Per metric, the base's value (step 0, measured before the first step; null: the base lacks it). Absent in records made before cells kept it. */
  base?: Record<string, number | null>;
}

export interface ExperimentRecord {
  schema: typeof RECORD_SCHEMA;
  schemaVersion: 1;
  produced: RecordProvenance;
  /** The spec the cells trained, without its description. */
  spec: ExperimentSpec;
  metrics: string[];
  /** In cell order; a record made from a partial run lacks cells (the values need them all). */
  runs: RecordedRun[];
}

export class RecordError extends Error {
  constructor(readonly errors: FieldError[]) {
    super(`experiment record: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`);
  }
}

/**
 * A frame's value of a recorded metric: a scalar, or one element of a vector metric written
 * `name[i]` (`gate/rule_counts[1]`: the samples the gate's second rule decided at that step).
 */
export function recordedValue(frame: Pick<MetricsFrame, 'scalars' | 'series'>, metric: string): number | undefined {
  const element = /^(.+)\[(\d+)\]$/.exec(metric);
  return element ? seriesAt(frame.series, element[1])?.[Number(element[2])] : scalarAt(frame.scalars, metric);
}

/** A run's series of `metrics` (frames in step order, from step 1), and their base values when the run has them. */
export function recordedRun(run: Pick<BundleRun, 'variant' | 'seed' | 'stoppedBy' | 'frames' | 'base'>, metrics: readonly string[]): RecordedRun {
  const series = Object.fromEntries(metrics.map((m) => [m, run.frames.map((f) => recordedValue(f, m) ?? null)]));
  const base = run.base && Object.fromEntries(metrics.map((m) => [m, scalarAt(run.base!, m) ?? null]));
  return { variant: run.variant, seed: run.seed, ...(run.stoppedBy ? { stoppedBy: run.stoppedBy } : {}), series, ...(base ? { base } : {}) };
}

/** A record of every cell of `spec` (all must be there: a value over seeds needs each of them). */
export function makeRecord(spec: ExperimentSpec, runs: readonly BundleRun[], metrics: readonly string[], produced: RecordProvenance): ExperimentRecord {
  const missing = Array.from({ length: cellCount(spec) }, (_, i) => i).filter((i) => !runs.some((r) => r.variant === Math.floor(i / spec.seeds.length) && r.seed === spec.seeds[i % spec.seeds.length]));
  if (missing.length) throw new RangeError(`the record needs every cell of ${spec.name}: cells ${missing.join(', ')} are missing`);
  for (const r of runs) {
    r.frames.forEach((f, i) => {
      if (f.step !== i + 1) throw new RangeError(`variant ${r.variant}, seed ${r.seed}: frame ${i} is step ${f.step}, expected ${i + 1}`);
    });
    const absent = metrics.filter((m) => !r.frames.some((f) => recordedValue(f, m) !== undefined));
    if (absent.length) throw new RangeError(`variant ${r.variant}, seed ${r.seed} has no ${absent.join(', ')} at any step`);
  }
  const { description: _prose, ...trained } = spec; // prose only: an edited description changes no result
  const sorted = [...runs].sort((a, b) => a.variant - b.variant || seedPosition(spec, a.seed) - seedPosition(spec, b.seed));
  return { schema: RECORD_SCHEMA, schemaVersion: 1, produced, spec: trained, metrics: [...metrics], runs: sorted.map((r) => recordedRun(r, metrics)) };
}

/** The record as JSON: its header indented, each run on one line (a diff shows which run changed). */
export function recordToJson(r: ExperimentRecord): string {
  const head = stringifyWithNonFinite({ ...r, runs: '\u0000' }, 1);
  return head.replace('"\\u0000"', `[\n${r.runs.map((x) => stringifyWithNonFinite(x)).join(',\n')}\n]`) + '\n';
}

/** A record, checked field by field; throws RecordError naming every bad field. */
export function parseRecord(input: unknown): ExperimentRecord {
  const errors: FieldError[] = [];
  const fail = (field: string, message: string) => errors.push({ field, message });
  const deep = depthError(input, 'the record');
  if (deep) throw new RecordError([{ field: '(root)', message: deep }]);
  if (!isObject(input)) throw new RecordError([{ field: '(root)', message: 'expected a JSON object' }]);
  if (input.schema !== RECORD_SCHEMA || input.schemaVersion !== 1) fail('schema', `expected "${RECORD_SCHEMA}" version 1`);
  let spec: ExperimentSpec | null = null;
  try {
    spec = parseExperimentSpec(input.spec);
  } catch (e) {
    if (!(e instanceof ExperimentSpecError)) throw e;
    for (const er of e.errors) fail(`spec.${er.field}`, er.message);
  }
  const p = input.produced;
  if (!isObject(p)) fail('produced', 'expected { command, codeVersion, date, base, engine }');
  else for (const k of ['command', 'codeVersion', 'date', 'base', 'engine'] as const) if (typeof p[k] !== 'string' || !p[k].trim()) fail(`produced.${k}`, 'expected a non-empty string');
  const metrics = input.metrics;
  if (!Array.isArray(metrics) || metrics.length === 0 || !metrics.every((m) => typeof m === 'string' && m !== '')) fail('metrics', 'expected a non-empty list of metric names');
  if (!Array.isArray(input.runs)) fail('runs', 'expected a list of runs');
  const runs: RecordedRun[] = [];
  if (spec && Array.isArray(metrics) && Array.isArray(input.runs)) {
    const seen = new Set<number>();
    input.runs.forEach((x: unknown, i) => {
      const path = `runs[${i}]`;
      if (!isObject(x)) return fail(path, 'expected { variant, seed, series }');
      const variant = x.variant;
      if (!Number.isInteger(variant) || !spec.variants[variant as number]) return fail(`${path}.variant`, `expected a variant index 0..${spec.variants.length - 1}, got ${describeValue(variant)}`);
      const pos = seedPosition(spec, x.seed);
      if (pos < 0) return fail(`${path}.seed`, `${describeValue(x.seed)} is not a seed of the spec`);
      const cell = (variant as number) * spec.seeds.length + pos;
      if (seen.has(cell)) return fail(path, `variant ${String(variant)}, seed ${String(x.seed)} is recorded twice`);
      seen.add(cell);
      if (x.stoppedBy !== undefined && typeof x.stoppedBy !== 'string') fail(`${path}.stoppedBy`, 'expected a string');
      if (!isObject(x.series)) return fail(`${path}.series`, 'expected an object of metric series');
      const series: Record<string, (number | null)[]> = {};
      let length = -1;
      for (const m of metrics as string[]) {
        const s = Object.hasOwn(x.series, m) ? x.series[m] : undefined;
        if (!Array.isArray(s)) {
          fail(`${path}.series.${m}`, 'expected a list of values (null where the step lacks it)');
          continue;
        }
        series[m] = s.map((v: unknown, j) => {
          const n = v === null ? null : jsonNumber(v);
          if (n === undefined) fail(`${path}.series.${m}[${j}]`, `expected a number or null, got ${describeValue(v)}`);
          return n ?? null;
        });
        if (length >= 0 && s.length !== length) fail(`${path}.series.${m}`, `${s.length} steps where the run's other metrics have ${length}`);
        length = s.length;
      }
      for (const k of Object.keys(x.series)) if (!(metrics as string[]).includes(k)) fail(`${path}.series.${k}`, 'not one of the record\'s metrics');
      if (length > spec.steps) fail(`${path}.series`, `${length} steps, more than the spec's ${spec.steps}`);
      let base: Record<string, number | null> | undefined;
      if (x.base !== undefined) {
        if (!isObject(x.base)) fail(`${path}.base`, 'expected an object of the metrics\' base values');
        else {
          base = {};
          for (const m of metrics as string[]) {
            const v = Object.hasOwn(x.base, m) ? x.base[m] : undefined;
            const n = v === null ? null : jsonNumber(v);
            if (n === undefined) fail(`${path}.base.${m}`, `expected a number or null, got ${describeValue(v)}`);
            base[m] = n ?? null;
          }
          for (const k of Object.keys(x.base)) if (!(metrics as string[]).includes(k)) fail(`${path}.base.${k}`, 'not one of the record\'s metrics');
        }
      }
      runs.push({ variant: variant as number, seed: x.seed as number, ...(typeof x.stoppedBy === 'string' ? { stoppedBy: x.stoppedBy } : {}), series, ...(base ? { base } : {}) });
    });
  }
  if (errors.length) throw new RecordError(errors);
  return { schema: RECORD_SCHEMA, schemaVersion: 1, produced: p as unknown as RecordProvenance, spec: spec!, metrics: metrics as string[], runs };
}

/** The run's frames as the record holds them: steps 1..n, each with the recorded metrics it has. */
export function recordedFrames(run: RecordedRun): MetricsFrame[] {
  const steps = Math.max(0, ...Object.values(run.series).map((s) => s.length));
  return Array.from({ length: steps }, (_, i) => {
    const scalars: Record<string, number> = {};
    for (const [m, s] of Object.entries(run.series)) if (s[i] !== null) scalars[m] = s[i];
    return { step: i + 1, version: 0, scalars, series: {}, ratioEdges: [], perf: {}, changes: {}, trace: [] } as MetricsFrame;
  });
}

/** The recorded base values (step 0) of a run, those it has; undefined when the record keeps none. */
function recordedBase(run: RecordedRun): Record<string, number> | undefined {
  return run.base && Object.fromEntries(Object.entries(run.base).filter((e): e is [string, number] => e[1] !== null));
}

/** The record as a bundle (its metrics only), for the paired statistics the experiments page uses. */
export function recordBundle(r: ExperimentRecord): ExperimentBundle {
  const runs: BundleRun[] = r.runs.map((x) => {
    const base = recordedBase(x);
    return { variant: x.variant, seed: x.seed, config: variantConfig(r.spec, x.variant, x.seed), timeline: [], frames: recordedFrames(x), ...(base ? { base } : {}), ...(x.stoppedBy ? { stoppedBy: x.stoppedBy } : {}) };
  });
  return makeBundle(r.spec, runs, r.produced.codeVersion);
}

