// Elementwise ops with numpy broadcasting; forward and backward side by side.
import { broadcastShapes, type DType, type Tensor } from '../builder';
import { defineGrad, type GradThunk } from './rules';
import { reduceSumTo } from './shape';

function unary(op: string, x: Tensor, attrs = {}): Tensor {
  return x.graph.node(op, [x], [{ dtype: x.dtype, shape: x.shape }], attrs)[0];
}

function binary(op: string, a: Tensor, b: Tensor, outDtype?: DType): Tensor {
  if (a.dtype !== b.dtype) throw new Error(`${op}: dtype mismatch ${a.dtype} vs ${b.dtype}`);
  return a.graph.node(op, [a, b], [{ dtype: outDtype ?? a.dtype, shape: broadcastShapes(a.shape, b.shape) }])[0];
}

/** A number becomes a scalar constant of the other operand's dtype. */
type Operand = Tensor | number;
function pair(a: Operand, b: Operand): [Tensor, Tensor] {
  if (typeof a === 'number' && typeof b === 'number') throw new Error('at least one operand must be a tensor');
  const ta = typeof a === 'number' ? (b as Tensor).graph.scalar(a, (b as Tensor).dtype) : a;
  const tb = typeof b === 'number' ? ta.graph.scalar(b, ta.dtype) : b;
  return [ta, tb];
}

export const add = (a: Operand, b: Operand) => binary('Add', ...pair(a, b));
export const sub = (a: Operand, b: Operand) => binary('Sub', ...pair(a, b));
export const mul = (a: Operand, b: Operand) => binary('Mul', ...pair(a, b));
export const div = (a: Operand, b: Operand) => binary('Div', ...pair(a, b));
export const min2 = (a: Operand, b: Operand) => binary('Min', ...pair(a, b));
export const max2 = (a: Operand, b: Operand) => binary('Max', ...pair(a, b));
export const equal = (a: Operand, b: Operand) => binary('Equal', ...pair(a, b), 'bool');
export const less = (a: Operand, b: Operand) => binary('Less', ...pair(a, b), 'bool');
export const greater = (a: Operand, b: Operand) => binary('Greater', ...pair(a, b), 'bool');
export const and = (a: Tensor, b: Tensor) => binary('And', a, b, 'bool');
/** x ** p for a constant exponent p. */
export const pow = (x: Tensor, p: number) => binary('Pow', x, x.graph.scalar(p, x.dtype));

export const neg = (x: Tensor) => unary('Neg', x);
export const exp = (x: Tensor) => unary('Exp', x);
export const log = (x: Tensor) => unary('Log', x);
export const sqrt = (x: Tensor) => unary('Sqrt', x);
export const tanh = (x: Tensor) => unary('Tanh', x);
export const abs = (x: Tensor) => unary('Abs', x);
/** Round down to an integer (no gradient: used for inverse-CDF sampling). */
export const floor = (x: Tensor) => unary('Floor', x);
/** Identity in the forward pass, zero gradient in the backward pass. */
export const stopGradient = (x: Tensor) => x.graph.node('Identity', [x], [{ dtype: x.dtype, shape: x.shape }], {}, { stop: true })[0];

export function cast(x: Tensor, to: DType): Tensor {
  const code = { float32: 1, int32: 6, int64: 7, bool: 9, float64: 11 }[to];
  return x.graph.node('Cast', [x], [{ dtype: to, shape: x.shape }], { to: { kind: 'int', value: code } })[0];
}

/** Clip x to [lo, hi] (scalar tensors or numbers). */
export function clip(x: Tensor, lo: Operand, hi: Operand): Tensor {
  const [, tlo] = pair(x, lo);
  const [, thi] = pair(x, hi);
  return x.graph.node('Clip', [x, tlo, thi], [{ dtype: x.dtype, shape: x.shape }])[0];
}

export function where(cond: Tensor, a: Operand, b: Operand): Tensor {
  const [ta, tb] = pair(a, b);
  const shape = broadcastShapes(cond.shape, broadcastShapes(ta.shape, tb.shape));
  return cond.graph.node('Where', [cond, ta, tb], [{ dtype: ta.dtype, shape }])[0];
}

/** Boolean → float of x's dtype (1 where true). */
export const mask = (cond: Tensor, like: Tensor) => cast(cond, like.dtype);

// ---- backward rules (each input's gradient is built only when that input needs one) ----
const sameShape = (d: Tensor, t: Tensor) => reduceSumTo(d, t.shape);

defineGrad('Add', ({ inputs: [a, b] }, [dy]) => [() => sameShape(dy, a), () => sameShape(dy, b)]);
defineGrad('Sub', ({ inputs: [a, b] }, [dy]) => [() => sameShape(dy, a), () => sameShape(neg(dy), b)]);
defineGrad('Mul', ({ inputs: [a, b] }, [dy]) => [() => sameShape(mul(dy, b), a), () => sameShape(mul(dy, a), b)]);
defineGrad('Div', ({ inputs: [a, b], outputs: [y] }, [dy]) => [
  () => sameShape(div(dy, b), a),
  () => sameShape(neg(mul(div(dy, b), y)), b),
]);
defineGrad('Pow', ({ inputs: [x, p] }, [dy]) => [() => mul(dy, mul(p, binary('Pow', x, sub(p, 1)))), null]);
defineGrad('Neg', (_n, [dy]) => [() => neg(dy)]);
defineGrad('Exp', ({ outputs: [y] }, [dy]) => [() => mul(dy, y)]);
defineGrad('Log', ({ inputs: [x] }, [dy]) => [() => div(dy, x)]);
defineGrad('Sqrt', ({ outputs: [y] }, [dy]) => [() => div(mul(dy, 0.5), y)]);
defineGrad('Tanh', ({ outputs: [y] }, [dy]) => [() => mul(dy, sub(1, mul(y, y)))]);
defineGrad('Abs', ({ inputs: [x] }, [dy]) => [() => mul(dy, sub(mask(greater(x, 0), x), mask(less(x, 0), x)))]);
defineGrad('Identity', (node, [dy]) => [node.meta?.stop ? null : () => dy]);
defineGrad('Cast', ({ inputs: [x], outputs: [y] }, [dy]) => [x.isFloat && y.isFloat ? () => cast(dy, x.dtype) : null]);
defineGrad('Min', ({ inputs: [a, b] }, [dy]) => minMaxGrad(a, b, dy, less));
defineGrad('Max', ({ inputs: [a, b] }, [dy]) => minMaxGrad(a, b, dy, greater));
defineGrad('Clip', ({ inputs: [x], outputs: [y] }, [dy]) => [
  // Gradient passes where lo ≤ x ≤ hi (inclusive, like most frameworks): where clip(x) = x.
  () => where(equal(y, x), dy, 0),
  null,
  null,
]);
defineGrad('Where', ({ inputs: [c, a, b] }, [dy]) => [
  null,
  () => sameShape(where(c, dy, 0), a),
  () => sameShape(where(c, 0, dy), b),
]);

/**
 * The selected operand gets the gradient and exact ties split it evenly: a's share is dy where a
 * wins (`wins(a, b)`: a > b for Max, a < b for Min), dy / 2 at a tie, else 0; b's is the rest
 * (dy − a's share: exact, as both shares are dy, dy / 2 or 0). Five kernels for a, one more for b.
 */
function minMaxGrad(a: Tensor, b: Tensor, dy: Tensor, wins: (p: Tensor, q: Tensor) => Tensor): GradThunk[] {
  let share: Tensor | undefined;
  const ofA = () => (share ??= where(equal(a, b), mul(dy, 0.5), where(wins(a, b), dy, 0)));
  return [() => sameShape(ofA(), a), () => sameShape(sub(dy, ofA()), b)];
}
