// The reference (base) distribution used for pretraining and SFT on gold (the built-in tasks are
// in builtin.ts, a config's task in registry.ts).
import type { Rng } from '../rng';
import { renderBehavior, renderResponse } from './grammar';
import type { Task } from './types';
import { CONTEXT, PROMPT_LENGTH, promptTokens } from './vocab';

export type { Task } from './types';

export interface ReferenceOptions {
  /** Share of rows whose prompt carries a hint token. */
  hintShare: number;
  /** Probability that a hinted row follows the hinted behavior. */
  hintFollow: number;
  /** Only the gold behavior of each state, never a hint (SFT on gold). */
  goldOnly: boolean;
}

export const REFERENCE_DEFAULTS: ReferenceOptions = { hintShare: 0.3, hintFollow: 0.85, goldOnly: false };

/** Behavior mix of the reference for a state, with an optional hinted behavior. */
export function referenceMix(task: Task, state: number, hinted: number | null, opts: ReferenceOptions): number[] {
  if (opts.goldOnly) return task.baseMix[state].map((_, b) => (b === task.gold[state] ? 1 : 0));
  const base = task.baseMix[state];
  if (hinted === null) return base.slice();
  return base.map((p, b) => (1 - opts.hintFollow) * p + (b === hinted ? opts.hintFollow : 0));
}

/** A batch of reference sequences (B × CONTEXT) with the loss mask on response predictions. */
export function referenceBatch(task: Task, batch: number, rng: Rng, opts: ReferenceOptions = REFERENCE_DEFAULTS): {
  tokens: Int32Array;
  lossMask: Float32Array;
} {
  const tokens = new Int32Array(batch * CONTEXT);
  const lossMask = new Float32Array(batch * (CONTEXT - 1));
  for (let b = 0; b < batch; b++) {
    const state = rng.int(task.states.length);
    const hinted = !opts.goldOnly && rng.next() < opts.hintShare ? rng.int(task.behaviors.length) : null;
    const behavior = rng.categorical(referenceMix(task, state, hinted, opts));
    const prompt = promptTokens(task.states[state].token, hinted === null ? null : task.behaviors[hinted].hint);
    const markers = task.behaviors[behavior].markers;
    const level = task.responses?.[state][behavior];
    const response = level ? renderResponse(markers, level, rng) : renderBehavior(markers, rng);
    const row = [...prompt, ...response];
    for (let i = 0; i < row.length; i++) tokens[b * CONTEXT + i] = row[i];
    for (let t = PROMPT_LENGTH - 1; t < row.length - 1; t++) lossMask[b * (CONTEXT - 1) + t] = 1;
  }
  return { tokens, lossMask };
}
