// Per-token advantages and loss masks of queued samples in the engine layout (CONTEXT − 1 per row):
// A_t = reward + opdWeight·clamp(logπ_T(t) − logπ_old(t), ±c) on the response predictions.
import { CONTEXT, PROMPT_LENGTH } from '../tasks/vocab';
import type { GateDecision } from '../gates/decision';
import type { JudgedTurn } from './types';

export const T = CONTEXT - 1;

/** Positions t (prediction of token t + 1) that belong to the response. */
export function responseRange(turn: JudgedTurn): [number, number] {
  return [PROMPT_LENGTH - 1, PROMPT_LENGTH - 1 + turn.responseLength];
}

export function sampleRow(
  turn: JudgedTurn,
  d: GateDecision,
  oldLogp: ArrayLike<number>,
  teacherLogp: ArrayLike<number> | null,
  clamp: number,
): { advantages: Float32Array; lossMask: Float32Array } {
  const advantages = new Float32Array(T);
  const lossMask = new Float32Array(T);
  const [a, b] = responseRange(turn);
  for (let t = a; t < b; t++) {
    let adv = d.reward;
    if (d.opdWeight !== 0) {
      if (!teacherLogp) throw new Error('sampleRow: teacher log-probs required for an OPD term');
      let g = teacherLogp[t] - oldLogp[t];
      if (clamp > 0) g = Math.min(Math.max(g, -clamp), clamp);
      adv += d.opdWeight * g;
    }
    advantages[t] = adv;
    lossMask[t] = d.lossMask;
  }
  return { advantages, lossMask };
}
