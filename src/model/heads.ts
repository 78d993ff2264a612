// What the graphs read off the logits: log-probs of given tokens, entropies, and inverse-CDF samples.
// The policy is π = softmax(logits / temperature) everywhere (sampling, scoring, training), so the
// rollout and trainer log-probs describe the same distribution.
import type { Tensor } from '../graph/builder';
import * as op from '../graph/ops';

/** Log-probs, probabilities and entropy of π = softmax(z) for tempered logits z = logits / temperature. */
function tempered(z: Tensor) {
  const logpAll = op.logSoftmax(z, -1);
  const probs = op.exp(logpAll);
  const entropy = op.neg(op.reduceSum(op.mul(probs, logpAll), [-1]));
  return { logpAll, probs, entropy };
}

/** Per-position log π(next | prefix) and entropy of tempered logits z [.., V], next as a one-hot [.., V] → [..] each. */
export function temperedStats(z: Tensor, nextOneHot: Tensor) {
  const { logpAll, entropy } = tempered(z);
  const logp = op.reduceSum(op.mul(logpAll, nextOneHot), [-1]);
  return { logp, entropy };
}

/** Per-position log π(next | prefix) and entropy: logits [B, T, V], next as a one-hot [B, T, V] → [B, T] each. */
export function tokenStats(logits: Tensor, nextOneHot: Tensor, temperature: Tensor) {
  return temperedStats(op.div(logits, temperature), nextOneHot);
}

/**
 * The [V, V] matrix that turns below_v = [cdf_v < u] into the one-hot of #{v : cdf_v < u} clamped to
 * V − 1: below is a prefix of ones (cdf is non-decreasing), so the one-hot is e0 + below·A with
 * A[i][j] = [i = j − 1] − [i = j < V − 1] (the last column of below is ignored: the clamp). Negated
 * (−A, zeros kept +0) because sampleOneHot's rows hold −below.
 */
function prefixToOneHot(g: Tensor['graph'], vocab: number, dtype: Tensor['dtype']): Tensor {
  const a = new Array<number>(vocab * vocab).fill(0);
  for (let j = 0; j < vocab; j++) {
    if (j >= 1) a[(j - 1) * vocab + j] -= 1;
    if (j < vocab - 1) a[j * vocab + j] += 1;
  }
  return g.constant(a, dtype, [vocab, vocab]);
}

/** The uniform of a forced row (prompt, PAD): below every half gap's zero, so no cdf counts as below it (sampleOneHot). */
export const FORCED_UNIFORM = -0.5;

/**
 * Sample one token per row by inverse CDF (token = #{v : cdf_v < u}, clamped to V − 1, so the same
 * uniforms give the same tokens), as a one-hot: z tempered logits [P, B, V], uniforms [P, B, 1] in
 * [0, 1], base [P, B, V] the one-hot added to below·A (e0 for a sampled row). A forced row passes
 * u = FORCED_UNIFORM and the forced token's one-hot as base. Four kernels: Softmax; one Gemm for
 * the half gaps 0.5·(cdf_v − u), the cdf as probs · upper-triangular ones (summed in order, so the
 * cdf CumSum gave, bit for bit on WASM) with u scaled by the Gemm's beta; Floor (−1 where cdf_v < u:
 * the half gap is in [−0.5, 0.5 + ε], and the sign of a rounded difference is exact); one Gemm for
 * the one-hot. A forced row's half gaps are in [0.25, 0.75 + ε]: no token is below.
 */
export function sampleOneHot(z: Tensor, uniforms: Tensor, base: Tensor): Tensor {
  const vocab = z.shape[z.rank - 1] as number;
  const g = z.graph;
  const rows = (t: Tensor) => op.reshape(t, ['rows', t.shape[t.rank - 1]]);
  const upper = g.constant(Array.from({ length: vocab * vocab }, (_, i) => (Math.floor(i / vocab) <= i % vocab ? 1 : 0)), z.dtype, [vocab, vocab]);
  const halfGap = op.gemm(rows(op.softmax(z, -1)), upper, rows(uniforms), { alpha: 0.5, beta: -0.5 });
  const minusBelow = op.floor(halfGap);
  return op.reshape(op.gemm(minusBelow, prefixToOneHot(g, vocab, z.dtype), rows(base)), z.shape);
}
