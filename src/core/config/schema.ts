// The one config table (like TensorFlow Playground's PROPS): every setting's type, default, range,
// doc, label, UI group, URL key and whether it fixes a run. Validation, the JSON codec, the query codec
// (the page URL, --set), the controls and the run sessions all read this table; nothing else lists settings.

import { gateTextError } from '../gates/compile';
import { BUILTIN_TASK_NAMES } from '../tasks/builtin';
import { SPEC_TEXT_MAX, checkTaskSpecText } from './task';

/**
 * What every setting carries besides its type. `fixesRun`: changing it needs a new run (the engine,
 * the base or the random streams change), so a live patch refuses it; `url`: its key in a query
 * (default: the setting's name).
 */
interface Meta {
  doc: string;
  group: ConfigGroup;
  label?: string;
  fixesRun?: true;
  url?: string;
}
type Extra = Pick<Meta, 'label' | 'fixesRun' | 'url'>;
type Num = { type: 'int' | 'float'; default: number; min: number; max: number };
type Bool = { type: 'bool'; default: boolean };
type Enum<T extends string> = { type: 'enum'; default: T; values: readonly T[] };
/** Free text checked by `check` (e.g. a gate's rules); '' is always allowed. */
type Text = { type: 'text'; default: string; maxLength: number; check: (text: string) => string | null };
export type SettingSpec = (Num | Bool | Enum<string> | Text) & Meta;

export type ConfigGroup = 'run' | 'rollout' | 'ppo' | 'optimizer' | 'judge' | 'gates' | 'grpo' | 'credit' | 'async' | 'sft' | 'measure' | 'model';

/** Group titles, in the order the controls show them (the schema's order). */
export const GROUP_TITLES: Record<ConfigGroup, string> = {
  run: 'Run',
  rollout: 'Rollout',
  ppo: 'PPO clip & loss',
  optimizer: 'Optimizer',
  judge: 'Judge',
  gates: 'Gates',
  grpo: 'GRPO',
  credit: 'Credit assignment',
  async: 'Asynchrony',
  sft: 'SFT on gold',
  measure: 'Measurement',
  model: 'Model',
};

export const METHOD_NAMES = ['binary-rl', 'opd', 'combine', 'grpo', 'dr-grpo'] as const;
export type MethodName = (typeof METHOD_NAMES)[number];

const int = <E extends Extra>(d: number, min: number, max: number, group: ConfigGroup, doc: string, extra?: E) => ({ type: 'int' as const, default: d, min, max, group, doc, ...extra });
const float = <E extends Extra>(d: number, min: number, max: number, group: ConfigGroup, doc: string, extra?: E) => ({ type: 'float' as const, default: d, min, max, group, doc, ...extra });
const bool = <E extends Extra>(d: boolean, group: ConfigGroup, doc: string, extra?: E) => ({ type: 'bool' as const, default: d, group, doc, ...extra });
const text = <E extends Extra>(maxLength: number, check: (t: string) => string | null, group: ConfigGroup, doc: string, extra?: E) => ({ type: 'text' as const, default: '', maxLength, check, group, doc, ...extra });
const enm = <T extends string, E extends Extra = Extra>(d: NoInfer<T>, values: readonly T[], group: ConfigGroup, doc: string, extra?: E) => ({ type: 'enum' as const, default: d, values, group, doc, ...extra });

export const SCHEMA = {
  task: enm('strategies', BUILTIN_TASK_NAMES, 'run', 'Toy agentic task (a built-in; a custom spec below replaces it)', { fixesRun: true }),
  taskSpec: text(SPEC_TEXT_MAX, checkTaskSpecText, 'run', 'Custom task: its JSON spec (format invariant-lab-task, docs/tasks.md); empty = the built-in task', { fixesRun: true, label: 'custom task', url: 'spec' }),
  method: enm('binary-rl', METHOD_NAMES, 'run', 'Training method (OpenClaw Binary RL, OPD, Combine; GRPO / Dr.GRPO baselines)'),
  seed: int(1, 0, 2 ** 31 - 1, 'run', 'Run seed (init, environment/judge and sampling streams derive from it)', { fixesRun: true }),
  steps: int(200, 1, 100000, 'run', 'Training steps (one rollout batch each)'),

  rolloutBatch: int(16, 1, 256, 'rollout', 'Queued samples per training step (OpenClaw: 16)'),
  sessionTurns: int(4, 1, 8, 'rollout', 'Turns per assistant session / steps per toolchain episode'),
  temperature: float(0.6, 0.05, 4, 'rollout', 'Sampling temperature (also used to score)'),
  focusState: int(-1, -1, 9, 'rollout', 'Serve only this state (index into the task\'s states; −1 = all). Toolchain episodes always start at "start"'),
  serveRoundsMax: int(16, 1, 64, 'rollout', 'Serve rounds per step at most while the queue fills'),

  updatesPerRollout: int(1, 1, 64, 'ppo', 'Optimizer passes K over each rollout batch', { label: 'updates per rollout K' }),
  minibatches: int(1, 1, 16, 'ppo', 'Minibatches per pass'),
  piOldSource: enm('recompute', ['recompute', 'rollout'] as const, 'ppo', 'π_old: trainer log-probs recomputed before the update, or the rollout log-probs', { label: 'π_old source' }),
  clipLow: float(0.2, 0, 1, 'ppo', 'ε_low: ratio clipped below 1 − ε_low', { label: 'ε_low' }),
  clipHigh: float(0.28, 0, 4, 'ppo', 'ε_high: ratio clipped above 1 + ε_high (clip-higher)', { label: 'ε_high' }),
  dualClip: float(0, 0, 100, 'ppo', 'Dual-clip constant c > 1 for negative advantages; 0 = off', { label: 'dual clip c' }),
  entropyCoef: float(0, 0, 1, 'ppo', 'Entropy bonus β_ent', { label: 'β_ent' }),
  klCoef: float(0, 0, 10, 'ppo', 'k3 KL penalty β_KL to the frozen base', { label: 'β_KL' }),
  lossAggregation: enm('token-mean', ['token-mean', 'seq-mean-token-mean'] as const, 'ppo', 'How per-token losses are averaged'),

  lr: float(0.001, 1e-6, 10, 'optimizer', 'Adam learning rate', { label: 'learning rate' }),
  beta1: float(0.9, 0, 0.9999, 'optimizer', 'Adam β1', { label: 'Adam β1' }),
  beta2: float(0.98, 0, 0.99999, 'optimizer', 'Adam β2', { label: 'Adam β2' }),
  adamEps: float(1e-8, 1e-12, 1e-2, 'optimizer', 'Adam ε', { label: 'Adam ε' }),
  weightDecay: float(0.1, 0, 1, 'optimizer', 'AdamW weight decay'),
  maxGradNorm: float(1, 0, 1000, 'optimizer', 'Global gradient-norm clip; 0 = off'),

  judgeVotes: int(3, 1, 15, 'judge', 'PRM / evaluation votes m (majority, tie → 0)'),
  judgeNoise: float(0.1, 0, 1, 'judge', 'Probability that a vote is a uniform random draw'),
  hintVotes: int(3, 1, 15, 'judge', 'Hint-judge votes'),
  hintMinLength: int(5, 0, 12, 'judge', 'Minimum hint length (words) for a +1 hint to be accepted'),

  atLeastOne: bool(true, 'gates', 'Binary RL: promote a 0-scored turn with a next state to mask 1 while its session has no mask-1 turn so far in judging order (OpenClaw\'s server rule)'),
  maskZeroMode: enm('keep', ['keep', 'drop'] as const, 'gates', 'Binary RL: keep mask-0 turns in the queue (OpenClaw) or drop them'),
  opdAdvClamp: float(0, 0, 100, 'gates', 'OPD: clamp per-token advantage to ±c; 0 = off'),
  wOpd: float(1, 0, 10, 'gates', 'Combine: weight of the OPD term', { label: 'w_opd' }),
  wRl: float(1, 0, 10, 'gates', 'Combine: weight of the RL term', { label: 'w_rl' }),
  gate: text(2000, gateTextError, 'gates', 'Custom gate: rules "CONDITION => DECISION # label", one per line, first match wins (docs/gates.md); empty = the method\'s built-in gate'),

  groupSize: int(4, 2, 64, 'grpo', 'GRPO group size n (sessions per prompt)'),
  normalizeStd: bool(true, 'grpo', 'GRPO: divide by the group std (Dr.GRPO never does)'),
  dynamicSampling: bool(false, 'grpo', 'Drop groups with zero reward variance'),

  gamma: float(1, 0, 1, 'credit', 'Turn discount γ for the terminal outcome (OpenClaw: 1)', { label: 'γ' }),
  prmStepCoef: float(0, 0, 10, 'credit', 'Dense shaping: score = (2·outcome − 1) + coef·PRM_t', { label: 'prm_step_coef' }),
  stepwiseZ: bool(false, 'credit', 'z-score turn scores within (group, step) buckets', { label: 'step-wise z-score' }),

  staleness: int(0, 0, 8, 'async', 'Rollout weights lag the trainer by this many syncs (OpenClaw async: 1)'),
  pauseWindow: float(0, 0, 1, 'async', 'Share of each step spent in weight sync (requests then get 503)'),
  requestRate: float(0, 0, 1000, 'async', 'Extra user requests per step (counted against the pause window)'),
  retry503: bool(false, 'async', 'Retry sessions answered 503 after the pause (else they are lost)'),

  sftGoldSteps: int(0, 0, 5000, 'sft', 'SFT-on-gold steps before RL (compresses support)', { label: 'SFT-on-gold steps', fixesRun: true }),
  sftBatch: int(32, 1, 512, 'sft', 'SFT batch size', { fixesRun: true }),
  sftLr: float(0.003, 1e-6, 10, 'sft', 'SFT learning rate', { fixesRun: true }),

  feasibilityEps: float(0.02, 0, 1, 'measure', 'A behavior counts as supported when π(b | s) > ε', { label: 'feasibility ε' }),
  tokenEps: float(0.01, 0, 1, 'measure', 'A token counts as supported when its frequency > ε', { label: 'token ε' }),
  behaviorSamples: int(64, 4, 1024, 'measure', 'Monte Carlo samples per state for the behavior distribution'),
  measureEvery: int(1, 1, 1000, 'measure', 'Measure behavior support every N steps'),

  dModel: int(64, 4, 512, 'model', 'Model width', { label: 'd_model', fixesRun: true }),
  layers: int(2, 1, 12, 'model', 'Transformer layers', { fixesRun: true }),
  heads: int(4, 1, 16, 'model', 'Attention heads', { fixesRun: true }),
  mlp: int(256, 4, 2048, 'model', 'MLP hidden width', { fixesRun: true }),
} satisfies Record<string, SettingSpec>;

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

export function fieldSpec(key: ConfigKey): SettingSpec {
  return SCHEMA[key] as SettingSpec;
}

export function defaultConfig(): Config {
  const out: Record<string, unknown> = {};
  for (const k of CONFIG_KEYS) out[k] = SCHEMA[k].default;
  return out as Config;
}

// ---- read from the table: run-fixing settings, labels, URL keys ----------------------------------

/** The settings that fix a run (schema order): a live patch refuses them; they need a new run. */
export const RUN_FIXING_KEYS: readonly ConfigKey[] = CONFIG_KEYS.filter((k) => fieldSpec(k).fixesRun === true);

/** Changing `key` needs a new run (any text: a name that is not a setting does not). */
export function fixesRun(key: string): boolean {
  return isConfigKey(key) && fieldSpec(key).fixesRun === true;
}

/** The run-fixing settings a patch touches (own keys only), in the patch's order. */
export function runFixingIn(patch: object): ConfigKey[] {
  return Object.keys(patch).filter((k): k is ConfigKey => fixesRun(k));
}

/** "rolloutBatch" → "rollout batch"; the table's symbol where it has one (ε_high). */
export function fieldLabel(key: ConfigKey): string {
  return fieldSpec(key).label ?? key.replace(/([A-Z])/g, ' $1').toLowerCase();
}

/** A setting's key in a query (the page URL, --set). */
export function urlKey(key: ConfigKey): string {
  return fieldSpec(key).url ?? key;
}

const BY_URL_KEY: ReadonlyMap<string, ConfigKey> = new Map(CONFIG_KEYS.map((k) => [urlKey(k), k]));

/** The setting a query key names, or null (a Map: Object.prototype names are not settings). */
export function settingOfUrlKey(name: string): ConfigKey | null {
  return BY_URL_KEY.get(name) ?? null;
}

/** Schema keys by group, in schema order. */
export function groupedKeys(): { group: ConfigGroup; keys: ConfigKey[] }[] {
  const byGroup = new Map<ConfigGroup, ConfigKey[]>();
  for (const k of CONFIG_KEYS) {
    const g = fieldSpec(k).group;
    byGroup.set(g, [...(byGroup.get(g) ?? []), k]);
  }
  return [...byGroup].map(([group, keys]) => ({ group, keys }));
}
