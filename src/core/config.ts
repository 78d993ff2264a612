// The one config table: every setting's type, default, range, doc and UI group. Validation, the
// JSON codec, the URL-query codec and the CLI's --set all read this table.

import { gateCompiles } from './gates/compile';

type Num = { type: 'int' | 'float'; default: number; min: number; max: number };
type Bool = { type: 'bool'; default: boolean };
type Enum<T extends string> = { type: 'enum'; default: T; values: readonly T[] };
/** Free text checked by `check` (e.g. a gate's rules); '' is always allowed. */
type Text = { type: 'text'; default: string; maxLength: number; check: (text: string) => string | null };
type FieldSpec = (Num | Bool | Enum<string> | Text) & { doc: string; group: ConfigGroup };

export type ConfigGroup = 'run' | 'rollout' | 'ppo' | 'optimizer' | 'judge' | 'gates' | 'grpo' | 'credit' | 'async' | 'sft' | 'measure' | 'model';

export const TASK_NAMES = ['strategies', 'assistant', 'toolchain'] as const;
export const METHOD_NAMES = ['binary-rl', 'opd', 'combine', 'grpo', 'dr-grpo'] as const;
export type MethodName = (typeof METHOD_NAMES)[number];

const int = (d: number, min: number, max: number, group: ConfigGroup, doc: string) => ({ type: 'int' as const, default: d, min, max, group, doc });
const float = (d: number, min: number, max: number, group: ConfigGroup, doc: string) => ({ type: 'float' as const, default: d, min, max, group, doc });
const bool = (d: boolean, group: ConfigGroup, doc: string) => ({ type: 'bool' as const, default: d, group, doc });
const text = (maxLength: number, check: (t: string) => string | null, group: ConfigGroup, doc: string) => ({ type: 'text' as const, default: '', maxLength, check, group, doc });
const enm = <T extends string>(d: NoInfer<T>, values: readonly T[], group: ConfigGroup, doc: string) => ({ type: 'enum' as const, default: d, values, group, doc });

export const SCHEMA = {
  task: enm('strategies', TASK_NAMES, 'run', 'Toy agentic task'),
  method: enm('binary-rl', METHOD_NAMES, 'run', 'Training method (OpenClaw Binary RL, OPD, Combine; GRPO / Dr.GRPO baselines)'),
  seed: int(1, 0, 2 ** 31 - 1, 'run', 'Run seed (init, environment/judge and sampling streams derive from it)'),
  steps: int(200, 1, 100000, 'run', 'Training steps (one rollout batch each)'),

  rolloutBatch: int(16, 1, 256, 'rollout', 'Queued samples per training step (OpenClaw: 16)'),
  sessionTurns: int(4, 1, 8, 'rollout', 'Turns per assistant session / steps per toolchain episode'),
  temperature: float(0.6, 0.05, 4, 'rollout', 'Sampling temperature (also used to score)'),
  focusState: int(-1, -1, 7, 'rollout', 'Serve only this state (index into the task\'s states; −1 = all). Toolchain episodes always start at "start"'),
  serveRoundsMax: int(16, 1, 64, 'rollout', 'Serve rounds per step at most while the queue fills'),

  updatesPerRollout: int(1, 1, 64, 'ppo', 'Optimizer passes K over each rollout batch'),
  minibatches: int(1, 1, 16, 'ppo', 'Minibatches per pass'),
  piOldSource: enm('recompute', ['recompute', 'rollout'] as const, 'ppo', 'π_old: trainer log-probs recomputed before the update, or the rollout log-probs'),
  clipLow: float(0.2, 0, 1, 'ppo', 'ε_low: ratio clipped below 1 − ε_low'),
  clipHigh: float(0.28, 0, 4, 'ppo', 'ε_high: ratio clipped above 1 + ε_high (clip-higher)'),
  dualClip: float(0, 0, 100, 'ppo', 'Dual-clip constant c > 1 for negative advantages; 0 = off'),
  entropyCoef: float(0, 0, 1, 'ppo', 'Entropy bonus β_ent'),
  klCoef: float(0, 0, 10, 'ppo', 'k3 KL penalty β_KL to the frozen base'),
  lossAggregation: enm('token-mean', ['token-mean', 'seq-mean-token-mean'] as const, 'ppo', 'How per-token losses are averaged'),

  lr: float(0.001, 1e-6, 10, 'optimizer', 'Adam learning rate'),
  beta1: float(0.9, 0, 0.9999, 'optimizer', 'Adam β1'),
  beta2: float(0.98, 0, 0.99999, 'optimizer', 'Adam β2'),
  adamEps: float(1e-8, 1e-12, 1e-2, 'optimizer', 'Adam ε'),
  weightDecay: float(0.1, 0, 1, 'optimizer', 'AdamW weight decay'),
  maxGradNorm: float(1, 0, 1000, 'optimizer', 'Global gradient-norm clip; 0 = off'),

  judgeVotes: int(3, 1, 15, 'judge', 'PRM / evaluation votes m (majority, tie → 0)'),
  judgeNoise: float(0.1, 0, 1, 'judge', 'Probability that a vote is a uniform random draw'),
  hintVotes: int(3, 1, 15, 'judge', 'Hint-judge votes'),
  hintMinLength: int(5, 0, 12, 'judge', 'Minimum hint length (words) for a +1 hint to be accepted'),

  atLeastOne: bool(true, 'gates', 'Binary RL: promote one 0-scored turn with a next state when a session has no effective sample'),
  maskZeroMode: enm('keep', ['keep', 'drop'] as const, 'gates', 'Binary RL: keep mask-0 turns in the queue (OpenClaw) or drop them'),
  opdAdvClamp: float(0, 0, 100, 'gates', 'OPD: clamp per-token advantage to ±c; 0 = off'),
  wOpd: float(1, 0, 10, 'gates', 'Combine: weight of the OPD term'),
  wRl: float(1, 0, 10, 'gates', 'Combine: weight of the RL term'),
  gate: text(2000, gateCompiles, 'gates', 'Custom gate: rules "CONDITION => DECISION # label", one per line, first match wins (src/core/gates); empty = the method\'s built-in gate'),

  groupSize: int(4, 2, 64, 'grpo', 'GRPO group size n (sessions per prompt)'),
  normalizeStd: bool(true, 'grpo', 'GRPO: divide by the group std (Dr.GRPO never does)'),
  dynamicSampling: bool(false, 'grpo', 'Drop groups with zero reward variance'),

  gamma: float(1, 0, 1, 'credit', 'Turn discount γ for the terminal outcome (OpenClaw: 1)'),
  prmStepCoef: float(0, 0, 10, 'credit', 'Dense shaping: score = (2·outcome − 1) + coef·PRM_t'),
  stepwiseZ: bool(false, 'credit', 'z-score turn scores within (group, step) buckets'),

  staleness: int(0, 0, 8, 'async', 'Rollout weights lag the trainer by this many syncs (OpenClaw async: 1)'),
  pauseWindow: float(0, 0, 1, 'async', 'Share of each step spent in weight sync (requests then get 503)'),
  requestRate: float(0, 0, 1000, 'async', 'Extra user requests per step (counted against the pause window)'),
  retry503: bool(false, 'async', 'Retry sessions answered 503 after the pause (else they are lost)'),

  sftGoldSteps: int(0, 0, 5000, 'sft', 'SFT-on-gold steps before RL (compresses support)'),
  sftBatch: int(32, 1, 512, 'sft', 'SFT batch size'),
  sftLr: float(0.003, 1e-6, 10, 'sft', 'SFT learning rate'),

  feasibilityEps: float(0.02, 0, 1, 'measure', 'A behavior counts as supported when π(b | s) > ε'),
  tokenEps: float(0.01, 0, 1, 'measure', 'A token counts as supported when its frequency > ε'),
  behaviorSamples: int(64, 4, 1024, 'measure', 'Monte Carlo samples per state for the behavior distribution'),
  measureEvery: int(1, 1, 1000, 'measure', 'Measure behavior support every N steps'),

  dModel: int(64, 4, 512, 'model', 'Model width'),
  layers: int(2, 1, 12, 'model', 'Transformer layers'),
  heads: int(4, 1, 16, 'model', 'Attention heads'),
  mlp: int(256, 4, 2048, 'model', 'MLP hidden width'),
} satisfies Record<string, FieldSpec>;

type Schema = typeof SCHEMA;
type ValueOf<F> = F extends { type: 'bool' } ? boolean : F extends { type: 'text' } ? string : F extends { type: 'enum'; values: readonly (infer T)[] } ? T : number;
export type Config = { [K in keyof Schema]: ValueOf<Schema[K]> };
export type ConfigKey = keyof Config;
export const CONFIG_KEYS = Object.keys(SCHEMA) as ConfigKey[];
export const CONFIG_VERSION = 1;

/** An own setting of the schema: Object.prototype names (constructor, __proto__, toString) are unknown. */
export function isConfigKey(key: string): key is ConfigKey {
  return Object.hasOwn(SCHEMA, key);
}

export function fieldSpec(key: ConfigKey): FieldSpec {
  return SCHEMA[key] as FieldSpec;
}

export function defaultConfig(): Config {
  const out: Record<string, unknown> = {};
  for (const k of CONFIG_KEYS) out[k] = SCHEMA[k].default;
  return out as Config;
}

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
export function checkField(key: string, value: unknown): string | null {
  if (!isConfigKey(key)) return 'unknown setting';
  const f = fieldSpec(key as ConfigKey);
  if (f.type === 'bool') return typeof value === 'boolean' ? null : `expected a boolean, got ${describe(value)}`;
  if (f.type === 'enum') return typeof value === 'string' && f.values.includes(value) ? null : `expected one of ${f.values.join(' | ')}, got ${describe(value)}`;
  if (f.type === 'text') {
    if (typeof value !== 'string') return `expected a string, got ${describe(value)}`;
    if (value.length > f.maxLength) return `${value.length} characters is over the limit of ${f.maxLength}`;
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
  const states = { strategies: 3, assistant: 3, toolchain: 4 }[c.task];
  if (c.focusState >= states) out.push({ field: 'focusState', message: `${c.task} has ${states} states (0..${states - 1}), got ${c.focusState}`, involved: ['focusState', 'task'] });
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

// ---- JSON codec ----------------------------------------------------------------------------

export function configToJson(c: Config): string {
  return JSON.stringify({ v: CONFIG_VERSION, ...c });
}

/** Parse JSON text or an object; missing fields take defaults. */
export function configFromJson(input: string | Record<string, unknown>): Config {
  const obj = typeof input === 'string' ? (JSON.parse(input) as Record<string, unknown>) : { ...input };
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) throw new ConfigError('(root)', 'expected a JSON object');
  checkVersion(obj.v);
  delete obj.v;
  return makeConfig(obj);
}

function checkVersion(v: unknown): void {
  if (v !== undefined && v !== CONFIG_VERSION && v !== String(CONFIG_VERSION)) throw new ConfigError('v', `unsupported config version ${describe(v)}`);
}

// ---- text values (URL query, CLI --set) -----------------------------------------------------

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Parse a text value for a field; throws ConfigError on a bad value or unknown key. */
export function parseField(key: string, text: string): Config[ConfigKey] {
  if (!isConfigKey(key)) throw new ConfigError(key, 'unknown setting');
  const f = fieldSpec(key);
  let value: unknown = text;
  if (f.type === 'bool') value = text === 'true' || text === '1' ? true : text === 'false' || text === '0' ? false : text;
  else if (f.type === 'int' || f.type === 'float') {
    // Plain decimal only: Number() would also take "0x10", "0b1", "Infinity" and "" (as 0).
    if (!DECIMAL.test(text)) throw new ConfigError(key, `expected a decimal number, got ${describe(text)}`);
    value = Number(text);
  }
  const msg = checkField(key, value);
  if (msg) throw new ConfigError(key, msg);
  return value as Config[ConfigKey];
}

export function formatField(key: ConfigKey, value: Config[ConfigKey]): string {
  return typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
}

// ---- URL-query codec ------------------------------------------------------------------------

/** A value in a query: spaces as "+" (a gate's rules stay short and legible); URLSearchParams reads it back. */
export function encodeQueryValue(text: string): string {
  return encodeURIComponent(text).replace(/%20/g, '+');
}

/** Only non-default fields, in schema order, prefixed with the version: "v=1&task=assistant&...". */
export function configToQuery(c: Config): string {
  const parts = [`v=${CONFIG_VERSION}`];
  for (const k of CONFIG_KEYS) {
    if (c[k] !== SCHEMA[k].default) parts.push(`${k}=${encodeQueryValue(formatField(k, c[k]))}`);
  }
  return parts.join('&');
}

/** Longest query read (characters); a shared link beyond it is cut at the last whole parameter. */
export const MAX_QUERY_LENGTH = 4000;
/** Unknown settings reported one by one; the rest are counted in one line. */
export const MAX_UNKNOWN_REPORTS = 10;

/**
 * The parameters of a query, each key once with its LAST value (a later value overrides, as in a
 * patch), plus one report per key given different values and one for a query over the size cap.
 */
export function queryParams(query: string): { params: Map<string, string>; errors: FieldError[] } {
  let q = query.startsWith('?') ? query.slice(1) : query;
  const errors: FieldError[] = [];
  if (q.length > MAX_QUERY_LENGTH) {
    const cut = q.lastIndexOf('&', MAX_QUERY_LENGTH);
    errors.push({ field: '(url)', message: `the link is ${q.length} characters long; only the first ${cut > 0 ? cut : 0} are read` });
    q = cut > 0 ? q.slice(0, cut) : '';
  }
  const all = new Map<string, string[]>();
  for (const [k, v] of new URLSearchParams(q)) all.set(k, [...(all.get(k) ?? []), v]);
  const params = new Map<string, string>();
  for (const [k, vs] of all) {
    params.set(k, vs[vs.length - 1]);
    if (new Set(vs).size > 1) errors.push({ field: k, message: `given ${vs.length} times (${vs.slice(0, 3).map((v) => describe(v)).join(', ')}${vs.length > 3 ? ', …' : ''}); the last one is used` });
  }
  return { params, errors };
}

/** Reports of unknown settings: the first MAX_UNKNOWN_REPORTS, then one line counting the rest. */
export function capUnknown(errors: FieldError[]): FieldError[] {
  const unknown = errors.filter((e) => e.message === 'unknown setting');
  if (unknown.length <= MAX_UNKNOWN_REPORTS) return errors;
  const dropped = new Set(unknown.slice(MAX_UNKNOWN_REPORTS));
  const rest = errors.filter((e) => !dropped.has(e));
  rest.push({ field: '(more)', message: `and ${dropped.size} more unknown settings, ignored` });
  return rest;
}

/** Keep one report per field (the first), so that the banner never lists a key twice. */
function onePerField(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => (seen.has(e.field) ? false : (seen.add(e.field), true)));
}

/**
 * Decode a query string leniently: every bad field is reported once and falls back to its default;
 * the rest is kept. Cross-field clashes reset the fields the query changed. Always a valid config.
 */
export function configFromQuery(query: string): { config: Config; errors: FieldError[] } {
  const { params, errors: paramErrors } = queryParams(query);
  const errors: FieldError[] = [];
  const partial: Record<string, unknown> = {};
  for (const [k, text] of params) {
    if (k === 'v') {
      if (text !== String(CONFIG_VERSION)) errors.push({ field: 'v', message: `unsupported config version ${describe(text)}` });
      continue;
    }
    try {
      partial[k] = parseField(k, text);
    } catch (e) {
      errors.push({ field: k, message: e instanceof ConfigError ? e.message.replace(`config.${k}: `, '') : String(e) });
    }
  }
  const repaired = repairConfig({ ...defaultConfig(), ...partial } as Config);
  // A bad value is the report for its key; a "given twice" note only when the value was fine.
  const merged = [...errors, ...paramErrors.filter((d) => !errors.some((e) => e.field === d.field)), ...repaired.errors];
  return { config: repaired.config, errors: capUnknown(onePerField(merged)) };
}

/** Strict decode: throws on the first bad field. */
export function configFromQueryStrict(query: string): Config {
  const { config, errors } = configFromQuery(query);
  if (errors.length) throw new ConfigError(errors[0].field, errors[0].message);
  return config;
}
