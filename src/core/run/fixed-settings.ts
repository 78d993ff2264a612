/**
 * Settings that fix a run: changing them needs a reset (the engine or the base changes too).
 * NOTE (issue 17): the one list until the config schema declares "fixes a run" per setting
 * (engineer "config"); then this module reads it from the schema and the list below goes.
 */
import type { Config } from '../config';

export const RESTART_KEYS = ['task', 'seed', 'dModel', 'layers', 'heads', 'mlp', 'sftGoldSteps', 'sftBatch', 'sftLr'] as const satisfies readonly (keyof Config)[];

/** The keys of a patch that fix the run (a live patch may not hold any). */
export function restartKeysIn(patch: Partial<Config>): string[] {
  return Object.keys(patch).filter((k) => (RESTART_KEYS as readonly string[]).includes(k));
}
