// Every backward rule against central finite differences (float64 through ORT's WASM EP).
import { describe, expect, it } from 'vitest';
import { gradCheck, type GradCheckInput } from '../../tests/support/gradcheck';
import { ort } from '../engine/node';
import { encodeModel } from './encode';
import { grad } from './grad';
import * as op from './ops';
import { Graph, type Tensor } from './builder';

const rand = (n: number, seed: number, lo = -1, hi = 1) =>
  Array.from({ length: n }, (_, i) => lo + (hi - lo) * (0.5 + 0.5 * Math.sin(seed * 12.9898 + i * 78.233) * 0.999));
const inp = (shape: number[], seed: number, lo?: number, hi?: number): GradCheckInput => ({
  shape,
  values: rand(shape.reduce((a, b) => a * b, 1), seed, lo, hi),
});

const cases: [string, GradCheckInput[], (...xs: Tensor[]) => Tensor][] = [
  ['Add (broadcast)', [inp([2, 3], 1), inp([3], 2)], (a, b) => op.add(a, b)],
  ['Sub (broadcast rows)', [inp([2, 3], 3), inp([2, 1], 4)], (a, b) => op.sub(a, b)],
  ['Mul (broadcast)', [inp([2, 3], 5), inp([1, 3], 6)], (a, b) => op.mul(a, b)],
  ['Div', [inp([2, 3], 7), inp([2, 3], 8, 0.5, 2)], (a, b) => op.div(a, b)],
  ['Pow', [inp([4], 9, 0.5, 2)], (a) => op.pow(a, -0.5)],
  ['Neg', [inp([4], 10)], (a) => op.neg(a)],
  ['Exp', [inp([4], 11)], (a) => op.exp(a)],
  ['Log', [inp([4], 12, 0.3, 3)], (a) => op.log(a)],
  ['Sqrt', [inp([4], 13, 0.3, 3)], (a) => op.sqrt(a)],
  ['Tanh', [inp([4], 14)], (a) => op.tanh(a)],
  ['Abs', [inp([4], 15)], (a) => op.abs(a)],
  ['Min', [inp([5], 16), inp([5], 17)], (a, b) => op.min2(a, b)],
  ['Max (broadcast scalar)', [inp([5], 18), inp([1], 19)], (a, b) => op.max2(a, b)],
  // at a tie of two slopes the central difference is their mean: the even split
  ['Max (a tie at 0 splits the gradient evenly)', [{ shape: [3], values: [0, 0.5, -0.5] }], (a) => op.max2(a, op.neg(a))],
  ['Min (a tie at 0, one side broadcast)', [{ shape: [2, 2], values: [0, 0.3, -0.4, 0.2] }, { shape: [1, 2], values: [0, 0.1] }], (a, b) => op.min2(op.mul(a, 2), b)],
  ['Clip', [inp([6], 20, -2, 2)], (a) => op.clip(a, -0.8, 0.9)],
  ['Where', [inp([2, 3], 21), inp([2, 3], 22)], (a, b) => op.where(op.greater(a, b), a, op.mul(b, 3))],
  ['MatMul 2D', [inp([3, 4], 23), inp([4, 2], 24)], (a, b) => op.matmul(a, b)],
  ['MatMul batched × shared weight', [inp([2, 3, 4], 25), inp([4, 2], 26)], (a, b) => op.matmul(a, b)],
  ['MatMul batched × batched', [inp([2, 3, 4], 27), inp([2, 4, 3], 28)], (a, b) => op.matmul(a, b)],
  ['Gemm + bias row', [inp([3, 4], 51), inp([4, 2], 52), inp([2], 53)], (a, b, c) => op.gemm(a, b, c)],
  ['Gemm transA + bias column', [inp([4, 3], 54), inp([4, 2], 55), inp([3, 1], 56)], (a, b, c) => op.gemm(a, b, c, { transA: true })],
  ['Gemm transB', [inp([3, 4], 57), inp([2, 4], 58)], (a, b) => op.gemm(a, b, undefined, { transB: true })],
  ['Gemm transA transB + full bias', [inp([4, 3], 59), inp([2, 4], 60), inp([3, 2], 61)], (a, b, c) => op.gemm(a, b, c, { transA: true, transB: true })],
  ['LayerNormalization (shared scale and shift)', [inp([2, 3, 4], 62, -2, 2), inp([4], 63), inp([4], 64)], (x, g, b) => op.layerNorm(x, g, b)],
  ['LayerNormalization (per-member scale and shift)', [inp([2, 3, 4], 65, -2, 2), inp([2, 1, 4], 66), inp([2, 1, 4], 67)], (x, g, b) => op.layerNorm(x, g, b)],
  ['Softmax', [inp([2, 5], 29, -2, 2)], (a) => op.softmax(a)],
  ['ReduceLogSumExp', [inp([2, 5], 30, -2, 2)], (a) => op.reduceLogSumExp(a, [-1])],
  ['logSoftmax', [inp([2, 5], 31, -2, 2)], (a) => op.logSoftmax(a)],
  ['ReduceSum', [inp([2, 3, 2], 32)], (a) => op.reduceSum(a, [0, 2])],
  ['ReduceMean keepdims', [inp([2, 3], 33)], (a) => op.reduceMean(a, [1], true)],
  ['ReduceMax', [inp([3, 4], 34)], (a) => op.reduceMax(a, [1])],
  ['Transpose', [inp([2, 3, 4], 35)], (a) => op.transpose(a, [2, 0, 1])],
  ['Reshape', [inp([2, 6], 36)], (a) => op.reshape(a, [3, 4])],
  ['Slice', [inp([3, 5], 37)], (a) => op.slice(a, 1, 1, 4)],
  ['Split', [inp([2, 6], 47)], (a) => {
    const [p, q, r] = op.split(a, 1, [1, 2, 3]);
    return op.concat([op.mul(p, 2), op.exp(q), r], 1);
  }],
  ['Split into 17 parts (a tree of Splits of at most 7)', [inp([2, 20], 50)], (a) => {
    const parts = op.split(a, 1, [4, ...new Array<number>(16).fill(1)]);
    return op.concat(parts.map((p, i) => op.mul(p, i + 1)), 1);
  }],
  ['Split (one part unused)', [inp([2, 5], 48)], (a) => op.split(a, 1, [2, 3])[1]],
  ['Concat', [inp([2, 2], 38), inp([2, 3], 39)], (a, b) => op.concat([a, b], 1)],
  ['Unsqueeze', [inp([2, 3], 40)], (a) => op.unsqueeze(a, 1)],
  ['Expand', [inp([1, 3], 41), inp([4, 3], 42)], (a, b) => op.mul(op.expandAs(a, b), b)],
  ['Gather (embedding)', [inp([5, 3], 43), { shape: [2, 3], values: [0, 4, 4, 1, 2, 0], constant: true, dtype: 'int32' }], (t, i) => op.gather(t, i)],
  ['Gather (2 stacked tables, grouped backward)', [inp([6, 3], 49), { shape: [2, 3], values: [0, 2, 2, 1, 0, 1], constant: true, dtype: 'int32' }], (t, local) => {
    const offsets = t.graph.constant([0, 3], 'int32', [2, 1]);
    return op.gather(t, op.add(local, offsets), { groups: 2, local });
  }],
  ['Cast float→float', [inp([3], 44)], (a) => op.mul(op.cast(a, 'float64'), a)],
];

describe('backward rules match finite differences', () => {
  for (const [name, inputs, f] of cases) {
    it(name, async () => {
      const r = await gradCheck(inputs, f);
      expect(r.maxAbsErr, `${name}: analytic ${Array.from(r.analytic[0]).slice(0, 6)} vs numeric ${Array.from(r.numeric[0]).slice(0, 6)}`).toBeLessThan(1e-6);
    });
  }

  it('stopGradient blocks its path, and the checker notices a gradient that is off', async () => {
    // d/da of sg(a)·a is a, half of the true derivative 2a of a²: analytic = numeric / 2.
    const r = await gradCheck([inp([4], 46)], (a) => op.mul(op.stopGradient(a), a));
    r.analytic[0].forEach((v, i) => expect(v).toBeCloseTo(r.numeric[0][i] / 2, 6));
    expect(r.maxAbsErr).toBeGreaterThan(1e-2);
  });

  it('LayerNormalization in float32 takes its backward from the node\'s own mean and 1/std, equal to the checked float64 rule', async () => {
    // float64 graphs recompute the row statistics (onnxruntime keeps them in float32 only); float32
    // graphs read them off the node: both must give the same gradients
    const x = rand(2 * 3 * 4, 68, -2, 2);
    const gamma = rand(4, 69);
    const beta = rand(4, 70);
    const weights = rand(2 * 3 * 4, 71);
    const run = async (dtype: 'float32' | 'float64') => {
      const g = new Graph('ln');
      const [tx, tg, tb] = [g.input('x', dtype, [2, 3, 4]), g.input('g', dtype, [4]), g.input('b', dtype, [4])];
      const y = op.layerNorm(tx, tg, tb);
      if (dtype === 'float32') expect(y.producer!.outputs).toHaveLength(3);
      const loss = op.reduceSum(op.mul(y, g.constant(weights, dtype, [2, 3, 4])), [0, 1, 2]);
      grad(loss, [tx, tg, tb]).forEach((d, i) => g.output(`d${i}`, d));
      const session = await ort.InferenceSession.create(encodeModel(g), { executionProviders: ['wasm'] });
      const Arr = dtype === 'float32' ? Float32Array : Float64Array;
      const feeds = { x: new ort.Tensor(dtype, Arr.from(x), [2, 3, 4]), g: new ort.Tensor(dtype, Arr.from(gamma), [4]), b: new ort.Tensor(dtype, Arr.from(beta), [4]) };
      const out = await session.run(feeds);
      return [0, 1, 2].map((i) => Array.from(out[`d${i}`].data as Float32Array | Float64Array));
    };
    const [f32, f64] = [await run('float32'), await run('float64')];
    f64.forEach((d, i) => d.forEach((v, j) => expect(Math.abs(f32[i][j] - v), `d${i}[${j}]`).toBeLessThan(1e-5)));
  });
});
