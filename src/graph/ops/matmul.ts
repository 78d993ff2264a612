// MatMul: [..., m, k] · [k, n] (a shared weight) or batched with identical batch dims.
import type { Tensor } from '../builder';
import { defineGrad } from './rules';
import { reshape, transpose } from './shape';

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
