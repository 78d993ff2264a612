/**
 * Display names for the schema's groups and fields. Only names: ranges, defaults and docs come from
 * the core schema (src/core/config.ts), never from here.
 */
import { CONFIG_KEYS, fieldSpec, type ConfigGroup, type ConfigKey } from '../../core/config';

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

const SYMBOLS: Partial<Record<ConfigKey, string>> = {
  clipLow: 'ε_low',
  clipHigh: 'ε_high',
  dualClip: 'dual clip c',
  entropyCoef: 'β_ent',
  klCoef: 'β_KL',
  lr: 'learning rate',
  beta1: 'Adam β1',
  beta2: 'Adam β2',
  adamEps: 'Adam ε',
  updatesPerRollout: 'updates per rollout K',
  piOldSource: 'π_old source',
  gamma: 'γ',
  prmStepCoef: 'prm_step_coef',
  stepwiseZ: 'step-wise z-score',
  wOpd: 'w_opd',
  wRl: 'w_rl',
  feasibilityEps: 'feasibility ε',
  tokenEps: 'token ε',
  sftGoldSteps: 'SFT-on-gold steps',
  dModel: 'd_model',
};

/** "rolloutBatch" → "rollout batch"; symbols for the settings the lessons talk about. */
export function fieldLabel(key: ConfigKey): string {
  return SYMBOLS[key] ?? key.replace(/([A-Z])/g, ' $1').toLowerCase();
}

/** Schema keys by group, in schema order. */
export function groupedKeys(): { group: ConfigGroup; keys: ConfigKey[] }[] {
  const out: { group: ConfigGroup; keys: ConfigKey[] }[] = [];
  for (const k of CONFIG_KEYS) {
    const g = fieldSpec(k).group;
    let entry = out.find((e) => e.group === g);
    if (!entry) out.push((entry = { group: g, keys: [] }));
    entry.keys.push(k);
  }
  return out;
}

/** Value as text for the timeline and badges. */
export function formatSetting(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(4)));
  // free text (the gate setting): '' is the method's built-in gate; rules are summarised, not inlined
  if (typeof v === 'string' && v.trim() === '') return 'built-in';
  if (typeof v === 'string' && /[\n\r]/.test(v)) return `${v.split(/\r?\n/).filter((l) => l.trim()).length} rules`;
  return String(v);
}
