// AdamW on the parameter matrix [P, N] (one flat vector per population member) with each member's
// global grad-norm clip, as graph ops (shared by the PPO and SFT train steps). Hyperparameters
// arrive as per-member columns [P, 1] so they can change per step and differ between members.
import type { Tensor } from '../graph/builder';
import * as op from '../graph/ops';

export interface OptimizerInputs {
  lr: Tensor;
  beta1: Tensor;
  beta2: Tensor;
  /** 1 − β1, 1 − β2 (adamwScalars). */
  oneMinusBeta1: Tensor;
  oneMinusBeta2: Tensor;
  eps: Tensor;
  weightDecay: Tensor;
  /** The clip's max norm; +∞ where clipping is off (adamwScalars). */
  maxGradNorm: Tensor;
  /** 1-based step count for bias correction. */
  step: Tensor;
}

/**
 * AdamW's per-member scalars the CPU gives exactly as the float32 graph ops gave them (four [P, 1]
 * kernels fewer per step; the GPU pays per dispatch, not per element): 1 − β rounded once to float32
 * is the float32 Sub's value bit for bit (1 − fround(β) is exact in float64), and a max norm ≤ 0 (no
 * clipping) becomes +∞, so the clip's scale min(∞ / (‖g‖ + 1e-6), 1) is exactly 1 with no select.
 * The bias corrections 1 − β^t stay in the graph: the float64 value rounded to float32 is an ulp off
 * the graph's float32 exp(t·ln β) at some steps, and the shipped checkpoints would no longer
 * reproduce (src/cli/pretrain.test.ts).
 */
export function adamwScalars(h: { beta1: number; beta2: number; maxGradNorm: number }) {
  return { oneMinusBeta1: 1 - Math.fround(h.beta1), oneMinusBeta2: 1 - Math.fround(h.beta2), maxGradNorm: h.maxGradNorm > 0 ? h.maxGradNorm : Infinity };
}

export function adamw(
  params: Tensor,
  m: Tensor,
  v: Tensor,
  gradient: Tensor,
  h: OptimizerInputs,
  decayMask: Tensor,
): { params: Tensor; m: Tensor; v: Tensor; gradNorm: Tensor } {
  const gradNorm = op.sqrt(op.reduceSum(op.mul(gradient, gradient), [1], true));
  const scale = op.min2(op.div(h.maxGradNorm, op.add(gradNorm, 1e-6)), 1);
  const g = op.mul(gradient, scale);
  const m2 = op.add(op.mul(m, h.beta1), op.mul(g, h.oneMinusBeta1));
  const v2 = op.add(op.mul(v, h.beta2), op.mul(op.mul(g, g), h.oneMinusBeta2));
  // β^t as exp(t·ln β): Pow with a tensor exponent.
  const correction1 = op.sub(1, op.exp(op.mul(h.step, op.log(h.beta1))));
  const correction2 = op.sub(1, op.exp(op.mul(h.step, op.log(h.beta2))));
  const update = op.div(op.div(m2, correction1), op.add(op.sqrt(op.div(v2, correction2)), h.eps));
  const decay = op.mul(op.mul(params, decayMask), h.weightDecay);
  const next = op.sub(params, op.mul(op.add(update, decay), h.lr));
  return { params: next, m: m2, v: v2, gradNorm };
}
