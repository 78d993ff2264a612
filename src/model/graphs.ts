// The policy's ONNX graphs: score, generate (KV-cache sampling, or full-prefix recompute for the
// benchmark and the equivalence test), PPO train step and SFT step. Every graph takes the
// parameters as one flat input so the engine can keep them GPU-resident and feed them back.
import { Graph, type Dim, type DType, type Tensor } from '../graph/builder';
import { grad, gradFrom } from '../graph/grad';
import * as op from '../graph/ops';
import { decayMask, type ParamLayout } from './layout';
import { sampleOneHot, temperedStats, tokenStats } from './heads';
import { adamw, adamwScalars } from './optimizer';
import { ALL_PPO_TERMS, PPO_TOKEN_INPUTS, ppoHead, type PpoTerms, type PpoTokenInput } from './ppo-head';
import { decodeStep, decodeWeights, forward, positionTables, sliceParams, type KvCache } from './transformer';

/** Order of the per-member scalars in the train graphs' `hyper` input [P, fields] (hyperRow fills one). */
export const HYPER_FIELDS = ['lr', 'beta1', 'beta2', 'oneMinusBeta1', 'oneMinusBeta2', 'eps', 'weightDecay', 'maxGradNorm', 'step', 'temperature', 'active'] as const;
export type HyperField = (typeof HYPER_FIELDS)[number];

/** A member's settings as the `hyper` row asks for them (the rest is computed: hyperRow). */
export type HyperSettings = Record<Exclude<HyperField, 'active' | 'step' | keyof ReturnType<typeof adamwScalars>>, number> & { maxGradNorm: number };

/** One member's `hyper` row: its settings, AdamW's CPU scalars, its 1-based step and whether it trains. */
export function hyperRow(h: HyperSettings, step: number, active: boolean): Float32Array {
  const full: Record<HyperField, number> = { ...h, ...adamwScalars(h), step, active: active ? 1 : 0 };
  return Float32Array.from(HYPER_FIELDS, (k) => full[k]);
}


/**
 * How a graph hands back what the CPU reads. 'fused': ONE output per run (the results concatenated
 * on the device, so one readback per run instead of one per result: on WebGPU every CPU output is
 * a copy and a buffer map the run waits for). 'separate': one output per result (the layout before,
 * kept so the bench can measure what fusing bought). Both carry the same values bit for bit.
 * Fused layouts (per member p, row b): generate `out` [P, B, T + 2W] = tokens (as float32, exact
 * below 2^24) | logp | entropy; score `stats` [P, B, 2W] = logp | entropy; PPO train `out`
 * [P, 1 + 3·B·W] = gradNorm | ratio | logp | entropy. Parameters and moments stay separate outputs (kept on
 * the device). Decoding: src/engine/outputs.ts.
 */
export type OutputLayout = 'fused' | 'separate';

// Every graph carries a population of P policies (P = 1 for a single run): parameters [P, N],
// batches [P, B, ...], per-member hyperparameters; each member's loss, aggregation and gradient-norm
// clip only see its own rows, so member p computes what a single run of it would.

function policyInputs(g: Graph, layout: ParamLayout, P: number, dtype: DType) {
  const T = layout.shape.context;
  const params = g.input('params', dtype, [P, layout.total]);
  const tokens = g.input('tokens', 'int32', [P, 'B', T]);
  return { params, tokens };
}

/**
 * Logits for positions 0..T−2 and the tokens they predict (1..T−1) as a one-hot. The one-hot is
 * sliced, not the int32 tokens: onnxruntime's WebGPU EP has no int32 Slice, so slicing the tokens
 * ran on the CPU (one CPU node per run, its result copied to the device, and graph capture refused).
 */
function shiftedLogits(params: Tensor, tokens: Tensor, layout: ParamLayout) {
  const { context: T, vocab } = layout.shape;
  const weights = sliceParams(params, layout);
  const logits = op.slice(forward(weights, tokens, layout), 2, 0, T - 1);
  const next = op.slice(op.oneHot(tokens, vocab, params.dtype), 2, 1, T);
  return { logits, next };
}

/** A per-member value [P] or [P, 1] shaped [P, 1, …, 1] to broadcast against a rank-`rank` tensor. */
const perMember = (x: Tensor, rank: number) => op.reshape(x, [x.shape[0], ...new Array<number>(rank - 1).fill(1)]);

export function buildScoreGraph(layout: ParamLayout, P = 1, dtype: DType = 'float32', outputs: OutputLayout = 'fused'): Graph {
  const g = new Graph('score');
  const { params, tokens } = policyInputs(g, layout, P, dtype);
  const temperature = g.input('temperature', dtype, [P]);
  const { logits, next } = shiftedLogits(params, tokens, layout);
  const { logp, entropy } = tokenStats(logits, next, perMember(temperature, 4));
  if (outputs === 'fused') {
    g.output('stats', op.concat([logp, entropy], 2));
  } else {
    g.output('logp', logp);
    g.output('entropy', entropy);
  }
  return g;
}

/**
 * Autoregressive generation of a whole batch in ONE run: the T − 1 positions are unrolled in the
 * graph, each sampling its token by inverse CDF from the caller's uniforms [P, B, T − 1], so nothing
 * is read back until the end. The caller lays the rows out (src/engine/generate-feeds.ts): the
 * prompt [P, B, T] with PAD (0) after it, and per position the uniform of the next token, or
 * FORCED_UNIFORM where that token is forced (it is the prompt's, or PAD after the drawn ones). With
 * `kvCache` every position costs one token's forward work (keys/values of the past are kept);
 * without it every position recomputes the whole prefix (the O(L²) baseline the benchmark compares
 * against). Outputs tokens [P, B, T] and the log-probs and entropies [P, B, T − 1] of every
 * position (the caller keeps the drawn ones) in the engine layout.
 *
 * Kernels per position are what the GPU pays for (each is a dispatch), so everything that does not
 * depend on the previous token is done once for all positions, before or after the loop: the
 * uniforms and one-hots per position, the embedding tables, and the log-probs and entropies (from
 * the stacked tempered logits). A position carries its token
 * as a one-hot row: sampleOneHot makes it, a MatMul with the position's table embeds it and projects it to the first layer's q, k, v.
 */
export function buildGenerateGraph(layout: ParamLayout, kvCache = true, P = 1, dtype: DType = 'float32', outputs: OutputLayout = 'fused'): Graph {
  const { context: T, layers, vocab: V } = layout.shape;
  const W = T - 1;
  const g = new Graph(kvCache ? 'generate_kv' : 'generate_recompute');
  const params = g.input('params', dtype, [P, layout.total]);
  const prompt = g.input('prompt', 'int32', [P, 'B', T]);
  const uniforms = g.input('uniforms', dtype, [P, 'B', W]);
  const temperature = perMember(g.input('temperature', dtype, [P]), 3);
  const w = sliceParams(params, layout);
  const plan = positionPlan(prompt, uniforms, V);
  const decoding = kvCache ? decodeWeights(w, layout, temperature) : w;
  const tables = kvCache ? positionTables(decoding, W, layout) : [];

  const chosen = [plan.base[0]]; // one-hot rows [P, B, V] of positions 0 … T − 1
  const tempered: Tensor[] = [];
  let caches: (KvCache | null)[] = Array.from({ length: layers }, () => null);
  for (let t = 0; t < W; t++) {
    let z: Tensor; // tempered logits [P, B, V] of position t + 1
    if (kvCache) {
      const step = decodeStep(decoding, op.matmul(chosen[t], tables[t]), caches, layout);
      caches = step.caches;
      z = step.logits;
    } else {
      const ids = op.cast(op.reshape(op.matmul(stackPositions(chosen), g.constant(Array.from({ length: V }, (_, v) => v), dtype, [V, 1])), [P, 'B', t + 1]), 'int32');
      z = op.div(op.reshape(op.slice(forward(w, ids, layout), 2, t, t + 1), [P, 'B', V]), temperature);
    }
    tempered.push(z);
    chosen.push(sampleOneHot(z, plan.uniforms[t], plan.base[t + 1]));
  }
  const oneHots = stackPositions(chosen); // [P, B, T, V]
  const tokens = op.reshape(op.matmul(oneHots, g.constant(Array.from({ length: V }, (_, v) => v), dtype, [V, 1])), [P, 'B', T]);
  const { logp, entropy } = temperedStats(stackPositions(tempered), op.slice(oneHots, 2, 1, T));
  if (outputs === 'fused') {
    g.output('out', op.concat([tokens, logp, entropy], 2));
  } else {
    g.output('tokens', op.cast(tokens, 'int32'));
    g.output('logp', logp);
    g.output('entropy', entropy);
  }
  return g;
}

/** Rows [P, B, V] of the positions stacked into [P, B, positions, V] (one Concat). */
const stackPositions = (rows: Tensor[]) => op.concat(rows.map((r) => op.unsqueeze(r, 2)), 2);

/**
 * Per position t of 0 … T − 2 the uniforms [P, B, 1] of its next token (FORCED_UNIFORM where that
 * token is forced: no cdf is below it) and per position 0 … T − 1 the one-hot base [P, B, V] of the
 * prompt's token (PAD, token 0, after the prompt: the base of a drawn token too).
 */
function positionPlan(prompt: Tensor, uniforms: Tensor, vocab: number) {
  const [P, , T] = prompt.shape as [number, unknown, number];
  const rows = (x: Tensor, n: number) => op.split(x, 2, new Array<number>(n).fill(1));
  return {
    uniforms: rows(uniforms, T - 1),
    base: rows(op.oneHot(prompt, vocab, uniforms.dtype), T).map((r) => op.reshape(r, [P, 'B', vocab])),
  };
}

function hyperInputs(g: Graph, P: number, dtype: DType) {
  return splitHyper(g.input('hyper', dtype, [P, HYPER_FIELDS.length]));
}

/** The `hyper` matrix [P, fields] as named per-member columns [P, 1] (one Split: one kernel). */
export function splitHyper(hyper: Tensor): Record<HyperField, Tensor> {
  const h = {} as Record<HyperField, Tensor>;
  const columns = op.split(hyper, 1, HYPER_FIELDS.map(() => 1));
  HYPER_FIELDS.forEach((name, i) => (h[name] = columns[i]));
  return h;
}

function optimizerState(g: Graph, layout: ParamLayout, P: number, dtype: DType) {
  const m = g.input('m', dtype, [P, layout.total]);
  const v = g.input('v', dtype, [P, layout.total]);
  const mask = g.constant(decayMask(layout), dtype, [layout.total]);
  return { m, v, mask };
}

/** Gradient of `loss` w.r.t. the parameter matrix [P, N] (the Concat of its Split parts' gradients). */
function flatGradient(loss: Tensor, params: Tensor): Tensor {
  return grad(loss, [params])[0];
}

/** Per-member masked mean of x [P, B, W] → [P]. */
const maskedMean = (x: Tensor, mask: Tensor) =>
  op.div(op.reduceSum(op.mul(x, mask), [1, 2]), op.max2(op.reduceSum(mask, [1, 2]), 1));

/** Members with active = 0 keep parameters and moments (they sat this step out). */
function keepInactive(opt: ReturnType<typeof adamw>, state: { params: Tensor; m: Tensor; v: Tensor }, active: Tensor, P: number) {
  if (P === 1) return opt; // a single run is always active: no select
  const on = op.greater(active, 0);
  return { ...opt, params: op.where(on, opt.params, state.params), m: op.where(on, opt.m, state.m), v: op.where(on, opt.v, state.v) };
}

/** Per-member metrics [P] / [P, 1] as one [P, k] output. */
const metricRows = (xs: Tensor[], P: number) => op.concat(xs.map((t) => op.reshape(t, [P, 1])), 1);

/**
 * The PPO loss's per-token statistics (logp, entropy, ratio [P, B, W]) and its gradient w.r.t. the
 * parameters [P, N]: closed form at the logits (ppoHead), backpropagated through the transformer.
 * tokenInputs [P, rows, B, W] in PPO_TOKEN_INPUTS order (one Split), temperature [P, 1].
 */
export function ppoGradient(params: Tensor, tokens: Tensor, tokenInputs: Tensor, temperature: Tensor, layout: ParamLayout, terms: PpoTerms = ALL_PPO_TERMS) {
  const [P, , B, W] = tokenInputs.shape as [number, number, Dim, number];
  const rows = op.split(tokenInputs, 1, PPO_TOKEN_INPUTS.map(() => 1));
  const x = Object.fromEntries(PPO_TOKEN_INPUTS.map((k, i) => [k, op.reshape(rows[i], [P, B, W])])) as Record<PpoTokenInput, Tensor>;
  const { logits, next } = shiftedLogits(params, tokens, layout);
  const head = ppoHead(logits, next, perMember(temperature, 4), x, terms);
  const [gradient] = gradFrom([[logits, head.dLogits]], [params]);
  return { ...head, gradient };
}

/**
 * The PPO train step: the loss's gradient w.r.t. the logits in closed form (ppoHead) from the
 * per-token inputs the CPU computes (`tokenInputs` [P, rows, B, W], rows in PPO_TOKEN_INPUTS
 * order: src/model/ppo-coefs.ts), backpropagated through the transformer, then AdamW. The metrics
 * are computed on the CPU from the per-token statistics handed back (ppoMetrics). `terms`: the KL
 * and entropy terms it carries (ppoTermsFor: without them where every member's coefficient is 0).
 */
export function buildTrainGraph(layout: ParamLayout, P = 1, dtype: DType = 'float32', outputs: OutputLayout = 'fused', terms: PpoTerms = ALL_PPO_TERMS): Graph {
  const W = layout.shape.context - 1;
  const g = new Graph('ppo_train');
  const { params, tokens } = policyInputs(g, layout, P, dtype);
  const { m, v, mask: decay } = optimizerState(g, layout, P, dtype);
  const perToken = g.input('tokenInputs', dtype, [P, PPO_TOKEN_INPUTS.length, 'B', W]);
  const h = hyperInputs(g, P, dtype);
  const head = ppoGradient(params, tokens, perToken, h.temperature, layout, terms);
  const opt = keepInactive(adamw(params, m, v, head.gradient, h, decay), { params, m, v }, h.active, P);
  g.output('params_out', opt.params);
  g.output('m_out', opt.m);
  g.output('v_out', opt.v);
  const stats = [head.ratio, head.logp, head.entropy].map((t) => op.reshape(t, [P, 'B*W']));
  if (outputs === 'fused') {
    g.output('out', op.concat([op.reshape(opt.gradNorm, [P, 1]), ...stats], 1));
  } else {
    g.output('gradNorm', op.reshape(opt.gradNorm, [P, 1]));
    g.output('ratio', head.ratio);
    g.output('logp', head.logp);
    g.output('entropy', head.entropy);
  }
  return g;
}

export function buildSftGraph(layout: ParamLayout, P = 1, dtype: DType = 'float32'): Graph {
  const T = layout.shape.context;
  const g = new Graph('sft_train');
  const { params, tokens } = policyInputs(g, layout, P, dtype);
  const { m, v, mask: decay } = optimizerState(g, layout, P, dtype);
  const lossMask = g.input('lossMask', dtype, [P, 'B', T - 1]);
  const h = hyperInputs(g, P, dtype);
  const { logits, next } = shiftedLogits(params, tokens, layout);
  const { logp } = tokenStats(logits, next, perMember(h.temperature, 4));
  const loss = op.neg(maskedMean(logp, lossMask));
  const opt = keepInactive(adamw(params, m, v, flatGradient(op.reduceSum(loss, [0]), params), h, decay), { params, m, v }, h.active, P);
  g.output('params_out', opt.params);
  g.output('m_out', opt.m);
  g.output('v_out', opt.v);
  g.output('metrics', metricRows([loss, opt.gradNorm], P));
  return g;
}
