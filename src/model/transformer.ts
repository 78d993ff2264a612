// The policy: a causal pre-LN transformer (token + position embeddings, multi-head attention,
// GELU MLP, final LN, unembedding), written over the graph builder. Both the full-sequence pass
// (score / train) and the one-token KV-cache step (sampling) share the same block pieces.
import { attr, type Tensor } from '../graph/builder';
import { MS_DOMAIN } from '../graph/encode';
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
  // the rows keep x's symbol (R in the full pass), so the bias gradient's row sum shares the graph's ones row
  const r = typeof rows === 'string' ? rows : 'rows';
  const y = op.gemm(op.reshape(x, [r, k]), op.reshape(w, [k, n]), b && op.reshape(b, [n]));
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
  return op.split(qkv, -1, [d, d, d]).map((part) => op.transpose(op.reshape(part, ['S', T, heads, d / heads]), [0, 2, 1, 3]));
}

/** [P·sequences, H, T, dh] → [P, rows, d] (shaped like the residual stream x). */
function mergeHeads(o: Tensor, x: Tensor): Tensor {
  const [, H, , dh] = o.shape as [unknown, number, number, number];
  return op.reshape(op.transpose(o, [0, 2, 1, 3]), [x.shape[0], x.shape[1], H * dh]);
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

/** Keys (transposed: [P·B, H, dh, pos]) and values ([P·B, H, pos, dh]) of the positions decoded so far, per layer. */
export interface KvCache {
  kT: Tensor;
  v: Tensor;
}

/**
 * Each position's decoding table for all positions at once: row v of table t is token v embedded at
 * position t (E = tok_emb + pos_emb[t]) followed by the first layer's query, key and value of it
 * (LN1 and the QKV projection of `w`, from decodeWeights), [P, V, 4d] for t = 0 … count − 1. A
 * one-hot row [P, B, V] times table t is then the embedding AND the first layer's q, k, v of its
 * token, bit for bit (a one-hot row picks a table row exactly; LN and the projection are per row), so
 * decoding pays one LN, one Add and one Gemm per run instead of an LN and a Gemm per position.
 */
export function positionTables(w: Weights, count: number, layout: ParamLayout): Tensor[] {
  const tok = w.get('tok_emb')!; // [P, V, d]
  const pos = w.get('pos_emb')!; // [P, context, d]
  const [P, V, d] = tok.shape as number[];
  const rows = (pos.shape[1] as number) === count ? pos : op.slice(pos, 1, 0, count);
  const embedded = op.reshape(op.add(op.unsqueeze(tok, 1), op.unsqueeze(rows, 2)), [P, count * V, d]);
  const qkv = linear(layerNorm(embedded, w.get('l0.ln1.g')!, w.get('l0.ln1.b')!), w.get('l0.attn.w_qkv')!, w.get('l0.attn.b_qkv')!);
  const tables = op.reshape(op.concat([embedded, qkv], 2), [P, count, V, 4 * layout.shape.dModel]);
  return op.split(tables, 1, new Array<number>(count).fill(1)).map((t) => op.reshape(t, [P, V, 4 * d]));
}

/**
 * The weights decoding reads, prepared once per run for all positions: the query columns of each
 * layer's QKV projection carry the attention scale 1/√dh (one Mul per layer and run instead of one
 * per position), and the unembedding carries 1/temperature (temperature [P, 1, 1]), so a position's
 * logits come out tempered.
 */
export function decodeWeights(w: Weights, layout: ParamLayout, temperature: Tensor): Weights {
  const { layers, heads, dModel: d } = layout.shape;
  const dt = w.get('tok_emb')!.dtype;
  const scale = w.get('tok_emb')!.graph.constant(Array.from({ length: 3 * d }, (_, i) => (i < d ? 1 / Math.sqrt(d / heads) : 1)), dt, [3 * d]);
  const out: Weights = new Map(w);
  for (let l = 0; l < layers; l++) {
    out.set(`l${l}.attn.w_qkv`, op.mul(w.get(`l${l}.attn.w_qkv`)!, scale));
    out.set(`l${l}.attn.b_qkv`, op.mul(w.get(`l${l}.attn.b_qkv`)!, scale));
  }
  out.set('unembed', op.div(w.get('unembed')!, temperature));
  return out;
}

/**
 * x + delta and its LayerNorm. A single policy in float32 does both in ONE kernel (onnxruntime's
 * com.microsoft SkipLayerNormalization, which the WebGPU and WASM EPs both have; inference only: it
 * has no backward rule here and no float64 kernel), otherwise an Add and a LayerNormalization.
 */
function residualNorm(x: Tensor, delta: Tensor, g: Tensor, b: Tensor): { sum: Tensor; normed: Tensor } {
  const d = x.shape[x.rank - 1] as number;
  if (x.shape[0] !== 1 || x.dtype !== 'float32') {
    const sum = op.add(x, delta);
    return { sum, normed: layerNorm(sum, g, b) };
  }
  const row = [...x.shape.slice(0, -1), 1];
  const [normed, , , sum] = x.graph.node(
    'SkipLayerNormalization',
    [delta, x, op.reshape(g, [d]), op.reshape(b, [d])],
    [{ dtype: x.dtype, shape: x.shape }, { dtype: x.dtype, shape: row }, { dtype: x.dtype, shape: row }, { dtype: x.dtype, shape: x.shape }],
    { epsilon: attr.float(op.LAYER_NORM_EPS) },
    undefined,
    MS_DOMAIN,
  );
  return { sum, normed };
}

/**
 * One position of KV-cached decoding: the token's table row [P, B, 4d] (positionTables: its
 * embedding x and the first layer's q, k, v) attends to the cached keys/values of the positions
 * before it and to itself (no mask needed: the cache holds only the past), and the caches grow by
 * one slot. `w` from decodeWeights. Returns the tempered logits [P, B, V] for the next position.
 * Keys are cached transposed (with one position the transpose is a reshape), so the scores need no
 * Transpose per position.
 */
export function decodeStep(w: Weights, row: Tensor, caches: (KvCache | null)[], layout: ParamLayout): { logits: Tensor; caches: KvCache[] } {
  const { heads, dModel: d } = layout.shape;
  const dh = d / heads;
  const [embedded, ...firstQkv] = op.split(row, -1, [d, d, d, d]);
  let x = embedded; // [P, B, d]: rows = sequences
  let qkv = firstQkv;
  let h = x;
  const next: KvCache[] = [];
  caches.forEach((cache, l) => {
    const [q, k, v] = qkv;
    const head = (t: Tensor, shape: number[]) => op.reshape(t, ['S', ...shape]);
    const kT = cache ? op.concat([cache.kT, head(k, [heads, dh, 1])], 3) : head(k, [heads, dh, 1]);
    const vs = cache ? op.concat([cache.v, head(v, [heads, 1, dh])], 2) : head(v, [heads, 1, dh]);
    next.push({ kT, v: vs });
    // the first position attends to itself alone: the softmax of one score is exactly 1, so its
    // output is its own value (bit for bit, without the two MatMuls and the Softmax)
    const attended = cache ? op.matmul(op.softmax(op.matmul(head(q, [heads, 1, dh]), kT), -1), vs) : v; // [S, H, 1, dh]
    const mixed = residualNorm(x, linear(op.reshape(attended, x.shape), w.get(`l${l}.attn.w_o`)!, w.get(`l${l}.attn.b_o`)!), w.get(`l${l}.ln2.g`)!, w.get(`l${l}.ln2.b`)!);
    const mlp = linear(gelu(linear(mixed.normed, w.get(`l${l}.mlp.w_in`)!, w.get(`l${l}.mlp.b_in`)!)), w.get(`l${l}.mlp.w_out`)!, w.get(`l${l}.mlp.b_out`)!);
    const last = l + 1 === caches.length;
    const out = residualNorm(mixed.sum, mlp, w.get(`${last ? 'ln_f' : `l${l + 1}.ln1`}.g`)!, w.get(`${last ? 'ln_f' : `l${l + 1}.ln1`}.b`)!);
    x = out.sum;
    h = out.normed;
    if (!last) qkv = op.split(linear(h, w.get(`l${l + 1}.attn.w_qkv`)!, w.get(`l${l + 1}.attn.b_qkv`)!), -1, [d, d, d]);
  });
  return { logits: linear(h, w.get('unembed')!), caches: next };
}
