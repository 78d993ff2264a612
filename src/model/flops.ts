// FLOP count of the policy (multiply-adds × 2), used by the benchmark to turn time into GFLOP/s.
import type { PolicyShape } from '../core/engine';

/** Matmul FLOPs of one full forward pass over `batch` sequences of `context` tokens. */
export function forwardFlops(s: PolicyShape, batch: number): number {
  const { dModel: d, mlp, context: T, vocab: V, layers } = s;
  const perTokenLayer = 2 * d * 3 * d + 2 * d * d + 2 * 2 * d * mlp + 2 * 2 * T * d; // qkv, out, mlp, scores + mix
  return batch * T * (layers * perTokenLayer + 2 * d * V);
}

/** A train step: forward + backward (≈ 2× forward) + the embedding one-hot product. */
export function trainStepFlops(s: PolicyShape, batch: number): number {
  return 3 * forwardFlops(s, batch) + 2 * batch * s.context * s.vocab * s.dModel;
}
