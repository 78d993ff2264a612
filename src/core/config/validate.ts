// Validation over the schema table: one field, the cross-field rules, whole configs and patches.
// A config is checked here once at each boundary (URL, JSON/preset/bundle, CLI flags, worker API);
// past it, a Config is a typed value that nobody checks again.
import { defaultConfig, fieldSpec, isConfigKey, type Config, type ConfigKey } from './schema';
import { taskLabel } from '../tasks/registry';
import { taskStateCount } from './task';

export class ConfigError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`config.${field}: ${message}`);
  }
}

export interface FieldError {
  field: string;
  message: string;
}

/** Check one value against its field; returns an error message or null. */
/** The first unpaired UTF-16 surrogate in `text` (a link cannot carry one: encodeURIComponent throws), or -1. */
export function loneSurrogateAt(text: string): number {
  const m = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(text);
  return m ? m.index : -1;
}

/** Check one value against its field; returns an error message or null. */
export function checkField(key: string, value: unknown): string | null {
  if (!isConfigKey(key)) return 'unknown setting';
  const f = fieldSpec(key);
  if (f.type === 'bool') return typeof value === 'boolean' ? null : `expected a boolean, got ${describe(value)}`;
  if (f.type === 'enum') return typeof value === 'string' && f.values.includes(value) ? null : `expected one of ${f.values.join(' | ')}, got ${describe(value)}`;
  if (f.type === 'text') {
    if (typeof value !== 'string') return `expected a string, got ${describe(value)}`;
    if (value.length > f.maxLength) return `${value.length} characters is over the limit of ${f.maxLength}`;
    const lone = loneSurrogateAt(value);
    if (lone >= 0) return `character ${lone + 1} is half of a character pair (an unpaired surrogate, U+${value.charCodeAt(lone).toString(16).toUpperCase()}); remove it`;
    return value.trim() === '' ? null : f.check(value);
  }
  if (typeof value !== 'number') return `expected a number, got ${describe(value)}`;
  if (!Number.isFinite(value)) return `expected a finite number, got ${value}`;
  if (f.type === 'int' && !Number.isInteger(value)) return `expected an integer, got ${value}`;
  if (value < f.min || value > f.max) return `${value} is outside [${f.min}, ${f.max}]`;
  return null;
}

/** A value for an error message; never throws (an object without a usable toString included). */
export function describeValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
  if (v === null) return 'null';
  if (typeof v === 'object') {
    let text: string | undefined;
    try {
      text = JSON.stringify(v);
    } catch {
      text = undefined;
    }
    text ??= Object.prototype.toString.call(v);
    return `${Array.isArray(v) ? 'array' : 'object'} ${text.length > 60 ? `${text.slice(0, 60)}…` : text}`;
  }
  return `${typeof v} ${String(v)}`;
}
const describe = describeValue;

/** Rules that involve several fields; `involved` lists every field the rule reads. */
function crossErrors(c: Config): (FieldError & { involved: ConfigKey[] })[] {
  const out: (FieldError & { involved: ConfigKey[] })[] = [];
  if (c.dualClip !== 0 && c.dualClip <= 1) out.push({ field: 'dualClip', message: `must be 0 (off) or > 1, got ${c.dualClip}`, involved: ['dualClip'] });
  const states = taskStateCount(c);
  if (c.focusState >= states) out.push({ field: 'focusState', message: `${taskLabel(c)} has ${states} states (0..${states - 1}), got ${c.focusState}`, involved: ['focusState', 'task', 'taskSpec'] });
  if (c.dModel % c.heads !== 0) out.push({ field: 'heads', message: `dModel (${c.dModel}) must be divisible by heads (${c.heads})`, involved: ['heads', 'dModel'] });
  return out;
}

/**
 * Lenient repair of cross-field clashes: the fields a rule involves that differ from `base` (the ones
 * the URL or patch changed) fall back to `base`, each reported once. Always ends in a valid config
 * (`base` must be valid; the defaults are the last resort).
 */
export function repairConfig(config: Config, base: Config = defaultConfig()): { config: Config; errors: FieldError[] } {
  let c = { ...config };
  const errors: FieldError[] = [];
  for (let round = 0; round < 4; round++) {
    const clashes = crossErrors(c);
    if (!clashes.length) return { config: c, errors };
    for (const e of clashes) {
      const changed = e.involved.filter((f) => c[f] !== base[f]);
      for (const f of changed.length ? changed : e.involved) {
        if (!errors.some((x) => x.field === f)) errors.push({ field: f, message: e.message });
        c = { ...c, [f]: base[f] };
      }
    }
  }
  c = crossErrors(base).length ? defaultConfig() : { ...base };
  return { config: c, errors };
}

/** All problems of a full config object (unknown keys included). */
export function configErrors(obj: Record<string, unknown>): FieldError[] {
  const out: FieldError[] = [];
  for (const [k, v] of Object.entries(obj)) {
    const msg = checkField(k, v);
    if (msg) out.push({ field: k, message: msg });
  }
  if (out.length === 0) out.push(...crossErrors({ ...defaultConfig(), ...obj } as Config).map(({ field, message }) => ({ field, message })));
  return out;
}

/** Defaults overlaid with a partial config; throws ConfigError naming the first bad field. */
export function makeConfig(partial: Record<string, unknown> = {}): Config {
  const errors = configErrors(partial);
  if (errors.length) throw new ConfigError(errors[0].field, errors[0].message);
  return { ...defaultConfig(), ...partial } as Config;
}

/** Validate a patch against a base config (e.g. Run.setConfig). */
export function applyPatch(base: Config, patch: Record<string, unknown>): Config {
  return makeConfig({ ...base, ...patch });
}
