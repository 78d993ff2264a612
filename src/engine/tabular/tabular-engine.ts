// A REFERENCE engine, not the transformer: a tabular softmax policy implementing PolicyEngine
// with exact gradients and AdamW. Each next-token distribution is a free logit row indexed by
// (state token, hint slot, position, last marker token so far, whether the previous token was a
// filler) — enough to represent the task grammars. It lets the core loop and the fidelity suite run
// without onnxruntime; the PPO loss is the reference in src/core/ppo.ts.
import type {
  EngineState, OptimizerHyper, PolicyEngine, PolicyShape, PpoHyper, SampleRequest, SampleResult, ScoreRequest, ScoreResult,
  SftBatch, SftMetrics, TrainBatch, TrainMetrics, WeightsHandle,
} from '../../core/engine';
import { ppoReference } from '../../core/ppo';
import { EOS, PAD, PROMPT_LENGTH, isFiller, isMarker } from '../../core/tasks/vocab';

type Table = Map<number, Float64Array>;

export interface TabularOptions {
  /** SGD instead of Adam: the weights move along −∇loss exactly, which tabular-engine.test.ts checks by finite differences. */
  optimizer?: 'adam' | 'sgd';
}

export class TabularEngine implements PolicyEngine {
  readonly backend = 'tabular';
  readonly backendNote = 'pure-TypeScript tabular reference engine (tests only)';
  private table: Table = new Map();
  private m: Table = new Map();
  private v: Table = new Map();
  private steps = 0;
  private handles = new Map<number, Table>();
  private nextHandle = 1;
  private readonly T: number;

  constructor(
    readonly shape: PolicyShape,
    private readonly opts: TabularOptions = {},
  ) {
    this.T = shape.context - 1;
  }

  get version(): number {
    return this.steps;
  }

  /** Row key of the distribution that predicts token t + 1 of a sequence. */
  private key(tokens: ArrayLike<number>, off: number, t: number): number {
    const V = this.shape.vocab;
    let last = 0;
    for (let i = PROMPT_LENGTH; i <= t; i++) if (isMarker(tokens[off + i])) last = tokens[off + i];
    const prevFiller = t >= PROMPT_LENGTH && isFiller(tokens[off + t]) ? 1 : 0;
    const s = t >= 1 ? tokens[off + 1] : 0;
    const h = t >= 2 ? tokens[off + 2] : 0;
    return (((s * V + h) * this.shape.context + t) * V + last) * 2 + prevFiller;
  }

  private row(table: Table, key: number): Float64Array {
    return table.get(key) ?? new Float64Array(this.shape.vocab);
  }

  /** Softmax of logits / τ into `p`. */
  private probs(logits: Float64Array, tau: number, p: Float64Array): void {
    let max = -Infinity;
    for (let j = 0; j < logits.length; j++) max = Math.max(max, logits[j] / tau);
    let sum = 0;
    for (let j = 0; j < logits.length; j++) sum += p[j] = Math.exp(logits[j] / tau - max);
    for (let j = 0; j < logits.length; j++) p[j] /= sum;
  }

  private tableOf(h?: WeightsHandle): Table {
    if (!h) return this.table;
    const t = this.handles.get(h.id);
    if (!t) throw new Error(`tabular engine: weights handle ${h.id} was released`);
    return t;
  }

  async sample(req: SampleRequest): Promise<SampleResult> {
    const { batch, newTokens, temperature } = req;
    const C = this.shape.context;
    const table = this.tableOf(req.weights);
    const tokens = new Int32Array(batch * C);
    const logp = new Float32Array(batch * this.T);
    const entropy = new Float32Array(batch * this.T);
    const p = new Float64Array(this.shape.vocab);
    for (let b = 0; b < batch; b++) {
      const off = b * C;
      const pl = req.promptLength[b];
      for (let i = 0; i < pl; i++) tokens[off + i] = req.prompt[off + i];
      for (let i = 0; i < newTokens; i++) {
        const t = pl + i - 1;
        this.probs(this.row(table, this.key(tokens, off, t)), temperature, p);
        const u = req.uniforms[b * newTokens + i];
        let tok = p.length - 1;
        let acc = 0;
        for (let j = 0; j < p.length; j++) {
          acc += p[j];
          if (u < acc) {
            tok = j;
            break;
          }
        }
        tokens[off + t + 1] = tok;
        logp[b * this.T + t] = Math.log(p[tok]);
        entropy[b * this.T + t] = ent(p);
        if (tok === EOS) break;
      }
    }
    return { tokens, logp, entropy };
  }

  private forward(table: Table, batch: number, tokens: Int32Array, tau: number): { logp: Float64Array; entropy: Float64Array; keys: Int32Array } {
    const C = this.shape.context;
    const logp = new Float64Array(batch * this.T);
    const entropy = new Float64Array(batch * this.T);
    const keys = new Int32Array(batch * this.T).fill(-1);
    const p = new Float64Array(this.shape.vocab);
    for (let b = 0; b < batch; b++) {
      for (let t = 0; t < this.T; t++) {
        const next = tokens[b * C + t + 1];
        if (next === PAD) continue;
        const k = this.key(tokens, b * C, t);
        keys[b * this.T + t] = k;
        this.probs(this.row(table, k), tau, p);
        logp[b * this.T + t] = Math.log(p[next]);
        entropy[b * this.T + t] = ent(p);
      }
    }
    return { logp, entropy, keys };
  }

  async score(req: ScoreRequest): Promise<ScoreResult> {
    const f = this.forward(this.tableOf(req.weights), req.batch, req.tokens, req.temperature);
    return { logp: Float32Array.from(f.logp), entropy: Float32Array.from(f.entropy) };
  }

  /** Backprop per-token dL/dlogp (and optionally an entropy weight) into logit rows, then step. */
  private apply(batch: number, tokens: Int32Array, keys: Int32Array, gradLogp: ArrayLike<number>, entWeight: ArrayLike<number> | null, hyper: OptimizerHyper & { temperature: number }): number {
    const C = this.shape.context;
    const tau = hyper.temperature;
    const grads: Table = new Map();
    const p = new Float64Array(this.shape.vocab);
    for (let b = 0; b < batch; b++) {
      for (let t = 0; t < this.T; t++) {
        const i = b * this.T + t;
        const gl = gradLogp[i];
        const ge = entWeight ? entWeight[i] : 0;
        if (keys[i] < 0 || (gl === 0 && ge === 0)) continue;
        this.probs(this.row(this.table, keys[i]), tau, p);
        let g = grads.get(keys[i]);
        if (!g) grads.set(keys[i], (g = new Float64Array(this.shape.vocab)));
        const a = tokens[b * C + t + 1];
        const H = ent(p);
        for (let j = 0; j < p.length; j++) {
          g[j] += (gl * ((j === a ? 1 : 0) - p[j])) / tau;
          // ∂H/∂z_j = −p_j (log p_j + H) / τ
          if (ge !== 0 && p[j] > 0) g[j] += (ge * -p[j] * (Math.log(p[j]) + H)) / tau;
        }
      }
    }
    let sq = 0;
    for (const g of grads.values()) for (let j = 0; j < g.length; j++) sq += g[j] * g[j];
    const norm = Math.sqrt(sq);
    const scale = hyper.maxGradNorm > 0 && norm > hyper.maxGradNorm ? hyper.maxGradNorm / norm : 1;
    this.steps++;
    const bc1 = 1 - hyper.beta1 ** this.steps;
    const bc2 = 1 - hyper.beta2 ** this.steps;
    for (const [k, g] of grads) {
      const w = this.row(this.table, k).slice();
      if (this.opts.optimizer === 'sgd') {
        for (let j = 0; j < w.length; j++) w[j] -= hyper.lr * (scale * g[j] + hyper.weightDecay * w[j]);
      } else {
        const m = this.m.get(k) ?? new Float64Array(w.length);
        const v = this.v.get(k) ?? new Float64Array(w.length);
        for (let j = 0; j < w.length; j++) {
          const gj = scale * g[j];
          m[j] = hyper.beta1 * m[j] + (1 - hyper.beta1) * gj;
          v[j] = hyper.beta2 * v[j] + (1 - hyper.beta2) * gj * gj;
          w[j] -= hyper.lr * ((m[j] / bc1) / (Math.sqrt(v[j] / bc2) + hyper.eps) + hyper.weightDecay * w[j]);
        }
        this.m.set(k, m);
        this.v.set(k, v);
      }
      this.table.set(k, w); // copy-on-write: snapshots keep their own rows
    }
    return norm;
  }

  async trainStep(batch: TrainBatch, hyper: PpoHyper): Promise<TrainMetrics> {
    const f = this.forward(this.table, batch.batch, batch.tokens, hyper.temperature);
    const ref = ppoReference(
      { batch: batch.batch, logp: f.logp, oldLogp: batch.oldLogp, advantages: batch.advantages, lossMask: batch.lossMask, refLogp: batch.refLogp, entropy: f.entropy },
      hyper,
    );
    const entWeight = hyper.entropyCoef ? ref.weight.map((w) => -hyper.entropyCoef * w) : null;
    const gradNorm = this.apply(batch.batch, batch.tokens, f.keys, ref.gradLogp, entWeight, hyper);
    return {
      loss: ref.loss, pgLoss: ref.pgLoss, clipfracLow: ref.clipfracLow, clipfracHigh: ref.clipfracHigh,
      ppoKl: ref.ppoKl, entropy: ref.entropy, gradNorm, ratio: Float32Array.from(ref.ratio),
    };
  }

  async sftStep(batch: SftBatch, hyper: OptimizerHyper & { temperature: number }): Promise<SftMetrics> {
    const f = this.forward(this.table, batch.batch, batch.tokens, hyper.temperature);
    let count = 0;
    let loss = 0;
    for (let i = 0; i < batch.lossMask.length; i++) {
      count += batch.lossMask[i];
      loss -= batch.lossMask[i] * f.logp[i];
    }
    const grad = Float64Array.from(batch.lossMask, (m) => (count ? -m / count : 0));
    const gradNorm = this.apply(batch.batch, batch.tokens, f.keys, grad, null, hyper);
    return { loss: count ? loss / count : 0, gradNorm };
  }

  /** Flat layout: per row [key, logit_0 .. logit_{V−1}], keys ascending. */
  async getWeights(): Promise<Float32Array> {
    const V = this.shape.vocab;
    const keys = [...this.table.keys()].sort((a, b) => a - b);
    const out = new Float32Array(keys.length * (V + 1));
    keys.forEach((k, i) => {
      out[i * (V + 1)] = k;
      out.set(this.table.get(k)!, i * (V + 1) + 1);
    });
    return out;
  }

  /** Refuses what getWeights never writes: a partial row, keys not ascending whole numbers (NaN logits are weights, as in the transformer). */
  async setWeights(w: Float32Array): Promise<void> {
    const V = this.shape.vocab;
    if (w.length % (V + 1) !== 0) throw new Error(`setWeights: ${w.length} values are not whole rows of ${V + 1} (a key and ${V} logits)`);
    for (let i = 0; i < w.length; i += V + 1) {
      if (!Number.isInteger(w[i]) || w[i] < 0 || (i > 0 && w[i] <= w[i - V - 1])) throw new Error(`setWeights: row ${i / (V + 1)} has key ${w[i]} (keys are whole numbers, ascending)`);
    }
    this.table = new Map();
    for (let i = 0; i < w.length; i += V + 1) this.table.set(w[i], Float64Array.from(w.subarray(i + 1, i + 1 + V)));
    this.m = new Map();
    this.v = new Map();
    this.steps = 0;
  }

  /** Tables as float64 [count, (key, V values) per row, keys ascending]: exact. */
  private pack(tables: Table[]): Float64Array {
    const V = this.shape.vocab;
    const out = new Float64Array(tables.reduce((n, t) => n + 1 + t.size * (V + 1), 0));
    let o = 0;
    for (const t of tables) {
      out[o++] = t.size;
      for (const k of [...t.keys()].sort((a, b) => a - b)) {
        out[o++] = k;
        out.set(t.get(k)!, o);
        o += V;
      }
    }
    return out;
  }

  private unpack(data: Float32Array | Float64Array, count: number): Table[] {
    const V = this.shape.vocab;
    const tables: Table[] = [];
    let o = 0;
    for (let i = 0; i < count; i++) {
      const t: Table = new Map();
      const n = data[o++];
      for (let r = 0; r < n; r++, o += V) t.set(data[o++], Float64Array.from(data.subarray(o, o + V)));
      tables.push(t);
    }
    if (o !== data.length) throw new Error(`tabular engine: state of ${data.length} values does not hold ${count} tables`);
    return tables;
  }

  async exportState(handles: readonly WeightsHandle[]): Promise<EngineState> {
    return {
      kind: 'tabular', version: this.steps, trainer: this.pack([this.table, this.m, this.v]),
      handles: handles.map((h) => ({ version: h.version, weights: this.pack([this.tableOf(h)]) })),
    };
  }

  async importState(state: EngineState): Promise<WeightsHandle[]> {
    if (state.kind !== 'tabular') throw new Error(`tabular engine: cannot import a ${state.kind} state`);
    [this.table, this.m, this.v] = this.unpack(state.trainer, 3);
    this.steps = state.version;
    return state.handles.map((h) => {
      const id = this.nextHandle++;
      this.handles.set(id, this.unpack(h.weights, 1)[0]);
      return { id, version: h.version };
    });
  }

  snapshot(): WeightsHandle {
    const id = this.nextHandle++;
    this.handles.set(id, new Map(this.table)); // rows are copy-on-write, so a shallow copy suffices
    return { id, version: this.steps };
  }

  release(h: WeightsHandle): void {
    this.handles.delete(h.id);
  }

  async dispose(): Promise<void> {
    this.handles.clear();
    this.table.clear();
  }
}

function ent(p: Float64Array): number {
  let h = 0;
  for (let j = 0; j < p.length; j++) if (p[j] > 0) h -= p[j] * Math.log(p[j]);
  return h;
}

export function createTabularEngine(shape: PolicyShape, opts?: TabularOptions): TabularEngine {
  return new TabularEngine(shape, opts);
}
