// Finite-difference checking of the autodiff through onnxruntime (WASM EP in Node): the graph is
// built in float64 so central differences are accurate, then compared with grad()'s answer.
import { ort } from '../../src/engine/node';
import { Graph, numel, type Shape, type Tensor } from '../../src/graph/builder';
import { encodeModel } from '../../src/graph/encode';
import { grad } from '../../src/graph/grad';
import { mul, reduceSum } from '../../src/graph/ops';

export interface GradCheckInput {
  shape: Shape;
  values: number[];
  /** Not differentiated (e.g. integer indices); given as int32 when `dtype` is 'int32'. */
  constant?: boolean;
  dtype?: 'float64' | 'int32';
}

export interface GradCheckResult {
  maxAbsErr: number;
  maxRelErr: number;
  analytic: Float64Array[];
  numeric: Float64Array[];
}

/**
 * Check a gradient written in closed form against central differences of a loss computed on the
 * CPU: `build` returns the graph's outputs and the gradients w.r.t. the non-constant inputs (in
 * input order), `lossOf` the loss from the outputs' values (e.g. a plain-TypeScript reference).
 */
export async function closedFormGradCheck(
  inputs: GradCheckInput[],
  build: (...xs: Tensor[]) => { outputs: Tensor[]; gradients: Tensor[] },
  lossOf: (outputs: Float64Array[]) => number,
  h = 1e-6,
): Promise<GradCheckResult> {
  const g = new Graph('closed_form_gradcheck');
  const xs = inputs.map((inp, i) => g.input(`x${i}`, inp.dtype ?? 'float64', inp.shape));
  const { outputs, gradients } = build(...xs);
  outputs.forEach((t, k) => g.output(`y${k}`, t));
  gradients.forEach((d, k) => g.output(`d${k}`, d));
  const session = await ort.InferenceSession.create(encodeModel(g), { executionProviders: ['wasm'] });
  const lossAt = async (vals: number[][]) => {
    const res = await session.run(feedsOf(inputs, vals));
    return lossOf(outputs.map((_, k) => Float64Array.from(res[`y${k}`].data as Float64Array)));
  };
  const base = inputs.map((i) => i.values);
  const out = await session.run(feedsOf(inputs, base));
  const diffIdx = inputs.map((inp, i) => (inp.constant ? -1 : i)).filter((i) => i >= 0);
  const analytic = diffIdx.map((_, k) => Float64Array.from(out[`d${k}`].data as Float64Array));
  const numeric = await centralDifferences(inputs, diffIdx, h, lossAt);
  await session.release();
  return { ...errors(analytic, numeric), analytic, numeric };
}

function feedsOf(inputs: GradCheckInput[], vals: number[][]) {
  return Object.fromEntries(
    inputs.map((inp, i) => [
      `x${i}`,
      inp.dtype === 'int32'
        ? new ort.Tensor('int32', Int32Array.from(vals[i]), inp.shape as number[])
        : new ort.Tensor('float64', Float64Array.from(vals[i]), inp.shape as number[]),
    ]),
  );
}

async function centralDifferences(inputs: GradCheckInput[], diffIdx: number[], h: number, loss: (vals: number[][]) => Promise<number>): Promise<Float64Array[]> {
  const base = inputs.map((i) => i.values);
  const numeric: Float64Array[] = [];
  for (const i of diffIdx) {
    const num = new Float64Array(inputs[i].values.length);
    for (let j = 0; j < num.length; j++) {
      const plus = base.map((v) => [...v]);
      const minus = base.map((v) => [...v]);
      plus[i][j] += h;
      minus[i][j] -= h;
      num[j] = ((await loss(plus)) - (await loss(minus))) / (2 * h);
    }
    numeric.push(num);
  }
  return numeric;
}

function errors(analytic: Float64Array[], numeric: Float64Array[]) {
  let maxAbsErr = 0;
  let maxRelErr = 0;
  analytic.forEach((a, k) =>
    a.forEach((v, j) => {
      const err = Math.abs(v - numeric[k][j]);
      maxAbsErr = Math.max(maxAbsErr, err);
      maxRelErr = Math.max(maxRelErr, err / Math.max(1e-3, Math.abs(numeric[k][j])));
    }),
  );
  return { maxAbsErr, maxRelErr };
}

/** Check d/dx of sum(w ⊙ f(x…)) for random fixed weights w. */
export async function gradCheck(
  inputs: GradCheckInput[],
  f: (...xs: Tensor[]) => Tensor,
  h = 1e-6,
): Promise<GradCheckResult> {
  const g = new Graph('gradcheck');
  const xs = inputs.map((inp, i) => g.input(`x${i}`, inp.dtype ?? 'float64', inp.shape));
  const y = f(...xs);
  const w = g.constant(
    Array.from({ length: numel(y.shape) }, (_, i) => Math.sin(1.7 * i + 0.3) + 0.5),
    'float64',
    y.shape,
  );
  const loss = reduceSum(mul(y, w), y.shape.map((_, i) => i));
  g.output('loss', loss);
  const diffIdx = inputs.map((inp, i) => (inp.constant ? -1 : i)).filter((i) => i >= 0);
  const grads = grad(loss, diffIdx.map((i) => xs[i]));
  grads.forEach((d, k) => g.output(`d${k}`, d));
  const session = await ort.InferenceSession.create(encodeModel(g), { executionProviders: ['wasm'] });

  const base = inputs.map((i) => i.values);
  const out = await session.run(feedsOf(inputs, base));
  const analytic = diffIdx.map((_, k) => Float64Array.from(out[`d${k}`].data as Float64Array));
  const numeric = await centralDifferences(inputs, diffIdx, h, async (vals) => (await session.run(feedsOf(inputs, vals))).loss.data[0] as number);
  await session.release();
  return { ...errors(analytic, numeric), analytic, numeric };
}
