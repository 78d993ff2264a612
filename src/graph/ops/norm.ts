// LayerNormalization over the last axis as ONE node (one kernel where the plain-op chain was nine),
// with its backward written out (onnxruntime-web has no LayerNormalizationGrad).
import { attr, type Tensor } from '../builder';
import { defineGrad } from './rules';
import { add, div, mul, sqrt, sub } from './elementwise';
import { reduceMean } from './reduce';
import { reduceSumTo, reshape } from './shape';

export const LAYER_NORM_EPS = 1e-5;

/**
 * (x − mean) / √(var + eps) · g + b over the last axis. g and b are [d] (or [1, …, 1, d]: one shared
 * vector, reshaped to [d] for the node); per-member vectors [P, 1, d] (a population) normalize with
 * unit scale and zero shift in the node and apply g, b as a Mul and an Add. In float32 the node also
 * returns the mean and 1/std of each row for the backward (onnxruntime keeps them in float32 only,
 * so a float64 graph — the gradient checks — recomputes them there).
 */
export function layerNorm(x: Tensor, g: Tensor, b: Tensor): Tensor {
  const d = x.shape[x.rank - 1] as number;
  const shared = (t: Tensor) => t.shape.slice(0, -1).every((n) => n === 1);
  if (!shared(g) || !shared(b)) return add(mul(normalize(x, x.graph.constant(new Array<number>(d).fill(1), x.dtype, [d]), x.graph.scalar(0, x.dtype)), g), b);
  return normalize(x, reshape(g, [d]), reshape(b, [d]));
}

function normalize(x: Tensor, g: Tensor, b: Tensor): Tensor {
  const rowShape = [...x.shape.slice(0, -1), 1];
  const outs = [{ dtype: x.dtype, shape: x.shape }];
  if (x.dtype === 'float32') outs.push({ dtype: x.dtype, shape: rowShape }, { dtype: x.dtype, shape: rowShape });
  const bias = b.rank === 0 ? x.graph.constant(new Array<number>(x.shape[x.rank - 1] as number).fill(0), x.dtype, [x.shape[x.rank - 1]]) : b;
  return x.graph.node('LayerNormalization', [x, g, bias], outs, { axis: attr.int(-1), epsilon: attr.float(LAYER_NORM_EPS) })[0];
}

// y = x̂ · g + b with x̂ = (x − μ) · s, s = 1/√(var + eps):
// dx = s · (dx̂ − mean(dx̂) − x̂ · mean(dx̂ · x̂)) with dx̂ = dy · g; dg = Σ dy · x̂; db = Σ dy.
defineGrad('LayerNormalization', ({ inputs: [x, g, b], outputs }, [dy]) => {
  const stats = () => {
    if (outputs.length === 3) return { centered: sub(x, outputs[1]), inv: outputs[2] };
    const centered = sub(x, reduceMean(x, [-1], true));
    return { centered, inv: div(1, sqrt(add(reduceMean(mul(centered, centered), [-1], true), LAYER_NORM_EPS))) };
  };
  let cached: { xhat: Tensor; inv: Tensor } | undefined;
  const xhat = () => {
    if (!cached) {
      const { centered, inv } = stats();
      cached = { xhat: mul(centered, inv), inv };
    }
    return cached;
  };
  return [
    () => {
      const { xhat: xh, inv } = xhat();
      const dxh = mul(dy, g);
      const inner = sub(sub(dxh, reduceMean(dxh, [-1], true)), mul(xh, reduceMean(mul(dxh, xh), [-1], true)));
      return mul(inner, inv);
    },
    () => reduceSumTo(mul(dy, xhat().xhat), g.shape),
    () => reduceSumTo(dy, b.shape),
  ];
});
