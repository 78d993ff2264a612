// The benchmark behind `npm run bench`: the reference model on one backend, every number measured
// in the same run (so ratios are meaningful on a noisy machine). Runs in Node and in a browser worker.
import type { PolicyShape, PpoHyper } from '../core/engine';
import { Rng } from '../core/rng';
import { Graph } from '../graph/builder';
import { encodeModel } from '../graph/encode';
import { matmul } from '../graph/ops';
import { forwardFlops, trainStepFlops } from '../model/flops';
import { benchOutputLayouts, loopStepCosts, phaseCosts, type Costs, type GpuCounter, type LoopStepCosts, type OutputLayoutsBench } from './costs';
import { benchEnsemble, type EnsembleBench } from './ensemble';
import { REFERENCE_BATCH, REFERENCE_SHAPE, interleaved, timeIt } from './timing';
import { OrtEngine, type Backend, type OrtModule } from '../engine/ort-engine';

export { REFERENCE_BATCH, REFERENCE_SHAPE } from './timing';

export interface BenchOptions {
  backend: Backend;
  /** Timed repetitions per measurement. */
  reps: number;
  /** Train steps of the memory-growth check (0 skips it). */
  leakSteps: number;
  /** Population size of the ensemble figures (0 skips them; default 8). */
  ensembleP?: number;
  /** Reports memory in use (bytes) on this platform; undefined where none can be read. */
  memory?: () => Record<string, number>;
  /** Model and batch (default the reference workload; the WebGPU --quick run on SwiftShader takes a tiny one). */
  shape?: PolicyShape;
  batch?: number;
  /** Side of the roofline MatMul (default 512). */
  rooflineN?: number;
  /** WebGPU API call counts (Node over Dawn), added to `costs`. */
  gpu?: GpuCounter;
  /** Steps of the lab loop whose session runs are counted (`loop_step`; 0 skips it; default 5). */
  loopSteps?: number;
}

/** Options of a benchmark run in a browser worker (`npm run bench -- --browser`). */
export interface BrowserBenchOptions {
  /** ort.env.wasm.numThreads for this worker (set before the first session). */
  numThreads?: number;
  ensembleP?: number;
}

/** What a browser benchmark worker saw: isolation, WASM threads, the WebGPU adapter. */
export interface BrowserBenchEnv {
  cross_origin_isolated: boolean;
  wasm_threads: number;
  adapter?: string;
}

export interface BenchResult extends Partial<EnsembleBench> {
  backend: string;
  model: PolicyShape & { batch: number; params: number };
  train_steps_per_s: number;
  train_ms: number;
  train_gflops: number;
  matmul_roofline_gflops: number;
  train_roofline_fraction: number;
  score_tokens_per_s: number;
  score_gflops: number;
  sample_tokens_per_s: number;
  sample_tokens_per_s_recompute: number;
  kv_cache_speedup: number;
  profile: Record<string, number>;
  memory?: { steps: number; before: Record<string, number>; after: Record<string, number>; growth: Record<string, number> };
  /** Transfers of one call per phase (session runs, uploads, readbacks; WebGPU calls in Node): costs.ts. */
  costs: Costs;
  /** The fused output layout (one readback per run) against the separate one: counts and interleaved times. */
  output_layouts: OutputLayoutsBench;
  /** Session runs and transfers of one step of the lab loop (default config). */
  loop_step?: LoopStepCosts;
}

const ROOFLINE_N = 512;

/** A 512³ MatMul session on the backend: the roofline a train step is compared with. */
export async function matmulRoofline(ort: OrtModule, backend: Backend, n = ROOFLINE_N): Promise<{ run: () => Promise<unknown>; flops: number; release: () => Promise<void> }> {
  const g = new Graph('roofline');
  const a = g.input('a', 'float32', [n, n]);
  const b = g.input('b', 'float32', [n, n]);
  g.output('c', matmul(a, b));
  const session = await ort.InferenceSession.create(encodeModel(g), { executionProviders: [backend] });
  const rng = new Rng(1);
  const feeds = {
    a: new ort.Tensor('float32', rng.uniforms(n * n), [n, n]),
    b: new ort.Tensor('float32', rng.uniforms(n * n), [n, n]),
  };
  return { run: async () => (await session.run(feeds)).c.getData(), flops: 2 * n ** 3, release: () => session.release() };
}

export async function runBenchmark(ort: OrtModule, opts: BenchOptions): Promise<BenchResult> {
  const shape = opts.shape ?? REFERENCE_SHAPE;
  const B = opts.batch ?? REFERENCE_BATCH;
  const T = shape.context;
  const W = T - 1;
  const engine = await OrtEngine.create(ort, shape, { backend: opts.backend, seed: 1 });
  const rng = new Rng(2);
  const prompt = new Int32Array(B * T).map((_, i) => (i % T === 0 ? 1 : 0));
  const sampleReq = {
    batch: B, prompt, promptLength: new Int32Array(B).fill(1), newTokens: W, temperature: 1, uniforms: rng.uniforms(B * W),
  };
  const rollout = await engine.sample(sampleReq);
  const scored = await engine.score({ batch: B, tokens: rollout.tokens, temperature: 1 });
  const batch = {
    batch: B, tokens: rollout.tokens, oldLogp: scored.logp, refLogp: scored.logp,
    advantages: Float32Array.from({ length: B * W }, () => rng.next() - 0.5),
    lossMask: new Float32Array(B * W).fill(1),
  };
  const hyper: PpoHyper = {
    lr: 1e-4, beta1: 0.9, beta2: 0.98, eps: 1e-8, weightDecay: 0.1, maxGradNorm: 1, clipLow: 0.2, clipHigh: 0.28,
    dualClip: 0, entropyCoef: 0, klCoef: 0, aggregation: 'token-mean', temperature: 1,
  };
  const mm = await matmulRoofline(ort, opts.backend, opts.rooflineN);
  const trainVsMatmul = await interleaved(opts.reps, mm.run, () => engine.trainStep(batch, hyper));
  await mm.release();
  const train = trainVsMatmul.b;
  const roofline = mm.flops / trainVsMatmul.a / 1e9;
  const sft = await timeIt(opts.reps, () => engine.sftStep(batch, hyper));
  const score = await timeIt(opts.reps, () => engine.score({ batch: B, tokens: rollout.tokens, temperature: 1 }));
  const sampling = await interleaved(Math.max(3, opts.reps >> 1), () => engine.sample(sampleReq), () => engine.sampleRecompute(sampleReq));
  const kv = sampling.a;
  const recompute = sampling.b;

  let memory: BenchResult['memory'];
  if (opts.leakSteps > 0 && opts.memory) {
    for (let i = 0; i < 20; i++) await engine.trainStep(batch, hyper); // reach steady state first
    const before = opts.memory();
    for (let i = 0; i < opts.leakSteps; i++) await engine.trainStep(batch, hyper);
    const after = opts.memory();
    const growth = Object.fromEntries(Object.keys(before).map((k) => [k, after[k] - before[k]]));
    memory = { steps: opts.leakSteps, before, after, growth };
  }
  const costs = await phaseCosts(engine.population, {
    sample: sampleReq, score: { batch: B, tokens: rollout.tokens, temperature: 1 }, train: { batch, hyper }, sft: { batch, hyper },
  }, opts.gpu);
  await engine.dispose();
  const outputLayouts = await benchOutputLayouts(ort, opts.backend, shape, B, opts.reps, opts.gpu);
  const loopSteps = opts.loopSteps ?? 5;
  const loop = loopSteps > 0 ? await loopStepCosts(ort, opts.backend, loopSteps) : undefined;
  const ensemble = (opts.ensembleP ?? 8) > 0 ? await benchEnsemble(ort, opts.backend, opts.ensembleP ?? 8, opts.reps, { shape, batch: B }) : {};
  const trainGflops = trainStepFlops(shape, B) / train / 1e9;
  return {
    backend: opts.backend,
    model: { ...shape, batch: B, params: engine.layout.total },
    train_steps_per_s: 1 / train,
    train_ms: train * 1000,
    train_gflops: trainGflops,
    matmul_roofline_gflops: roofline,
    // paired: (train GFLOP/s) / (MatMul GFLOP/s) from the median per-pair time ratio
    train_roofline_fraction: (trainStepFlops(shape, B) / mm.flops) / trainVsMatmul.ratio,
    score_tokens_per_s: (B * T) / score,
    score_gflops: forwardFlops(shape, B) / score / 1e9,
    sample_tokens_per_s: (B * W) / kv,
    sample_tokens_per_s_recompute: (B * W) / recompute,
    kv_cache_speedup: sampling.ratio,
    // Phases of one PPO step: the forward pass (= score), backward + AdamW (the rest), and the
    // SFT step for comparison (same graph minus the PPO terms).
    profile: {
      forward_ms: score * 1000,
      backward_and_adam_ms: (train - score) * 1000,
      sft_step_ms: sft * 1000,
      forward_share: score / train,
    },
    memory,
    costs,
    output_layouts: outputLayouts,
    loop_step: loop,
    ...ensemble,
  };
}
