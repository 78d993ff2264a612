// What the graphs read off the logits: log-probs of given tokens, entropies, and inverse-CDF samples.
// The policy is π = softmax(logits / temperature) everywhere (sampling, scoring, training), so the
// rollout and trainer log-probs describe the same distribution.
import type { Tensor } from '../graph/builder';
import * as op from '../graph/ops';

function tempered(logits: Tensor, temperature: Tensor) {
  const logpAll = op.logSoftmax(op.div(logits, temperature), -1);
  const probs = op.exp(logpAll);
  const entropy = op.neg(op.reduceSum(op.mul(probs, logpAll), [-1]));
  return { logpAll, probs, entropy };
}

/** Equal-based one-hot of int32 ids over the last axis (OneHot falls back to CPU on WebGPU). */
export function oneHot(ids: Tensor, vocab: number, dtype: Tensor['dtype']): Tensor {
  const range = ids.graph.constant(Array.from({ length: vocab }, (_, i) => i), 'int32', [vocab]);
  return op.cast(op.equal(op.unsqueeze(ids, -1), range), dtype);
}

/** Per-position log π(next | prefix) and entropy: logits [B, T, V], next as a one-hot [B, T, V] → [B, T] each. */
export function tokenStats(logits: Tensor, nextOneHot: Tensor, temperature: Tensor) {
  const { logpAll, entropy } = tempered(logits, temperature);
  const logp = op.reduceSum(op.mul(logpAll, nextOneHot), [-1]);
  return { logp, entropy };
}

/**
 * Sample one token per row by inverse CDF: token = #{v : cdf_v < u}, so the same uniforms give
 * the same tokens (reproducible from a seed). logits [B, V], uniforms [B] → token int32 [B] (and
 * the same ids as floats, `index`, exact below 2^24).
 */
export function sampleTokens(logits: Tensor, uniforms: Tensor, temperature: Tensor) {
  const vocab = logits.shape[logits.rank - 1] as number;
  const { logpAll, probs, entropy } = tempered(logits, temperature);
  const below = op.cast(op.less(op.cumsum(probs, -1), op.unsqueeze(uniforms, -1)), logits.dtype);
  const index = op.min2(op.reduceSum(below, [-1]), vocab - 1);
  const token = op.cast(index, 'int32');
  const logp = op.reduceSum(op.mul(logpAll, oneHot(token, vocab, logits.dtype)), [-1]);
  return { token, index, logp, entropy };
}
