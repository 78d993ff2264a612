// An experiment: a base config, K variants (patches of any settings, run-fixing ones included) and
// a seed set; every (variant, seed) cell is a run from step 0. Validation reuses the config table's
// field checks and names every bad field by its path in the spec.
import { isObject } from '../unknown';
import { CONFIG_KEYS, checkField, configErrors, defaultConfig, errorLines, makeConfig, type Config, type ConfigKey, type FieldError } from '../config';
import { depthError } from '../json-depth';

export const EXPERIMENT_VERSION = 1;

export interface ExperimentVariant {
  name: string;
  patch: Partial<Config>;
}

export interface ExperimentSpec {
  version: 1;
  name: string;
  description?: string;
  base: Partial<Config>;
  variants: ExperimentVariant[];
  seeds: number[];
  steps: number;
  /** Metrics the experiment is about (the lab opens these first; the CLI summarises them). */
  metrics?: string[];
}

export interface ExperimentCell {
  /** variant * seeds.length + seedIndex: the scheduler's array index. */
  index: number;
  variant: number;
  seed: number;
  config: Config;
}

/** Every problem of a spec, each with its path (e.g. `variants[1].patch.clipHigh`). */
export class ExperimentSpecError extends Error {
  constructor(readonly errors: FieldError[]) {
    super(`experiment spec: ${errorLines(errors).join('; ')}`);
  }
}

const SPEC_KEYS = ['version', 'name', 'description', 'base', 'variants', 'seeds', 'steps', 'metrics'];
/**
 * Set by the spec's own fields (seeds, steps), never by a patch. (Not the run-fixing settings of the
 * schema: every cell is a new run, so a variant may patch those.)
 */
const SPEC_OWNED: ReadonlySet<string> = new Set<ConfigKey>(['seed', 'steps']);

/**
 * A JSON-like value copied into plain objects and arrays. A spec goes to structured clone
 * (IndexedDB, postMessage), which refuses what the input may be: a UI framework's reactive proxy
 * of a form, an object with accessors.
 */
function plainCopy<T>(x: T): T {
  if (Array.isArray(x)) return x.map(plainCopy) as T;
  if (isObject(x)) return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, plainCopy(v)])) as T;
  return x;
}

function patchErrors(path: string, x: unknown, out: FieldError[]): Partial<Config> {
  if (!isObject(x)) {
    out.push({ field: path, message: 'expected an object of settings' });
    return {};
  }
  for (const [k, v] of Object.entries(x)) {
    if (SPEC_OWNED.has(k)) out.push({ field: `${path}.${k}`, message: `set by the spec's ${k === 'seed' ? 'seeds' : 'steps'}, not in a patch` });
    else {
      const msg = checkField(k, v);
      if (msg) out.push({ field: `${path}.${k}`, message: msg });
    }
  }
  return plainCopy(x) as Partial<Config>;
}

/**
 * Validate an unknown value (parsed JSON, a form's state) as a spec; throws ExperimentSpecError
 * listing every bad field. The spec returned shares nothing with the input (plain data only).
 */
export function parseExperimentSpec(x: unknown): ExperimentSpec {
  const errors: FieldError[] = [];
  const deep = depthError(x, 'the experiment spec');
  if (deep) throw new ExperimentSpecError([{ field: '(root)', message: deep }]);
  if (!isObject(x)) throw new ExperimentSpecError([{ field: '(root)', message: 'expected a JSON object' }]);
  for (const k of Object.keys(x)) if (!SPEC_KEYS.includes(k)) errors.push({ field: k, message: 'unknown key' });
  if (x.version !== EXPERIMENT_VERSION) errors.push({ field: 'version', message: `expected ${EXPERIMENT_VERSION}, got ${JSON.stringify(x.version)}` });
  if (typeof x.name !== 'string' || x.name.trim() === '') errors.push({ field: 'name', message: 'expected a non-empty string' });
  if (x.description !== undefined && typeof x.description !== 'string') errors.push({ field: 'description', message: 'expected a string' });
  const base = x.base === undefined ? {} : patchErrors('base', x.base, errors);

  const variants: ExperimentVariant[] = [];
  if (!Array.isArray(x.variants) || x.variants.length === 0) errors.push({ field: 'variants', message: 'expected a non-empty array of { name, patch }' });
  else {
    const names = new Set<string>();
    x.variants.forEach((v: unknown, i) => {
      const p = `variants[${i}]`;
      if (!isObject(v)) return errors.push({ field: p, message: 'expected { name, patch }' });
      for (const k of Object.keys(v)) if (k !== 'name' && k !== 'patch') errors.push({ field: `${p}.${k}`, message: 'unknown key' });
      if (typeof v.name !== 'string' || v.name.trim() === '') errors.push({ field: `${p}.name`, message: 'expected a non-empty string' });
      else if (names.has(v.name)) errors.push({ field: `${p}.name`, message: `duplicate variant name ${JSON.stringify(v.name)}` });
      else names.add(v.name);
      const patch = v.patch === undefined ? {} : patchErrors(`${p}.patch`, v.patch, errors);
      variants.push({ name: String(v.name), patch });
    });
  }

  const seeds: number[] = [];
  if (!Array.isArray(x.seeds) || x.seeds.length === 0) errors.push({ field: 'seeds', message: 'expected a non-empty array of integers' });
  else {
    const seen = new Set<number>(); // a set, not a scan of the seeds so far: 100,000 seeds are checked in linear time
    x.seeds.forEach((s: unknown, i) => {
      const msg = checkField('seed', s);
      if (msg) errors.push({ field: `seeds[${i}]`, message: msg });
      else if (seen.has(s as number)) errors.push({ field: `seeds[${i}]`, message: `duplicate seed ${String(s)}` });
      else {
        seeds.push(s as number);
        seen.add(s as number);
      }
    });
  }
  const stepsMsg = checkField('steps', x.steps);
  if (stepsMsg) errors.push({ field: 'steps', message: stepsMsg });
  if (x.metrics !== undefined && !(Array.isArray(x.metrics) && x.metrics.every((m) => typeof m === 'string' && m !== '')))
    errors.push({ field: 'metrics', message: 'expected an array of metric names' });

  // cross-field rules (e.g. dModel divisible by heads) on each variant's whole config
  if (errors.length === 0) {
    variants.forEach((v, i) => {
      for (const e of configErrors({ ...base, ...v.patch })) errors.push({ field: `variants[${i}] (${e.field})`, message: e.message });
    });
  }
  if (errors.length) throw new ExperimentSpecError(errors);
  const spec: ExperimentSpec = { version: 1, name: x.name as string, base, variants, seeds, steps: x.steps as number };
  if (x.description !== undefined) spec.description = x.description as string;
  if (x.metrics !== undefined) spec.metrics = [...(x.metrics as string[])];
  return spec;
}

/** The full config of one variant at one seed. */
export function variantConfig(spec: ExperimentSpec, variant: number, seed: number): Config {
  const v = spec.variants[variant];
  if (!v) throw new RangeError(`variant ${variant} is outside 0..${spec.variants.length - 1}`);
  return makeConfig({ ...spec.base, ...v.patch, seed, steps: spec.steps });
}

const SEED_POSITIONS = new WeakMap<readonly number[], ReadonlyMap<number, number>>();

/** Index of `seed` in the spec's seeds, or -1: one Map per (immutable) seed list, never a scan per call. */
export function seedPosition(spec: ExperimentSpec, seed: unknown): number {
  let positions = SEED_POSITIONS.get(spec.seeds);
  if (!positions) SEED_POSITIONS.set(spec.seeds, (positions = new Map(spec.seeds.map((s, i) => [s, i]))));
  return typeof seed === 'number' ? (positions.get(seed) ?? -1) : -1;
}

export function cellCount(spec: ExperimentSpec): number {
  return spec.variants.length * spec.seeds.length;
}

/** Cell `index` (= variant * seeds.length + seedIndex). */
export function experimentCell(spec: ExperimentSpec, index: number): ExperimentCell {
  const n = cellCount(spec);
  if (!Number.isInteger(index) || index < 0 || index >= n) throw new RangeError(`cell index ${index} is outside 0..${n - 1}`);
  const variant = Math.floor(index / spec.seeds.length);
  const seed = spec.seeds[index % spec.seeds.length];
  return { index, variant, seed, config: variantConfig(spec, variant, seed) };
}

export function experimentCells(spec: ExperimentSpec): ExperimentCell[] {
  return Array.from({ length: cellCount(spec) }, (_, i) => experimentCell(spec, i));
}

/** Settings (schema order) in which the variants differ from the base or from each other. */
export function differingSettings(spec: ExperimentSpec): ConfigKey[] {
  const base = { ...defaultConfig(), ...spec.base } as Config;
  const configs = spec.variants.map((v) => ({ ...base, ...v.patch }) as Config);
  return CONFIG_KEYS.filter((k) => !SPEC_OWNED.has(k) && configs.some((c) => c[k] !== base[k] || c[k] !== configs[0][k]));
}

/** Legend label of variant v: the differing settings with this variant's values, e.g. "clipHigh = 0.2". */
export function variantLabel(spec: ExperimentSpec, v: number): string {
  const variant = spec.variants[v];
  if (!variant) throw new RangeError(`variant ${v} is outside 0..${spec.variants.length - 1}`);
  const c = { ...defaultConfig(), ...spec.base, ...variant.patch } as Config;
  const keys = differingSettings(spec);
  return keys.length ? keys.map((k) => `${k} = ${String(c[k])}`).join(', ') : 'base';
}

