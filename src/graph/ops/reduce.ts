// Reductions and softmax over static axes; forward and backward side by side.
import { attr, type Dim, type Tensor } from '../builder';
import { defineGrad } from './rules';
import { div, equal, exp, mask, mul, sub } from './elementwise';
import { expandAs } from './shape';

function reducedShape(x: Tensor, axes: number[], keepdims: boolean): Dim[] {
  const set = new Set(axes.map((a) => (a < 0 ? a + x.rank : a)));
  const out: Dim[] = [];
  x.shape.forEach((d, i) => {
    if (!set.has(i)) out.push(d);
    else if (keepdims) out.push(1);
  });
  return out;
}

const normAxes = (x: Tensor, axes: number[]) => axes.map((a) => (a < 0 ? a + x.rank : a));

/** ReduceSum (opset 13+: axes as an input). */
export function reduceSum(x: Tensor, axes: number[], keepdims = false): Tensor {
  const ax = normAxes(x, axes);
  return x.graph.node('ReduceSum', [x, x.graph.int64s(ax)], [{ dtype: x.dtype, shape: reducedShape(x, ax, keepdims) }], {
    keepdims: attr.int(keepdims ? 1 : 0),
  })[0];
}

/** ReduceMean / ReduceMax / ReduceLogSumExp (opset 17: axes as an attribute). */
function reduceAttr(op: string, x: Tensor, axes: number[], keepdims: boolean): Tensor {
  const ax = normAxes(x, axes);
  return x.graph.node(op, [x], [{ dtype: x.dtype, shape: reducedShape(x, ax, keepdims) }], {
    axes: attr.ints(ax),
    keepdims: attr.int(keepdims ? 1 : 0),
  })[0];
}
export const reduceMean = (x: Tensor, axes: number[], keepdims = false) => reduceAttr('ReduceMean', x, axes, keepdims);
export const reduceMax = (x: Tensor, axes: number[], keepdims = false) => reduceAttr('ReduceMax', x, axes, keepdims);
export const reduceLogSumExp = (x: Tensor, axes: number[], keepdims = false) => reduceAttr('ReduceLogSumExp', x, axes, keepdims);

export function softmax(x: Tensor, axis = -1): Tensor {
  return x.graph.node('Softmax', [x], [{ dtype: x.dtype, shape: x.shape }], { axis: attr.int(axis < 0 ? axis + x.rank : axis) })[0];
}

/** log softmax as x − logsumexp(x): LogSoftmax falls back to CPU on the native WebGPU EP. */
export const logSoftmax = (x: Tensor, axis = -1) => sub(x, reduceLogSumExp(x, [axis], true));

/** Inclusive cumulative sum along an axis (no gradient: used for inverse-CDF sampling). */
export function cumsum(x: Tensor, axis: number): Tensor {
  const ax = axis < 0 ? axis + x.rank : axis;
  return x.graph.node('CumSum', [x, x.graph.constant([ax], 'int32', [])], [{ dtype: x.dtype, shape: x.shape }])[0];
}

// ---- backward rules: restore the reduced axes (keepdims) and broadcast back ----
function keepdimsGrad(dy: Tensor, x: Tensor, axes: number[], keepdims: boolean): Tensor {
  if (keepdims) return dy;
  let shape = [...dy.shape];
  for (const a of [...axes].sort((p, q) => p - q)) shape.splice(a, 0, 1);
  return x.graph.node('Unsqueeze', [dy, x.graph.int64s([...axes].sort((p, q) => p - q))], [{ dtype: dy.dtype, shape }])[0];
}
const axesOf = (n: { attrs: Record<string, unknown> }) => (n.attrs.axes as { value: number[] }).value;
const keepOf = (n: { attrs: Record<string, unknown> }) => (n.attrs.keepdims as { value: number }).value === 1;

defineGrad('ReduceSum', (n, [dy]) => {
  const [x, axesT] = n.inputs;
  const axes = Array.from(x.graph.initializers.find((i) => i.tensor === axesT)!.data as BigInt64Array, Number);
  return [() => expandAs(keepdimsGrad(dy, x, axes, keepOf(n)), x), null];
});
defineGrad('ReduceMean', (n, [dy]) => {
  const [x] = n.inputs;
  const axes = axesOf(n);
  const count = axes.reduce((c, a) => c * (x.shape[a] as number), 1);
  return [() => expandAs(div(keepdimsGrad(dy, x, axes, keepOf(n)), count), x)];
});
defineGrad('ReduceLogSumExp', (n, [dy]) => {
  const [x] = n.inputs;
  const axes = axesOf(n);
  return [() => mul(keepdimsGrad(dy, x, axes, keepOf(n)), exp(sub(x, keepdimsGrad(n.outputs[0], x, axes, keepOf(n)))))];
});
defineGrad('ReduceMax', (n, [dy]) => {
  const [x] = n.inputs;
  const axes = axesOf(n);
  return [
    () => {
      // ties share the gradient evenly
      const hit = mask(equal(x, keepdimsGrad(n.outputs[0], x, axes, keepOf(n))), x);
      return mul(keepdimsGrad(dy, x, axes, keepOf(n)), div(hit, reduceSum(hit, axes, true)));
    },
  ];
});
defineGrad('Softmax', ({ outputs: [y], attrs }, [dy]) => {
  const axis = (attrs.axis as { value: number }).value;
  return [() => mul(y, sub(dy, reduceSum(mul(dy, y), [axis], true)))];
});
