// The PPO loss's head in closed form: from the logits, the per-token statistics the trainer reports
// (log-prob, entropy, ratio) and the loss's gradient w.r.t. the logits, written out instead of
// differentiating the loss node by node (the loss's value is computed on the CPU from these
// statistics: src/model/ppo-coefs.ts with src/core/ppo.ts). Everything that depends on the batch
// alone (aggregation weights, advantages, clip bounds, coefficients) arrives per token from the CPU.
//
// With z = logits / temperature, π = softmax(z), logp_t = log π(next_t), H_t = −Σ_v π_v log π_v:
//   ∂loss/∂logp_t = g_t = pgCoef_t·ρ_t (0 where the clip or dual clip binds: ρ_t outside
//                   [ratioLow_t, ratioHigh_t]) + klCoef_t·(1 − e^{ref_t − logp_t}) (0 where k3 > 10)
//   ∂loss/∂z_v    = g_t·(next_v − π_v) + entropyCoef_t·π_v·(log π_v + H_t)
//   ∂loss/∂logits = ∂loss/∂z / temperature
// with pgCoef = −w·A, klCoef = β_KL·w, entropyCoef = β_ent·w (w the aggregation weight). In the
// default case (β_ent = β_KL = 0, no dual clip) the gradient equals the autodiff of the plain-op
// loss bit for bit: g·next − g·π is what ∂(z − logsumexp z)/∂z gives for a one-hot upstream.
import type { Tensor } from '../graph/builder';
import * as op from '../graph/ops';

/** The per-token inputs of the head, in the order of the train graph's `tokenInputs` rows. */
export const PPO_TOKEN_INPUTS = ['oldLogp', 'refLogp', 'pgCoef', 'ratioLow', 'ratioHigh', 'klCoef', 'entropyCoef'] as const;
export type PpoTokenInput = (typeof PPO_TOKEN_INPUTS)[number];

/** k3 KL above this is clamped (src/core/ppo.ts), so its gradient there is 0. */
const KL_CLAMP = 10;

/**
 * The loss terms a train graph carries besides the clipped policy gradient. With β_KL = 0 (β_ent =
 * 0) for every member — the default — the term's per-token gradient is ±0 and adding it changes no
 * value, so a graph without it gives the same parameters, moments and statistics bit for bit (only
 * the sign of a zero gradient entry can differ, which no later sum, square or Adam step keeps) in
 * 8 (4) kernels fewer.
 */
export interface PpoTerms {
  kl: boolean;
  entropy: boolean;
}
export const ALL_PPO_TERMS: PpoTerms = { kl: true, entropy: true };

/** The terms a train step of these members needs (members sitting out are null). */
export function ppoTermsFor(hypers: readonly ({ klCoef: number; entropyCoef: number } | null)[]): PpoTerms {
  return { kl: hypers.some((h) => h !== null && h.klCoef !== 0), entropy: hypers.some((h) => h !== null && h.entropyCoef !== 0) };
}

/**
 * logits [P, B, W, V], next the predicted tokens' one-hot [P, B, W, V], temperature broadcastable
 * to the logits, x the per-token inputs [P, B, W] → logp, entropy, ratio [P, B, W] and dLogits
 * [P, B, W, V] (the gradient of the members' summed loss w.r.t. the logits).
 */
export function ppoHead(logits: Tensor, next: Tensor, temperature: Tensor, x: Record<PpoTokenInput, Tensor>, terms: PpoTerms = ALL_PPO_TERMS) {
  const perToken = (t: Tensor) => op.unsqueeze(t, 3);
  const z = op.div(logits, temperature);
  const logpAll = op.logSoftmax(z, -1);
  const probs = op.exp(logpAll);
  const entropy = op.neg(op.reduceSum(op.mul(probs, logpAll), [-1]));
  const logp = op.reduceSum(op.mul(logpAll, next), [-1]);
  const ratio = op.exp(op.sub(logp, x.oldLogp));
  const gPg = op.where(op.less(ratio, x.ratioLow), 0, op.where(op.greater(ratio, x.ratioHigh), 0, op.mul(x.pgCoef, ratio)));
  // k3 KL = e^d − d − 1 with d = ref − logp; ∂/∂logp = 1 − e^d (0 where the clamp binds; a clamped d,
  // |d| > 20, always puts k3 above the clamp, so d needs no clip here)
  const klGrad = () => {
    const d = op.sub(x.refLogp, logp);
    const e = op.exp(d);
    return op.where(op.greater(op.sub(e, d), KL_CLAMP + 1), 0, op.mul(x.klCoef, op.sub(1, e)));
  };
  const g = perToken(terms.kl ? op.add(gPg, klGrad()) : gPg);
  const dPg = op.sub(op.mul(g, next), op.mul(g, probs));
  const dEntropy = () => op.mul(op.mul(probs, op.add(logpAll, perToken(entropy))), perToken(x.entropyCoef));
  const dLogits = op.div(terms.entropy ? op.add(dPg, dEntropy()) : dPg, temperature);
  return { logp, entropy, ratio, dLogits };
}
