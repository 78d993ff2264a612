// The policy: a causal pre-LN transformer (token + position embeddings, multi-head attention,
// GELU MLP, final LN, unembedding), written over the graph builder. Both the full-sequence pass
// (score / train) and the one-token KV-cache step (sampling) share the same block pieces.
import type { Dim, Tensor } from '../graph/builder';
import * as op from '../graph/ops';
import type { ParamLayout } from './layout';

export type Weights = Map<string, Tensor>;

/** Cut the flat parameter vector into named, shaped weights. */
export function sliceParams(params: Tensor, layout: ParamLayout): Weights {
  const w: Weights = new Map();
  for (const p of layout.params) {
    const flat = op.slice(params, 0, p.offset, p.offset + p.size);
    w.set(p.name, p.shape.length === 1 ? flat : op.reshape(flat, p.shape));
  }
  return w;
}

function layerNorm(x: Tensor, g: Tensor, b: Tensor): Tensor {
  const centered = op.sub(x, op.reduceMean(x, [-1], true));
  const variance = op.reduceMean(op.mul(centered, centered), [-1], true);
  return op.add(op.mul(op.div(centered, op.sqrt(op.add(variance, 1e-5))), g), b);
}

// GELU, tanh form: Tanh has double kernels in ORT (Erf does not), so the whole model can be
// gradient-checked in float64.
const gelu = (x: Tensor) =>
  op.mul(op.mul(x, 0.5), op.add(op.tanh(op.mul(op.add(x, op.mul(op.pow(x, 3), 0.044715)), Math.sqrt(2 / Math.PI))), 1));
const linear = (x: Tensor, w: Tensor, b: Tensor) => op.add(op.matmul(x, w), b);

function mlpBlock(x: Tensor, w: Weights, l: number): Tensor {
  const h = layerNorm(x, w.get(`l${l}.ln2.g`)!, w.get(`l${l}.ln2.b`)!);
  const inner = gelu(linear(h, w.get(`l${l}.mlp.w_in`)!, w.get(`l${l}.mlp.b_in`)!));
  return op.add(x, linear(inner, w.get(`l${l}.mlp.w_out`)!, w.get(`l${l}.mlp.b_out`)!));
}

/** [B, T, 3d] → q, k, v as [B, H, T, dh]. */
function splitHeads(qkv: Tensor, heads: number): Tensor[] {
  const [batch, T, d3] = qkv.shape as [Dim, number, number];
  const d = d3 / 3;
  return op.split(qkv, -1, [d, d, d]).map((part) => {
    // with one position the head transpose is a pure reshape (saves a copy per decode step)
    if (T === 1) return op.reshape(part, [batch, heads, 1, d / heads]);
    return op.transpose(op.reshape(part, [batch, T, heads, d / heads]), [0, 2, 1, 3]);
  });
}

/** [B, H, T, dh] → [B, T, d]. */
function mergeHeads(o: Tensor): Tensor {
  const [batch, H, T, dh] = o.shape as [Dim, number, number, number];
  if (T === 1) return op.reshape(o, [batch, 1, H * dh]);
  return op.reshape(op.transpose(o, [0, 2, 1, 3]), [batch, T, H * dh]);
}

function attend(q: Tensor, k: Tensor, v: Tensor, bias?: Tensor): Tensor {
  const dh = q.shape[3] as number;
  const scaled = op.mul(op.matmul(q, op.swapLast(k)), 1 / Math.sqrt(dh));
  return op.matmul(op.softmax(bias ? op.add(scaled, bias) : scaled, -1), v);
}

function finalLogits(x: Tensor, w: Weights): Tensor {
  return op.matmul(layerNorm(x, w.get('ln_f.g')!, w.get('ln_f.b')!), w.get('unembed')!);
}

/** Full causal pass over the first L positions: tokens [B, L] (int32) → logits [B, L, V]. */
export function forward(w: Weights, tokens: Tensor, layout: ParamLayout): Tensor {
  const { context, layers, heads } = layout.shape;
  const L = tokens.shape[1] as number;
  const dt = w.get('tok_emb')!.dtype;
  const causal = tokens.graph.constant(
    Array.from({ length: L * L }, (_, i) => (i % L > Math.floor(i / L) ? -1e9 : 0)),
    dt,
    [L, L],
  );
  const positions = L === context ? w.get('pos_emb')! : op.slice(w.get('pos_emb')!, 0, 0, L);
  let x = op.add(op.gather(w.get('tok_emb')!, tokens), positions);
  for (let l = 0; l < layers; l++) {
    const h = layerNorm(x, w.get(`l${l}.ln1.g`)!, w.get(`l${l}.ln1.b`)!);
    const [q, k, v] = splitHeads(linear(h, w.get(`l${l}.attn.w_qkv`)!, w.get(`l${l}.attn.b_qkv`)!), heads);
    x = op.add(x, linear(mergeHeads(attend(q, k, v, causal)), w.get(`l${l}.attn.w_o`)!, w.get(`l${l}.attn.b_o`)!));
    x = mlpBlock(x, w, l);
  }
  return finalLogits(x, w);
}

/** Keys and values of the positions decoded so far, [B, H, pos, dh] per layer. */
export interface KvCache {
  k: Tensor;
  v: Tensor;
}

/**
 * One position of KV-cached decoding: the token at (static) position `pos` is embedded, attends to
 * the cached keys/values of positions < pos and to itself (no mask needed: the cache holds only
 * the past), and the caches grow by one slot. Returns logits [B, V] for position pos + 1.
 */
export function decodeStep(
  w: Weights,
  token: Tensor,
  pos: number,
  caches: (KvCache | null)[],
  layout: ParamLayout,
): { logits: Tensor; caches: KvCache[] } {
  const posRow = op.slice(w.get('pos_emb')!, 0, pos, pos + 1); // [1, d]
  let x = op.unsqueeze(op.add(op.gather(w.get('tok_emb')!, token), posRow), 1); // [B, 1, d]
  const next: KvCache[] = [];
  caches.forEach((cache, l) => {
    const h = layerNorm(x, w.get(`l${l}.ln1.g`)!, w.get(`l${l}.ln1.b`)!);
    const [q, k, v] = splitHeads(linear(h, w.get(`l${l}.attn.w_qkv`)!, w.get(`l${l}.attn.b_qkv`)!), layout.shape.heads);
    const grown = cache ? { k: op.concat([cache.k, k], 2), v: op.concat([cache.v, v], 2) } : { k, v };
    next.push(grown);
    x = op.add(x, linear(mergeHeads(attend(q, grown.k, grown.v)), w.get(`l${l}.attn.w_o`)!, w.get(`l${l}.attn.b_o`)!));
    x = mlpBlock(x, w, l);
  });
  const logits = op.reshape(finalLogits(x, w), [token.shape[0], layout.shape.vocab]);
  return { logits, caches: next };
}
