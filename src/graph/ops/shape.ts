// Shape ops (reshape, transpose, slice, concat, gather, unsqueeze, expand); forward and backward.
import { attr, type Dim, type Shape, type Tensor } from '../builder';
import { defineGrad } from './rules';
import { cast, equal, mul } from './elementwise';
import { gemm, matmul } from './matmul';
import { reduceSum } from './reduce';

const normAxis = (axis: number, rank: number) => (axis < 0 ? axis + rank : axis);

/** The runtime shape of x as an int64 vector. */
export const shapeOf = (x: Tensor) => x.graph.node('Shape', [x], [{ dtype: 'int64', shape: [x.rank] }])[0];

/** Reshape to `shape`; a string dim is symbolic (inferred, at most one unless `like` is given). */
export function reshape(x: Tensor, shape: Shape, like?: Tensor): Tensor {
  const symbolic = shape.filter((d) => typeof d === 'string').length;
  let target: Tensor;
  if (like) target = shapeOf(like);
  else if (symbolic <= 1) target = x.graph.int64s(shape.map((d) => (typeof d === 'number' ? d : -1)));
  else throw new Error(`reshape to [${shape}] has several symbolic dims: pass a tensor of that shape`);
  return x.graph.node('Reshape', [x, target], [{ dtype: x.dtype, shape }])[0];
}

export function transpose(x: Tensor, perm: number[]): Tensor {
  const shape = perm.map((p) => x.shape[p]);
  return x.graph.node('Transpose', [x], [{ dtype: x.dtype, shape }], { perm: attr.ints(perm) })[0];
}

/** x[..., start:end, ...] along one axis with a static size. */
export function slice(x: Tensor, axis: number, start: number, end: number): Tensor {
  const ax = normAxis(axis, x.rank);
  const size = x.shape[ax];
  if (typeof size !== 'number') throw new Error('slice needs a static axis');
  if (start < 0 || end > size || start >= end) throw new Error(`slice [${start}, ${end}) out of axis size ${size}`);
  const shape = x.shape.map((d, i) => (i === ax ? end - start : d));
  const g = x.graph;
  return g.node('Slice', [x, g.int64s([start]), g.int64s([end]), g.int64s([ax])], [{ dtype: x.dtype, shape }])[0];
}

/**
 * The most parts one Split node makes. onnxruntime's WebGPU EP writes every part from one shader,
 * and a shader may bind 8 storage buffers (WebGPU's default limit): the input and 7 parts.
 */
export const MAX_SPLIT_PARTS = 7;

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** Split one static axis into consecutive parts of the given sizes: one Split node (one kernel)
 *  for up to MAX_SPLIT_PARTS parts, a tree of them for more. */
export function split(x: Tensor, axis: number, sizes: number[]): Tensor[] {
  const ax = normAxis(axis, x.rank);
  if (sum(sizes) !== x.shape[ax]) throw new Error(`split sizes [${sizes}] do not cover axis size ${x.shape[ax]}`);
  if (sizes.length > MAX_SPLIT_PARTS) {
    // groups of 7 parts: 8 parts cost 2 kernels, 17 cost 4 (more than 7 groups: the groups are split by a tree too)
    const per = MAX_SPLIT_PARTS;
    const groups = Array.from({ length: Math.ceil(sizes.length / per) }, (_, i) => sizes.slice(i * per, (i + 1) * per));
    const chunks = split(x, ax, groups.map(sum));
    return groups.flatMap((g, i) => (g.length === 1 ? [chunks[i]] : split(chunks[i], ax, g)));
  }
  const outs = sizes.map((n) => ({ dtype: x.dtype, shape: x.shape.map((d, i) => (i === ax ? n : d)) }));
  return x.graph.node('Split', [x, x.graph.int64s(sizes)], outs, { axis: attr.int(ax) });
}

export function concat(xs: Tensor[], axis: number): Tensor {
  const ax = normAxis(axis, xs[0].rank);
  const dims = xs.map((t) => t.shape[ax]);
  // a symbolic part makes a symbolic total (forward only: the backward rule needs static sizes)
  const total = dims.every((d) => typeof d === 'number') ? (dims as number[]).reduce((a, d) => a + d, 0) : dims.join('+');
  const shape = xs[0].shape.map((d, i) => (i === ax ? total : d));
  return xs[0].graph.node('Concat', xs, [{ dtype: xs[0].dtype, shape }], { axis: attr.int(ax) })[0];
}

/**
 * Rows of a [V, d] table picked by integer indices: the embedding lookup. `groups`: the table is G
 * stacked [V/G, d] tables and indices[g, ...] = local[g, ...] + g·V/G pick from table g only (a
 * population's embeddings); the backward then builds a one-hot of V/G columns per group, not of V.
 */
export function gather(table: Tensor, indices: Tensor, groups?: { groups: number; local: Tensor }): Tensor {
  if (table.rank !== 2) throw new Error('gather takes a [V, d] table');
  const shape = [...indices.shape, table.shape[1]];
  return table.graph.node('Gather', [table, indices], [{ dtype: table.dtype, shape }], { axis: attr.int(0) }, groups)[0];
}

export function unsqueeze(x: Tensor, axis: number): Tensor {
  const ax = normAxis(axis, x.rank + 1);
  const shape: Dim[] = [...x.shape];
  shape.splice(ax, 0, 1);
  return x.graph.node('Unsqueeze', [x, x.graph.int64s([ax])], [{ dtype: x.dtype, shape }])[0];
}

/**
 * Equal-based one-hot of int32 ids over a new last axis (OneHot falls back to CPU on WebGPU), made
 * once per graph for the same ids, depth and dtype: the embedding's backward reuses the predicted
 * tokens' one-hot (two kernels fewer per train step).
 */
export function oneHot(ids: Tensor, depth: number, dtype: Tensor['dtype']): Tensor {
  return ids.graph.memo(`onehot:${ids.name}:${depth}:${dtype}`, () => {
    const range = ids.graph.constant(Array.from({ length: depth }, (_, i) => i), ids.dtype, [depth]);
    return cast(equal(unsqueeze(ids, -1), range), dtype);
  });
}

/** Broadcast x up to the runtime shape of `like`. */
export function expandAs(x: Tensor, like: Tensor): Tensor {
  return x.graph.node('Expand', [x, shapeOf(like)], [{ dtype: x.dtype, shape: like.shape }])[0];
}

/** Sum a broadcast result back down to `shape` (the gradient of broadcasting). */
export function reduceSumTo(dy: Tensor, shape: Shape): Tensor {
  const lead = dy.rank - shape.length;
  const axes: number[] = [];
  for (let i = 0; i < dy.rank; i++) {
    const want = i < lead ? undefined : shape[i - lead];
    if (want === undefined || (want === 1 && dy.shape[i] !== 1)) axes.push(i);
  }
  if (axes.length === 0) return dy;
  const rows = symbolicRows(dy, axes);
  if (rows !== undefined) return reshape(sumRows(dy, rows), shape);
  const summed = reduceSum(dy, axes, true);
  return lead > 0 ? reshape(summed, shape) : summed;
}

/**
 * The symbolic row count where `axes` are all of dy's axes but the last and all of them but one are
 * 1 (a bias, LayerNorm scale / shift gradient of one policy: [1, R, n] or [R, n] → n), else undefined.
 */
function symbolicRows(dy: Tensor, axes: number[]): string | undefined {
  const last = dy.rank - 1;
  if (!dy.isFloat || axes.length !== last || axes.some((a, i) => a !== i) || typeof dy.shape[last] !== 'number') return undefined;
  const lead = dy.shape.slice(0, last).filter((d) => d !== 1);
  return lead.length === 1 && typeof lead[0] === 'string' ? lead[0] : undefined;
}

/**
 * Σ over the rows of dy [.., R, n] as ONE Gemm with a ones row [1, R], made once per graph and row
 * symbol (one Expand): onnxruntime's WebGPU reduce transposes a sum over a non-innermost axis first
 * (two kernels per sum). On WASM the Gemm adds the rows in order, as ReduceSum does: the same sums
 * bit for bit (rows 32–1,024, widths 16–256 checked), so the pretraining reproduces its checkpoints.
 */
function sumRows(dy: Tensor, rows: string): Tensor {
  const n = dy.shape[dy.rank - 1] as number;
  const g = dy.graph;
  const ones = g.memo(`ones:${rows}:${dy.dtype}`, () => {
    const count = g.node('Shape', [dy], [{ dtype: 'int64', shape: [1] }], { start: attr.int(dy.shape.indexOf(rows)), end: attr.int(dy.shape.indexOf(rows) + 1) })[0];
    return g.node('Expand', [g.constant([1], dy.dtype, [1, 1]), count], [{ dtype: dy.dtype, shape: [1, rows] }])[0];
  });
  return gemm(ones, reshape(dy, [rows, n]));
}

// ---- backward rules ----
const reshapeBack = (dy: Tensor, x: Tensor) =>
  reshape(dy, x.shape, x.shape.filter((d) => typeof d === 'string').length > 1 ? x : undefined);
const constInt = (t: Tensor) => Number(t.graph.initializers.find((i) => i.tensor === t)!.data[0]);

defineGrad('Reshape', ({ inputs: [x] }, [dy]) => [() => reshapeBack(dy, x), null]);
defineGrad('Unsqueeze', ({ inputs: [x] }, [dy]) => [() => reshapeBack(dy, x), null]);
defineGrad('Transpose', ({ attrs }, [dy]) => {
  const perm = (attrs.perm as { value: number[] }).value;
  return [() => transpose(dy, perm.map((_, i) => perm.indexOf(i)))];
});
defineGrad('Slice', ({ inputs: [x, starts, , axes], outputs: [y] }, [dy]) => [
  () => {
    // zero-pad the slice back to the input's extent along its axis
    const a = constInt(axes);
    const start = constInt(starts);
    const pads = new Array(2 * x.rank).fill(0);
    pads[a] = start;
    pads[x.rank + a] = (x.shape[a] as number) - start - (y.shape[a] as number);
    return x.graph.node('Pad', [dy, x.graph.int64s(pads)], [{ dtype: dy.dtype, shape: x.shape }])[0];
  },
  null,
  null,
  null,
]);
defineGrad('Concat', ({ inputs, attrs }, [dy]) => {
  const ax = (attrs.axis as { value: number }).value;
  let offset = 0;
  return inputs.map((t) => {
    if (typeof t.shape[ax] !== 'number') throw new Error('the gradient of concat needs a static axis');
    const start = offset;
    offset += t.shape[ax] as number;
    return () => slice(dy, ax, start, start + (t.shape[ax] as number));
  });
});
defineGrad('Split', ({ inputs: [x], outputs, attrs }, dOut) => [
  // parts that received no gradient come back as zeros of their shape
  () => concat(dOut.map((d, i) => (d.rank === outputs[i].rank ? d : mul(outputs[i], 0))), (attrs.axis as { value: number }).value),
  null,
]);
defineGrad('Gather', ({ inputs: [table, indices], meta }, [dy]) => [
  () => {
    if (meta) {
      // per group: d table_g = onehot(local_g)ᵀ · dy_g, one batched MatMul over the groups
      const { groups: G, local } = meta as { groups: number; local: Tensor };
      const [rows, width] = table.shape as number[];
      const V = rows / G;
      const onehot = reshape(oneHot(local, V, table.dtype), [G, 'N', V]);
      return reshape(matmul(transpose(onehot, [0, 2, 1]), reshape(dy, [G, 'N', width])), [rows, width]);
    }
    // d table = onehot(indices)ᵀ · dy: one Gemm with transA (no Transpose kernel)
    const [vocab, width] = table.shape as number[];
    return gemm(reshape(oneHot(indices, vocab, table.dtype), ['N', vocab]), reshape(dy, ['N', width]), undefined, { transA: true });
  },
  null,
]);
defineGrad('Expand', ({ inputs: [x] }, [dy]) => [() => reduceSumTo(dy, x.shape), null]);
