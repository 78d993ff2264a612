// PolicyEngine on onnxruntime-web (the only place that touches it, through the module passed in:
// 'onnxruntime-web' in Node, 'onnxruntime-web/webgpu' in the browser). Parameters and Adam moments
// stay where the backend produced them (GPU buffers on WebGPU) and are fed back as the next
// step's inputs; only metrics, sampled tokens and the ratio vector are read back.
import type * as Ort from 'onnxruntime-web';
import type {
  OptimizerHyper, PolicyEngine, PolicyShape, PpoHyper, SampleRequest, SampleResult, ScoreRequest,
  ScoreResult, SftBatch, SftMetrics, TrainBatch, TrainMetrics, WeightsHandle,
} from '../core/engine';
import { encodeModel } from '../graph/encode';
import type { Graph } from '../graph/builder';
import {
  buildGenerateGraph, buildScoreGraph, buildSftGraph, buildTrainGraph, HYPER_FIELDS, PPO_METRICS, type HyperField,
} from '../model/graphs';
import { initParams, paramLayout, type ParamLayout } from '../model/layout';

export type OrtModule = typeof Ort;
export type Backend = 'webgpu' | 'wasm';

export interface OrtEngineOptions {
  backend: Backend;
  /** Seed of the deterministic init (ignored when `weights` is given). */
  seed: number;
  weights?: Float32Array;
  /** Why this backend was chosen (e.g. the WebGPU failure that caused a WASM fallback). */
  note?: string;
  /** Resolves when the backend's device is gone (WebGPU device loss); see PolicyEngine.lost. */
  lost?: Promise<string>;
}

type Feeds = Record<string, Ort.Tensor>;

export class OrtEngine implements PolicyEngine {
  readonly layout: ParamLayout;
  private params!: Ort.Tensor;
  private m!: Ort.Tensor;
  private v!: Ort.Tensor;
  private steps = 0;
  private handles = new Map<number, { tensor: Ort.Tensor; version: number }>();
  private nextHandle = 1;
  private recompute?: Ort.InferenceSession;
  lost?: Promise<string>;

  private constructor(
    private readonly ort: OrtModule,
    readonly shape: PolicyShape,
    readonly backend: Backend,
    readonly backendNote: string,
    private readonly sessions: Record<'score' | 'generate' | 'train' | 'sft', Ort.InferenceSession>,
  ) {
    this.layout = paramLayout(shape);
  }

  static async create(ort: OrtModule, shape: PolicyShape, opts: OrtEngineOptions): Promise<OrtEngine> {
    const layout = paramLayout(shape);
    const gpu = opts.backend === 'webgpu';
    const make = (g: Graph, gpuOutputs: string[]) => createSession(ort, g, opts.backend, gpu ? gpuOutputs : []);
    // One at a time: creating WebGPU sessions concurrently hangs onnxruntime-web 1.30 (seen on
    // SwiftShader), and on WASM it gains nothing.
    const score = await make(buildScoreGraph(layout), []);
    const generate = await make(buildGenerateGraph(layout), []);
    const train = await make(buildTrainGraph(layout), ['params_out', 'm_out', 'v_out']);
    const sft = await make(buildSftGraph(layout), ['params_out', 'm_out', 'v_out']);
    const engine = new OrtEngine(ort, shape, opts.backend, opts.note ?? '', { score, generate, train, sft });
    engine.lost = opts.lost;
    await engine.setWeights(opts.weights ?? initParams(layout, opts.seed));
    return engine;
  }

  get version(): number {
    return this.steps;
  }

  /** Where the trainer's parameters live ('gpu-buffer' on WebGPU after the first step, else 'cpu'). */
  get paramsLocation(): string {
    return this.params.location;
  }

  private f32(data: Float32Array, dims: number[]): Ort.Tensor {
    return new this.ort.Tensor('float32', data, dims);
  }

  private i32(data: Int32Array, dims: number[]): Ort.Tensor {
    return new this.ort.Tensor('int32', data, dims);
  }

  private weightsFor(handle?: WeightsHandle): Ort.Tensor {
    if (!handle) return this.params;
    const h = this.handles.get(handle.id);
    if (!h) throw new Error(`weights handle ${handle.id} was released`);
    return h.tensor;
  }

  private hyper(values: Record<HyperField, number>): Ort.Tensor {
    return this.f32(Float32Array.from(HYPER_FIELDS, (k) => values[k]), [HYPER_FIELDS.length]);
  }

  async score(req: ScoreRequest): Promise<ScoreResult> {
    const T = this.shape.context;
    const out = await this.sessions.score.run({
      params: this.weightsFor(req.weights),
      tokens: this.i32(req.tokens, [req.batch, T]),
      temperature: this.f32(Float32Array.of(req.temperature), []),
    });
    return { logp: (await out.logp.getData()) as Float32Array, entropy: (await out.entropy.getData()) as Float32Array };
  }

  async sample(req: SampleRequest): Promise<SampleResult> {
    return this.generate(this.sessions.generate, req);
  }

  /** The same sampling recomputing the whole prefix at every position (benchmark baseline). */
  async sampleRecompute(req: SampleRequest): Promise<SampleResult> {
    this.recompute ??= await createSession(this.ort, buildGenerateGraph(this.layout, false), this.backend, []);
    return this.generate(this.recompute, req);
  }

  /** One run of a generate graph; uniforms are laid out per position (0.5 where nothing is drawn). */
  private async generate(session: Ort.InferenceSession, req: SampleRequest): Promise<SampleResult> {
    const { batch: B, newTokens } = req;
    const T = this.shape.context;
    const W = T - 1;
    if (req.uniforms.length !== B * newTokens) throw new Error(`sample: need ${B * newTokens} uniforms, got ${req.uniforms.length}`);
    const uniforms = new Float32Array(B * W).fill(0.5);
    for (let b = 0; b < B; b++) {
      const p = req.promptLength[b];
      if (p < 1 || p + newTokens > T) throw new Error(`sample: prompt length ${p} + ${newTokens} new tokens must fit context ${T}`);
      for (let j = 0; j < newTokens; j++) uniforms[b * W + p - 1 + j] = req.uniforms[b * newTokens + j];
    }
    const out = await session.run({
      params: this.weightsFor(req.weights),
      prompt: this.i32(req.prompt, [B, T]),
      promptLength: this.i32(req.promptLength, [B]),
      newTokens: this.i32(Int32Array.of(newTokens), []),
      uniforms: this.f32(uniforms, [B, W]),
      temperature: this.f32(Float32Array.of(req.temperature), []),
    });
    const [tokens, logp, entropy] = await Promise.all(['tokens', 'logp', 'entropy'].map((k) => out[k].getData()));
    return { tokens: tokens as Int32Array, logp: logp as Float32Array, entropy: entropy as Float32Array };
  }

  async trainStep(batch: TrainBatch, h: PpoHyper): Promise<TrainMetrics> {
    const dims = [batch.batch, this.shape.context - 1];
    const out = await this.sessions.train.run({
      params: this.params,
      m: this.m,
      v: this.v,
      tokens: this.i32(batch.tokens, [batch.batch, this.shape.context]),
      advantages: this.f32(batch.advantages, dims),
      oldLogp: this.f32(batch.oldLogp, dims),
      refLogp: this.f32(batch.refLogp, dims),
      lossMask: this.f32(batch.lossMask, dims),
      hyper: this.hyper({ ...h, step: this.steps + 1, seqMean: h.aggregation === 'seq-mean-token-mean' ? 1 : 0 }),
    });
    const metrics = (await out.metrics.getData()) as Float32Array;
    const ratio = (await out.ratio.getData()) as Float32Array;
    this.advance(out);
    const m = Object.fromEntries(PPO_METRICS.map((k, i) => [k, metrics[i]])) as Record<(typeof PPO_METRICS)[number], number>;
    return { ...m, ratio };
  }

  async sftStep(batch: SftBatch, h: OptimizerHyper & { temperature: number }): Promise<SftMetrics> {
    const out = await this.sessions.sft.run({
      params: this.params,
      m: this.m,
      v: this.v,
      tokens: this.i32(batch.tokens, [batch.batch, this.shape.context]),
      lossMask: this.f32(batch.lossMask, [batch.batch, this.shape.context - 1]),
      hyper: this.hyper({
        ...h, step: this.steps + 1, clipLow: 0, clipHigh: 0, dualClip: 0, entropyCoef: 0, klCoef: 0, seqMean: 0,
      }),
    });
    const metrics = (await out.metrics.getData()) as Float32Array;
    this.advance(out);
    return { loss: metrics[0], gradNorm: metrics[1] };
  }

  /** Swap in the step's new parameters and moments; free the old ones unless a handle holds them. */
  private advance(out: Feeds): void {
    const old = this.params;
    this.params = out.params_out;
    disposeAll([this.m, this.v]);
    this.m = out.m_out;
    this.v = out.v_out;
    this.steps++;
    if (!this.isHeld(old)) old.dispose();
  }

  private isHeld(t: Ort.Tensor): boolean {
    for (const h of this.handles.values()) if (h.tensor === t) return true;
    return false;
  }

  async getWeights(): Promise<Float32Array> {
    return Float32Array.from((await this.params.getData()) as Float32Array);
  }

  async setWeights(weights: Float32Array): Promise<void> {
    if (weights.length !== this.layout.total) throw new Error(`setWeights: expected ${this.layout.total} values, got ${weights.length}`);
    const old = [this.params, this.m, this.v].filter((t) => t && !this.isHeld(t));
    this.params = this.f32(Float32Array.from(weights), [weights.length]);
    this.m = this.f32(new Float32Array(weights.length), [weights.length]);
    this.v = this.f32(new Float32Array(weights.length), [weights.length]);
    this.steps = 0;
    disposeAll(old);
  }

  snapshot(): WeightsHandle {
    const id = this.nextHandle++;
    this.handles.set(id, { tensor: this.params, version: this.steps });
    return { id, version: this.steps };
  }

  release(handle: WeightsHandle): void {
    const h = this.handles.get(handle.id);
    if (!h) return;
    this.handles.delete(handle.id);
    if (h.tensor !== this.params && !this.isHeld(h.tensor)) h.tensor.dispose();
  }

  async dispose(): Promise<void> {
    for (const id of [...this.handles.keys()]) this.release({ id, version: 0 });
    disposeAll([this.params, this.m, this.v]);
    await Promise.all([...Object.values(this.sessions), ...(this.recompute ? [this.recompute] : [])].map((s) => s.release()));
  }
}

async function createSession(ort: OrtModule, g: Graph, backend: Backend, gpuOutputs: string[]): Promise<Ort.InferenceSession> {
  const preferredOutputLocation = Object.fromEntries(gpuOutputs.map((n) => [n, 'gpu-buffer' as const]));
  return ort.InferenceSession.create(encodeModel(g), {
    executionProviders: [backend],
    graphOptimizationLevel: 'all',
    // Errors only: at creation ORT warns that shape ops run on the CPU, which is by design.
    logSeverityLevel: 3,
    ...(gpuOutputs.length ? { preferredOutputLocation } : {}),
  });
}

function disposeAll(ts: (Ort.Tensor | undefined)[]): void {
  for (const t of ts) if (t && t.location !== 'cpu') t.dispose();
}
