// AdamW on the parameter matrix [P, N] (one flat vector per population member) with each member's
// global grad-norm clip, as graph ops (shared by the PPO and SFT train steps). Hyperparameters
// arrive as per-member columns [P, 1] so they can change per step and differ between members; the
// ones that depend only on the settings and the step count come from the CPU (adamwScalars).
import type { Tensor } from '../graph/builder';
import * as op from '../graph/ops';

export interface OptimizerInputs {
  lr: Tensor;
  beta1: Tensor;
  beta2: Tensor;
  eps: Tensor;
  weightDecay: Tensor;
  /** The clip's max norm; +∞ where clipping is off (adamwScalars). */
  maxGradNorm: Tensor;
  oneMinusBeta1: Tensor;
  oneMinusBeta2: Tensor;
  /** Bias corrections 1 − β^t of this step. */
  correction1: Tensor;
  correction2: Tensor;
}

/** What adamwScalars reads: the member's optimizer settings. */
export interface AdamwSettings {
  beta1: number;
  beta2: number;
  maxGradNorm: number;
}

/**
 * The per-member, per-step scalars of AdamW, computed on the CPU once per step rather than as ten
 * [P, 1] kernels per train step (the GPU pays per dispatch, not per element). 1 − β is what the
 * float32 Sub gave, bit for bit (both operands float32, the difference rounded once); the bias
 * corrections 1 − β^t are the float64 values rounded to float32 (the graph's float32 exp(t·ln β)
 * was within float32 noise of them). A max norm ≤ 0 (no clipping) becomes +∞, so the clip's scale
 * min(∞ / (‖g‖ + 1e-6), 1) is exactly 1 with no select. `step` is 1-based.
 */
export function adamwScalars(h: AdamwSettings, step: number) {
  const [b1, b2] = [Math.fround(h.beta1), Math.fround(h.beta2)];
  return {
    oneMinusBeta1: 1 - b1, oneMinusBeta2: 1 - b2, correction1: 1 - b1 ** step, correction2: 1 - b2 ** step,
    maxGradNorm: h.maxGradNorm > 0 ? h.maxGradNorm : Infinity,
  };
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
  const g = op.mul(gradient, op.min2(op.div(h.maxGradNorm, op.add(gradNorm, 1e-6)), 1));
  const m2 = op.add(op.mul(m, h.beta1), op.mul(g, h.oneMinusBeta1));
  const v2 = op.add(op.mul(v, h.beta2), op.mul(op.mul(g, g), h.oneMinusBeta2));
  const update = op.div(op.div(m2, h.correction1), op.add(op.sqrt(op.div(v2, h.correction2)), h.eps));
  const decay = op.mul(op.mul(params, decayMask), h.weightDecay);
  const next = op.sub(params, op.mul(op.add(update, decay), h.lr));
  return { params: next, m: m2, v: v2, gradNorm };
}
