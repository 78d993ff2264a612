// The core's PopulationEngine on onnxruntime-web: P policies in ONE set of sessions (parameters and
// Adam moments [P, N]), each phase (generate / score / ppo_train / sft_train) one session run for
// all members. Parameters and moments stay where the backend put them (GPU buffers on WebGPU) and
// are fed back; only metrics, tokens, log-probs and ratios are read back, as ONE output per run
// (OutputLayout 'fused', src/model/graphs.ts). A single run is P = 1 (OrtEngine wraps it). Every run
// is counted (runs, uploads, readbacks and their bytes) in `costs` for the bench.
import type * as Ort from 'onnxruntime-web';
import type {
  EngineState, PolicyShape, PpoHyper, SampleRequest, SampleResult, ScoreRequest, ScoreResult, SftBatch, SftMetrics, TrainBatch,
  TrainMetrics, WeightsHandle,
} from '../core/engine';
import type { PopulationEngine, SftHyper } from '../core/population';
import type { Graph } from '../graph/builder';
import {
  buildGenerateGraph, buildScoreGraph, buildSftGraph, buildTrainGraph, HYPER_FIELDS, hyperRow, type HyperSettings, type OutputLayout,
} from '../model/graphs';
import { paramLayout, type ParamLayout } from '../model/layout';
import { ppoMetrics, ppoTokenInputs } from '../model/ppo-coefs';
import { ALL_PPO_TERMS, PPO_TOKEN_INPUTS, ppoTermsFor } from '../model/ppo-head';
import { drawnOnly, generateFeeds } from './generate-feeds';
import { readGenerate, readScore, readTrain } from './outputs';
import { RunCostMeter, type Phase } from './run-costs';
import {
  createSession, disposeAll, fewestMatrices, initialWeights, row, TRAIN_DEVICE_OUTPUTS, type Backend, type OrtModule, type OrtPopulationOptions, type ParamBuf, type Sessions,
} from './ort-session';

/** The types the engine's users name (the bench, the browser engine): defined in ort-session.ts. */
export type { Backend, OrtModule, OrtPopulationOptions } from './ort-session';

export class OrtPopulation implements PopulationEngine {
  readonly layout: ParamLayout;
  private trainer!: ParamBuf;
  private m!: Ort.Tensor;
  private v!: Ort.Tensor;
  private steps: number[];
  /** Per member: generation of its current trainer row (bumped by every update of that row). */
  private gen: number[];
  private nextGen = 1;
  private handles = new Map<number, { buf: ParamBuf; member: number; gen: number }>();
  private nextHandle = 1;
  private recompute?: Ort.InferenceSession;
  private trainAllTerms?: Ort.InferenceSession; // with the KL and entropy terms, made when first needed (sessions.train has neither)
  lost?: Promise<string>;
  /** Transfers of every session run so far (the bench reads and resets it). */
  readonly costs = new RunCostMeter();

  private constructor(
    private readonly ort: OrtModule,
    readonly shape: PolicyShape,
    readonly size: number,
    readonly backend: Backend,
    /** Why this backend (set after creation where the choice is measured on this population). */
    public backendNote: string,
    private readonly sessions: Sessions,
    readonly outputs: OutputLayout,
  ) {
    this.layout = paramLayout(shape);
    this.steps = new Array<number>(size).fill(0);
    this.gen = new Array<number>(size).fill(0);
  }

  static async create(ort: OrtModule, shape: PolicyShape, opts: OrtPopulationOptions): Promise<OrtPopulation> {
    const layout = paramLayout(shape);
    const P = opts.size ?? 1;
    if (!Number.isInteger(P) || P < 1) throw new Error(`population size must be a positive integer, got ${P}`);
    const make = (g: Graph, gpuOutputs: string[]) => createSession(ort, g, opts.backend, gpuOutputs);
    // One at a time: creating WebGPU sessions concurrently hangs onnxruntime-web 1.30 (SwiftShader); WASM gains nothing.
    const outputs = opts.outputs ?? 'fused';
    const score = await make(buildScoreGraph(layout, P, 'float32', outputs), []);
    const generate = await make(buildGenerateGraph(layout, true, P, 'float32', outputs), []);
    const train = await make(buildTrainGraph(layout, P, 'float32', outputs, { kl: false, entropy: false }), TRAIN_DEVICE_OUTPUTS);
    const sft = await make(buildSftGraph(layout, P), TRAIN_DEVICE_OUTPUTS);
    const pop = new OrtPopulation(ort, shape, P, opts.backend, opts.note ?? '', { score, generate, train, sft }, outputs);
    pop.lost = opts.lost;
    await pop.setWeights(initialWeights(layout, P, opts));
    return pop;
  }

  version(member: number): number {
    return this.steps[member];
  }

  /** Where the trainer's parameters live ('gpu-buffer' on WebGPU after the first step, else 'cpu'). */
  get paramsLocation(): string {
    return this.trainer.tensor.location;
  }

  /** One session run, counted. */
  private async run(phase: Phase, session: Ort.InferenceSession, feeds: Record<string, Ort.Tensor>): Promise<Record<string, Ort.Tensor>> {
    const out = await session.run(feeds);
    this.costs.record(phase, feeds, out);
    return out;
  }

  private f32(data: Float32Array, dims: number[]): Ort.Tensor {
    return new this.ort.Tensor('float32', data, dims);
  }

  private i32(data: Int32Array, dims: number[]): Ort.Tensor {
    return new this.ort.Tensor('int32', data, dims);
  }

  private static members<T>(reqs: readonly (T | null)[]): number[] {
    return reqs.flatMap((r, p) => (r ? [p] : []));
  }

  /** Common batch size of the non-null requests (the core pads them to one). */
  private rows(reqs: readonly ({ batch: number } | null)[]): number {
    const sizes = new Set(reqs.flatMap((r) => (r ? [r.batch] : [])));
    if (sizes.size !== 1) throw new Error(`population call: requests need one batch size, got ${[...sizes].join(', ') || 'none'}`);
    return [...sizes][0];
  }

  /**
   * The parameter matrices to run reads (sample / score) with: each member needs its row at one
   * generation (trainer or a handle). Usually one matrix holds every needed row; otherwise the
   * members are split into as few runs as there are matrices needed.
   */
  private weightGroups(reqs: readonly ({ weights?: WeightsHandle } | null)[]): { buf: ParamBuf; members: number[] }[] {
    const need = new Map<number, { buf: ParamBuf; gen: number }>();
    reqs.forEach((r, p) => {
      if (!r) return;
      if (!r.weights) return need.set(p, { buf: this.trainer, gen: this.gen[p] });
      const h = this.handles.get(r.weights.id);
      if (!h) throw new Error(`weights handle ${r.weights.id} was released`);
      if (h.member !== p) throw new Error(`weights handle ${r.weights.id} belongs to member ${h.member}, not ${p}`);
      need.set(p, { buf: h.buf, gen: h.gen });
    });
    return fewestMatrices(need);
  }

  async sample(reqs: readonly (SampleRequest | null)[]): Promise<(SampleResult | null)[]> {
    return this.generate(this.sessions.generate, reqs);
  }

  /** The same sampling recomputing the whole prefix at every position (benchmark baseline). */
  async sampleRecompute(reqs: readonly (SampleRequest | null)[]): Promise<(SampleResult | null)[]> {
    this.recompute ??= await createSession(this.ort, buildGenerateGraph(this.layout, false, this.size, 'float32', this.outputs), this.backend, []);
    return this.generate(this.recompute, reqs);
  }

  /** Runs of a generate graph (its per-row inputs: generate-feeds.ts). */
  private async generate(session: Ort.InferenceSession, reqs: readonly (SampleRequest | null)[]): Promise<(SampleResult | null)[]> {
    const P = this.size;
    const B = this.rows(reqs);
    const T = this.shape.context;
    const W = T - 1;
    const out = new Array<SampleResult | null>(P).fill(null);
    for (const group of this.weightGroups(reqs)) {
      const { prompt, uniforms, temperature } = generateFeeds(reqs, group.members, B, T);
      const res = await this.run('generate', session, {
        params: group.buf.tensor,
        prompt: this.i32(prompt, [P, B, T]),
        uniforms: this.f32(uniforms, [P, B, W]),
        temperature: this.f32(temperature, [P]),
      });
      const { tokens, logp, entropy } = await readGenerate(res, this.outputs, T);
      for (const p of group.members) {
        out[p] = { tokens: row(tokens, p, B * T), logp: drawnOnly(logp, reqs[p]!, p, B, W), entropy: drawnOnly(entropy, reqs[p]!, p, B, W) };
      }
    }
    return out;
  }

  async score(reqs: readonly (ScoreRequest | null)[]): Promise<(ScoreResult | null)[]> {
    const P = this.size;
    const B = this.rows(reqs);
    const T = this.shape.context;
    const W = T - 1;
    const out = new Array<ScoreResult | null>(P).fill(null);
    for (const group of this.weightGroups(reqs)) {
      const tokens = new Int32Array(P * B * T);
      const temperature = new Float32Array(P).fill(1);
      for (const p of group.members) {
        tokens.set(reqs[p]!.tokens, p * B * T);
        temperature[p] = reqs[p]!.temperature;
      }
      const res = await this.run('score', this.sessions.score, {
        params: group.buf.tensor,
        tokens: this.i32(tokens, [P, B, T]),
        temperature: this.f32(temperature, [P]),
      });
      const { logp, entropy } = await readScore(res, this.outputs, T);
      for (const p of group.members) out[p] = { logp: row(logp, p, B * W), entropy: row(entropy, p, B * W) };
    }
    return out;
  }

  /** The `hyper` matrix [P, fields]: members sitting out get the first active member's values and active = 0. */
  private hyper(values: readonly (HyperSettings | null)[]): Ort.Tensor {
    const F = HYPER_FIELDS.length;
    const first = values.find((v) => v)!;
    const data = new Float32Array(this.size * F);
    values.forEach((v, p) => data.set(hyperRow(v ?? first, this.steps[p] + 1, v !== null), p * F));
    return this.f32(data, [this.size, F]);
  }

  /** Per-token inputs [P, B, W] from the members' batches (zeros for members sitting out). */
  private stack(reqs: readonly ({ batch: { tokens: Int32Array } & Record<string, unknown> } | null)[], B: number, key: string): Ort.Tensor {
    const T = this.shape.context;
    const width = key === 'tokens' ? T : T - 1;
    const data = key === 'tokens' ? new Int32Array(this.size * B * T) : new Float32Array(this.size * B * (T - 1));
    reqs.forEach((r, p) => r && data.set(r.batch[key] as Int32Array & Float32Array, p * B * width));
    return data instanceof Int32Array ? this.i32(data, [this.size, B, T]) : this.f32(data, [this.size, B, T - 1]);
  }

  async trainStep(reqs: readonly ({ batch: TrainBatch; hyper: PpoHyper } | null)[]): Promise<(TrainMetrics | null)[]> {
    const B = this.rows(reqs.map((r) => r && r.batch));
    const [W, K] = [this.shape.context - 1, PPO_TOKEN_INPUTS.length];
    const perToken = new Float32Array(this.size * K * B * W);
    reqs.forEach((r, p) => r && perToken.set(ppoTokenInputs(r.batch, r.hyper), p * K * B * W));
    const feeds = reqs as readonly ({ batch: TrainBatch & Record<string, unknown> } | null)[];
    const { kl, entropy } = ppoTermsFor(reqs.map((r) => r && r.hyper));
    const session = kl || entropy ? (this.trainAllTerms ??= await createSession(this.ort, buildTrainGraph(this.layout, this.size, 'float32', this.outputs, ALL_PPO_TERMS), this.backend, TRAIN_DEVICE_OUTPUTS)) : this.sessions.train;
    const res = await this.run('train', session, {
      params: this.trainer.tensor,
      m: this.m,
      v: this.v,
      tokens: this.stack(feeds, B, 'tokens'),
      tokenInputs: this.f32(perToken, [this.size, K, B, W]),
      hyper: this.hyper(reqs.map((r) => r && r.hyper)),
    });
    const out = await readTrain(res, this.outputs, this.size);
    this.advance(res, OrtPopulation.members(reqs));
    return reqs.map((r, p) => {
      if (!r) return null;
      const stats = { ratio: row(out.ratio, p, B * W), logp: row(out.logp, p, B * W), entropy: row(out.entropy, p, B * W) };
      return ppoMetrics(r.batch, r.hyper, stats, out.gradNorm[p]);
    });
  }

  async sftStep(reqs: readonly ({ batch: SftBatch; hyper: SftHyper } | null)[]): Promise<(SftMetrics | null)[]> {
    const B = this.rows(reqs.map((r) => r && r.batch));
    const feeds = reqs as readonly ({ batch: SftBatch & Record<string, unknown> } | null)[];
    const res = await this.run('sft', this.sessions.sft, {
      params: this.trainer.tensor,
      m: this.m,
      v: this.v,
      tokens: this.stack(feeds, B, 'tokens'),
      lossMask: this.stack(feeds, B, 'lossMask'),
      hyper: this.hyper(reqs.map((r) => r && r.hyper)),
    });
    const metrics = (await res.metrics.getData()) as Float32Array;
    this.advance(res, OrtPopulation.members(reqs));
    return reqs.map((r, p) => (r ? { loss: metrics[2 * p], gradNorm: metrics[2 * p + 1] } : null));
  }

  /** Swap in the step's parameters and moments; the active members' rows get new generations. */
  private advance(out: Record<string, Ort.Tensor>, active: number[]): void {
    const gens = [...this.trainer.gens];
    for (const p of active) {
      this.gen[p] = gens[p] = this.nextGen++;
      this.steps[p]++;
    }
    this.replaceTrainer({ tensor: out.params_out, gens, refs: 0 });
    disposeAll([this.m, this.v]);
    this.m = out.m_out;
    this.v = out.v_out;
  }

  private replaceTrainer(buf: ParamBuf): void {
    const old = this.trainer;
    buf.refs++;
    this.trainer = buf;
    if (old) this.unref(old);
  }

  private unref(buf: ParamBuf): void {
    if (--buf.refs === 0) disposeAll([buf.tensor]);
  }

  async getWeights(member: number): Promise<Float32Array> {
    const N = this.layout.total;
    return Float32Array.from(((await this.trainer.tensor.getData()) as Float32Array).subarray(member * N, (member + 1) * N));
  }

  async setWeights(weights: readonly (Float32Array | null)[]): Promise<void> {
    const N = this.layout.total;
    const P = this.size;
    if (weights.length !== P) throw new Error(`setWeights: ${weights.length} entries for ${P} members`);
    for (const w of weights) if (w && w.length !== N) throw new Error(`setWeights: expected ${N} values, got ${w.length}`);
    const partial = weights.some((w) => !w) && this.trainer;
    // members left out keep their rows and moments (read back: setWeights is rare)
    const read = async (t: Ort.Tensor | undefined) => (partial && t ? Float32Array.from((await t.getData()) as Float32Array) : new Float32Array(P * N));
    const [params, m, v] = await Promise.all([read(this.trainer?.tensor), read(this.m), read(this.v)]);
    const gens = this.trainer ? [...this.trainer.gens] : new Array<number>(P).fill(0);
    weights.forEach((w, p) => {
      if (!w) return;
      params.set(w, p * N);
      m.fill(0, p * N, (p + 1) * N);
      v.fill(0, p * N, (p + 1) * N);
      this.gen[p] = gens[p] = this.nextGen++;
      this.steps[p] = 0;
    });
    const oldMoments = [this.m, this.v];
    this.replaceTrainer({ tensor: this.f32(params, [P, N]), gens, refs: 0 });
    this.m = this.f32(m, [P, N]);
    this.v = this.f32(v, [P, N]);
    disposeAll(oldMoments);
  }

  /**
   * Member p's exact training state: trainer [params | m | v] (N each), its version, and the
   * weights behind `handles` (its own). Read back once per buffer.
   */
  async exportMember(member: number, handles: readonly WeightsHandle[]): Promise<EngineState> {
    const N = this.layout.total;
    const rowOf = async (t: Ort.Tensor) => ((await t.getData()) as Float32Array).subarray(member * N, (member + 1) * N);
    const trainer = new Float32Array(3 * N);
    trainer.set(await rowOf(this.trainer.tensor), 0);
    trainer.set(await rowOf(this.m), N);
    trainer.set(await rowOf(this.v), 2 * N);
    const out: EngineState['handles'] = [];
    for (const handle of handles) {
      const h = this.handles.get(handle.id);
      if (!h) throw new Error(`weights handle ${handle.id} was released`);
      if (h.member !== member) throw new Error(`weights handle ${handle.id} belongs to member ${h.member}, not ${member}`);
      out.push({ version: handle.version, weights: Float32Array.from(await rowOf(h.buf.tensor)) });
    }
    return { kind: `ort/${this.layout.total}`, version: this.steps[member], trainer, handles: out };
  }

  /** Put member p back as exported (weights, moments, version); new handles for the exported ones. */
  async importMember(member: number, state: EngineState): Promise<WeightsHandle[]> {
    const N = this.layout.total;
    const P = this.size;
    if (state.kind !== `ort/${N}`) throw new Error(`engine state of kind ${state.kind} does not fit this model (ort/${N})`);
    if (!(state.trainer instanceof Float32Array) || state.trainer.length !== 3 * N) throw new Error(`engine state: trainer needs ${3 * N} float32 values`);
    const handles: WeightsHandle[] = [];
    for (const x of state.handles) {
      if (!(x.weights instanceof Float32Array) || x.weights.length !== N) throw new Error(`engine state: handle weights need ${N} float32 values`);
      // a matrix of its own holding only this member's row (other rows are never read: gen −1)
      const data = new Float32Array(P * N);
      data.set(x.weights, member * N);
      const gens = new Array<number>(P).fill(-1);
      gens[member] = this.nextGen++;
      const buf: ParamBuf = { tensor: this.f32(data, [P, N]), gens, refs: 1 };
      const id = this.nextHandle++;
      this.handles.set(id, { buf, member, gen: gens[member] });
      handles.push({ id, version: x.version });
    }
    const read = async (t: Ort.Tensor) => Float32Array.from((await t.getData()) as Float32Array);
    const [params, m, v] = await Promise.all([read(this.trainer.tensor), read(this.m), read(this.v)]);
    params.set(state.trainer.subarray(0, N), member * N);
    m.set(state.trainer.subarray(N, 2 * N), member * N);
    v.set(state.trainer.subarray(2 * N), member * N);
    const gens = [...this.trainer.gens];
    this.gen[member] = gens[member] = this.nextGen++;
    this.steps[member] = state.version;
    const oldMoments = [this.m, this.v];
    this.replaceTrainer({ tensor: this.f32(params, [P, N]), gens, refs: 0 });
    this.m = this.f32(m, [P, N]);
    this.v = this.f32(v, [P, N]);
    disposeAll(oldMoments);
    return handles;
  }

  snapshot(member: number): WeightsHandle {
    const id = this.nextHandle++;
    this.trainer.refs++;
    this.handles.set(id, { buf: this.trainer, member, gen: this.gen[member] });
    return { id, version: this.steps[member] };
  }

  release(handle: WeightsHandle): void {
    const h = this.handles.get(handle.id);
    if (!h) return;
    this.handles.delete(handle.id);
    this.unref(h.buf);
  }

  async dispose(): Promise<void> {
    for (const id of [...this.handles.keys()]) this.release({ id, version: 0 });
    this.unref(this.trainer);
    disposeAll([this.m, this.v]);
    await Promise.all([...Object.values(this.sessions), this.recompute, this.trainAllTerms].map((s) => s?.release()));
  }
}
