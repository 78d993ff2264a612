// The policy: a causal pre-LN transformer (token + position embeddings, multi-head attention,
// GELU MLP, final LN, unembedding), written over the graph builder. Both the full-sequence pass
// (score / train) and the one-token KV-cache step (sampling) share the same block pieces.
import type { Tensor } from '../graph/builder';
import * as op from '../graph/ops';
import type { ParamLayout } from './layout';

export type Weights = Map<string, Tensor>;

// Population layout: every graph carries P independent policies. Parameters are [P, N]; each
// weight is [P, ...shape] (vectors [P, 1, size], ready to broadcast over rows); activations are
// [P, rows, d] (rows = batch × positions) so every linear layer is ONE batched MatMul over the
// members, and attention runs over the P·B sequences at once.

/** Cut the flat parameter matrix [P, N] into named, shaped weights [P, ...]: ONE Split (one kernel,
 *  where a Slice per weight was one kernel each), so its gradient is one Concat of the parts'. */
export function sliceParams(params: Tensor, layout: ParamLayout): Weights {
  const P = params.shape[0] as number;
  const w: Weights = new Map();
  const parts = op.split(params, 1, layout.params.map((p) => p.size));
  layout.params.forEach((p, i) => w.set(p.name, op.reshape(parts[i], p.shape.length === 1 ? [P, 1, p.size] : [P, ...p.shape])));
  return w;
}

/** Embedding rows of each member's own table: table [P, V, d], ids int32 [P, ...] → [P, ..., d]. */
function embed(table: Tensor, ids: Tensor): Tensor {
  const [P, V, d] = table.shape as number[];
  if (P === 1) return op.gather(op.reshape(table, [V, d]), ids);
  const offsets = ids.graph.constant(Array.from({ length: P }, (_, p) => p * V), 'int32', [P, ...ids.shape.slice(1).map(() => 1)]);
  return op.gather(op.reshape(table, [P * V, d]), op.add(ids, offsets), { groups: P, local: ids });
}

const layerNorm = op.layerNorm;

// GELU, tanh form: Tanh has double kernels in ORT (Erf does not), so the whole model can be
// gradient-checked in float64.
const gelu = (x: Tensor) =>
  op.mul(op.mul(x, 0.5), op.add(op.tanh(op.mul(op.add(x, op.mul(op.pow(x, 3), 0.044715)), Math.sqrt(2 / Math.PI))), 1));
/**
 * x [P, R, k] · w [P, k, n] (+ b [P, 1, n]): one batched MatMul for all members. A single policy
 * (P = 1) is one Gemm instead, product and bias in one kernel and a backward without Transposes.
 */
function linear(x: Tensor, w: Tensor, b?: Tensor): Tensor {
  const [P, rows] = x.shape;
  const [k, n] = w.shape.slice(1) as number[];
  if (P !== 1) return b ? op.add(op.matmul(x, w), b) : op.matmul(x, w);
  const y = op.gemm(op.reshape(x, ['rows', k]), op.reshape(w, [k, n]), b && op.reshape(b, [n]));
  return op.reshape(y, [1, rows, n]);
}

function mlpBlock(x: Tensor, w: Weights, l: number): Tensor {
  const h = layerNorm(x, w.get(`l${l}.ln2.g`)!, w.get(`l${l}.ln2.b`)!);
  const inner = gelu(linear(h, w.get(`l${l}.mlp.w_in`)!, w.get(`l${l}.mlp.b_in`)!));
  return op.add(x, linear(inner, w.get(`l${l}.mlp.w_out`)!, w.get(`l${l}.mlp.b_out`)!));
}

/** [P, R, 3d] with R = sequences × T → q, k, v as [P·sequences, H, T, dh]. */
function splitHeads(qkv: Tensor, heads: number, T: number): Tensor[] {
  const d = (qkv.shape[2] as number) / 3;
  return op.split(qkv, -1, [d, d, d]).map((part) => {
    // with one position the head transpose is a pure reshape (saves a copy per decode step)
    if (T === 1) return op.reshape(part, ['S', heads, 1, d / heads]);
    return op.transpose(op.reshape(part, ['S', T, heads, d / heads]), [0, 2, 1, 3]);
  });
}

/** [P·sequences, H, T, dh] → [P, rows, d] (shaped like the residual stream x). */
function mergeHeads(o: Tensor, x: Tensor): Tensor {
  const [, H, T, dh] = o.shape as [unknown, number, number, number];
  const shape = [x.shape[0], x.shape[1], H * dh];
  if (T === 1) return op.reshape(o, shape);
  return op.reshape(op.transpose(o, [0, 2, 1, 3]), shape);
}

function attend(q: Tensor, k: Tensor, v: Tensor, bias?: Tensor): Tensor {
  const dh = q.shape[3] as number;
  const scaled = op.mul(op.matmul(q, op.swapLast(k)), 1 / Math.sqrt(dh));
  return op.matmul(op.softmax(bias ? op.add(scaled, bias) : scaled, -1), v);
}

function finalLogits(x: Tensor, w: Weights): Tensor {
  return linear(layerNorm(x, w.get('ln_f.g')!, w.get('ln_f.b')!), w.get('unembed')!);
}

/** Full causal pass over the first L positions: tokens [P, B, L] (int32) → logits [P, B, L, V]. */
export function forward(w: Weights, tokens: Tensor, layout: ParamLayout): Tensor {
  const { context, layers, heads, vocab, dModel: d } = layout.shape;
  const [P, , L] = tokens.shape as [number, unknown, number];
  const dt = w.get('tok_emb')!.dtype;
  const causal = tokens.graph.constant(
    Array.from({ length: L * L }, (_, i) => (i % L > Math.floor(i / L) ? -1e9 : 0)),
    dt,
    [L, L],
  );
  const pos = w.get('pos_emb')!; // [P, context, d]
  const positions = op.unsqueeze(L === context ? pos : op.slice(pos, 1, 0, L), 1); // [P, 1, L, d]
  let x = op.reshape(op.add(embed(w.get('tok_emb')!, tokens), positions), [P, 'R', d]);
  for (let l = 0; l < layers; l++) {
    const h = layerNorm(x, w.get(`l${l}.ln1.g`)!, w.get(`l${l}.ln1.b`)!);
    const [q, k, v] = splitHeads(linear(h, w.get(`l${l}.attn.w_qkv`)!, w.get(`l${l}.attn.b_qkv`)!), heads, L);
    x = op.add(x, linear(mergeHeads(attend(q, k, v, causal), x), w.get(`l${l}.attn.w_o`)!, w.get(`l${l}.attn.b_o`)!));
    x = mlpBlock(x, w, l);
  }
  return op.reshape(finalLogits(x, w), [P, tokens.shape[1], L, vocab]);
}

/** Keys and values of the positions decoded so far, [P·B, H, pos, dh] per layer. */
export interface KvCache {
  k: Tensor;
  v: Tensor;
}

/**
 * Each position's embedding table for decoding: E[t] = tok_emb + pos_emb[t], [P, V, d] for t = 0 …
 * count − 1 (one Add and one Split for all positions). A one-hot row [P, B, V] times E[t] is the
 * embedding of its token at position t, bit for bit (tok_emb[id] + pos_emb[t], plus exact zeros).
 */
export function positionTables(w: Weights, count: number): Tensor[] {
  const tok = w.get('tok_emb')!; // [P, V, d]
  const pos = w.get('pos_emb')!; // [P, context, d]
  const [P, V, d] = tok.shape as number[];
  const rows = (pos.shape[1] as number) === count ? pos : op.slice(pos, 1, 0, count);
  const tables = op.add(op.unsqueeze(tok, 1), op.unsqueeze(rows, 2)); // [P, count, V, d]
  return op.split(tables, 1, new Array<number>(count).fill(1)).map((t) => op.reshape(t, [P, V, d]));
}

/**
 * One position of KV-cached decoding: the embedded token x [P, B, d] (positionTables) attends to
 * the cached keys/values of the positions before it and to itself (no mask needed: the cache holds
 * only the past), and the caches grow by one slot. Returns logits [P, B, V] for the next position.
 */
export function decodeStep(
  w: Weights,
  embedded: Tensor,
  caches: (KvCache | null)[],
  layout: ParamLayout,
): { logits: Tensor; caches: KvCache[] } {
  let x = embedded; // [P, B, d]: rows = sequences
  const next: KvCache[] = [];
  caches.forEach((cache, l) => {
    const h = layerNorm(x, w.get(`l${l}.ln1.g`)!, w.get(`l${l}.ln1.b`)!);
    const [q, k, v] = splitHeads(linear(h, w.get(`l${l}.attn.w_qkv`)!, w.get(`l${l}.attn.b_qkv`)!), layout.shape.heads, 1);
    const grown = cache ? { k: op.concat([cache.k, k], 2), v: op.concat([cache.v, v], 2) } : { k, v };
    next.push(grown);
    x = op.add(x, linear(mergeHeads(attend(q, grown.k, grown.v), x), w.get(`l${l}.attn.w_o`)!, w.get(`l${l}.attn.b_o`)!));
    x = mlpBlock(x, w, l);
  });
  return { logits: finalLogits(x, w), caches: next };
}
