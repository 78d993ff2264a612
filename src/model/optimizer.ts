// AdamW on the parameter matrix [P, N] (one flat vector per population member) with each member's
// global grad-norm clip, as graph ops (shared by the PPO and SFT train steps). Hyperparameters
// arrive as per-member columns [P, 1] so they can change per step and differ between members.
import type { Tensor } from '../graph/builder';
import * as op from '../graph/ops';

export interface OptimizerInputs {
  lr: Tensor;
  beta1: Tensor;
  beta2: Tensor;
  eps: Tensor;
  weightDecay: Tensor;
  maxGradNorm: Tensor;
  /** 1-based step count for bias correction. */
  step: Tensor;
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
  const limit = op.min2(op.div(h.maxGradNorm, op.add(gradNorm, 1e-6)), 1);
  const scale = op.where(op.greater(h.maxGradNorm, 0), limit, 1);
  const g = op.mul(gradient, scale);
  const m2 = op.add(op.mul(m, h.beta1), op.mul(g, op.sub(1, h.beta1)));
  const v2 = op.add(op.mul(v, h.beta2), op.mul(op.mul(g, g), op.sub(1, h.beta2)));
  // β^t as exp(t·ln β): Pow with a tensor exponent.
  const correction1 = op.sub(1, op.exp(op.mul(h.step, op.log(h.beta1))));
  const correction2 = op.sub(1, op.exp(op.mul(h.step, op.log(h.beta2))));
  const update = op.div(op.div(m2, correction1), op.add(op.sqrt(op.div(v2, correction2)), h.eps));
  const decay = op.mul(op.mul(params, decayMask), h.weightDecay);
  const next = op.sub(params, op.mul(op.add(update, decay), h.lr));
  return { params: next, m: m2, v: v2, gradNorm };
}
