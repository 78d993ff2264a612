// Validation over the schema table: the cross-field rules, whole configs, patches and one edited
// field (one value against its field: field.ts). A config is checked here once at each boundary
// (URL, JSON/preset/bundle, CLI flags, a control, the worker API); past it, a Config is a typed
// value that nobody checks again.
import { defaultConfig, type Config, type ConfigKey } from './schema';
import { taskLabel } from '../tasks/registry';
import { checkField } from './field';
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

/** Problems listed one by one in an error's message; the rest are counted (a file may hold 100,000). */
export const MAX_LISTED_ERRORS = 10;

/** "field: message" per problem, the first `max` of them, then one line "…and 99,990 more". */
export function errorLines(errors: readonly FieldError[], max = MAX_LISTED_ERRORS): string[] {
  const lines = errors.slice(0, max).map((e) => `${e.field}: ${e.message}`);
  if (errors.length > max) lines.push(`…and ${(errors.length - max).toLocaleString('en-US')} more`);
  return lines;
}


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

/** `c` when no rule across fields breaks; else throws ConfigError naming the first clash. */
function crossChecked(c: Config): Config {
  const clash = crossErrors(c)[0];
  if (clash) throw new ConfigError(clash.field, clash.message);
  return c;
}

/**
 * A patch from outside (a worker message, a replayed timeline) on a typed config: each patched
 * field is checked once, then the rules across fields; `base` is not checked again. Throws ConfigError.
 */
export function applyPatch(base: Config, patch: Record<string, unknown>): Config {
  for (const [k, v] of Object.entries(patch)) {
    const msg = checkField(k, v);
    if (msg) throw new ConfigError(k, msg);
  }
  return crossChecked({ ...base, ...patch } as Config);
}

/**
 * One field edited on the page, its value already checked where it was entered (checkField, in the
 * control): only the rules across fields are checked here. Throws ConfigError.
 */
export function withField<K extends ConfigKey>(config: Config, key: K, value: Config[K]): Config {
  return crossChecked({ ...config, [key]: value });
}
