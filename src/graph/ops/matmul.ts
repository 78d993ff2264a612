// MatMul: [..., m, k] · [k, n] (a shared weight) or batched with identical batch dims.
import { attr, type Tensor } from '../builder';
import { defineGrad } from './rules';
import { reduceSumTo, reshape, transpose } from './shape';

export function matmul(a: Tensor, b: Tensor): Tensor {
  if (a.dtype !== b.dtype) throw new Error(`MatMul: dtype mismatch ${a.dtype} vs ${b.dtype}`);
  if (a.rank < 2 || b.rank < 2) throw new Error('MatMul takes rank ≥ 2 operands');
  const k = a.shape[a.rank - 1];
  if (k !== b.shape[b.rank - 2]) throw new Error(`MatMul: inner dims differ [${a.shape}]·[${b.shape}]`);
  if (b.rank > 2 && (b.rank !== a.rank || b.shape.slice(0, -2).some((d, i) => d !== a.shape[i])))
    throw new Error(`MatMul: batched operands need identical batch dims [${a.shape}]·[${b.shape}]`);
  const shape = [...a.shape.slice(0, -1), b.shape[b.rank - 1]];
  return a.graph.node('MatMul', [a, b], [{ dtype: a.dtype, shape }])[0];
}

/** Swap the last two axes. */
export function swapLast(x: Tensor): Tensor {
  const perm = x.shape.map((_, i) => i);
  [perm[x.rank - 2], perm[x.rank - 1]] = [perm[x.rank - 1], perm[x.rank - 2]];
  return transpose(x, perm);
}

defineGrad('MatMul', ({ inputs: [a, b] }, [dy]) => [
  () => matmul(dy, swapLast(b)),
  () => {
    if (b.rank === a.rank) return matmul(swapLast(a), dy);
    // b is a weight shared across a's batch dims: flatten them into the rows.
    const [k, n] = b.shape as number[];
    return matmul(transpose(reshape(a, ['rows', k]), [1, 0]), reshape(dy, ['rows', n]));
  },
]);

export interface GemmOptions {
  transA?: boolean;
  transB?: boolean;
  /** y = alpha · op(a)·op(b) + beta · c (default 1, 1); only unscaled Gemms have a backward here. */
  alpha?: number;
  beta?: number;
}

/**
 * Gemm: op(a) · op(b) (+ c, broadcast to the result), a and b 2-D, op = transpose where asked. One
 * kernel for a linear layer's product and bias, and a backward without Transpose nodes (the
 * transposes are Gemm's own flags).
 */
export function gemm(a: Tensor, b: Tensor, c?: Tensor, o: GemmOptions = {}): Tensor {
  if (a.dtype !== b.dtype || (c && c.dtype !== a.dtype)) throw new Error('Gemm: dtype mismatch');
  if (a.rank !== 2 || b.rank !== 2) throw new Error(`Gemm takes 2-D operands, got [${a.shape}]·[${b.shape}]`);
  const [m, k] = o.transA ? [a.shape[1], a.shape[0]] : a.shape;
  const [k2, n] = o.transB ? [b.shape[1], b.shape[0]] : b.shape;
  if (k !== k2) throw new Error(`Gemm: inner dims differ [${a.shape}]·[${b.shape}]`);
  const attrs = {
    transA: attr.int(o.transA ? 1 : 0),
    transB: attr.int(o.transB ? 1 : 0),
    ...(o.alpha !== undefined && o.alpha !== 1 ? { alpha: attr.float(o.alpha) } : {}),
    ...(o.beta !== undefined && o.beta !== 1 ? { beta: attr.float(o.beta) } : {}),
  };
  return a.graph.node('Gemm', c ? [a, b, c] : [a, b], [{ dtype: a.dtype, shape: [m, n] }], attrs)[0];
}

const flag = (n: { attrs: Record<string, unknown> }, k: string) => (n.attrs[k] as { value: number }).value === 1;

defineGrad('Gemm', (n, [dy]) => {
  if (n.attrs.alpha || n.attrs.beta) throw new Error('no backward rule for a scaled Gemm (alpha, beta)');
  const [a, b, c] = n.inputs;
  const tA = flag(n, 'transA');
  const tB = flag(n, 'transB');
  // y = op(a)·op(b): d op(a) = dy·op(b)ᵀ, d op(b) = op(a)ᵀ·dy, each written as one Gemm in a's / b's own layout
  const dA = () => (tA ? gemm(b, dy, undefined, { transA: tB, transB: true }) : gemm(dy, b, undefined, { transB: !tB }));
  const dB = () => (tB ? gemm(dy, a, undefined, { transA: true, transB: tA }) : gemm(a, dy, undefined, { transA: !tA }));
  return c ? [dA, dB, () => reduceSumTo(dy, c.shape)] : [dA, dB];
});
