// The WebGPU bench's cross-backend parts (`npm run bench -- --backend webgpu`): parity of the
// WebGPU engine against WASM on the same weights, and the ensembles P = 1, 8, 32, 64 on both
// backends timed in interleaved pairs in one process (so their ratio holds on a noisy machine).
import type { PolicyShape, PpoHyper, SampleRequest, TrainBatch } from '../core/engine';
import { Rng } from '../core/rng';
import { initParams, paramLayout } from '../model/layout';
import { interleaved } from './timing';
import { OrtPopulation, type OrtModule } from '../engine/ort-population';

export interface Backends {
  /** onnxruntime-web with the WebGPU EP (Node: ort.webgpu.mjs over Dawn). */
  webgpu: OrtModule;
  /** onnxruntime-web's Node build (WASM EP). */
  wasm: OrtModule;
}

export interface Parity {
  /** max |logπ_webgpu − logπ_wasm| over a scored batch, same weights. */
  score_logp_max_abs_diff: number;
  /** max |θ_webgpu − θ_wasm| after one PPO train step from the same weights and batch. */
  params_after_train_step_max_abs_diff: number;
  /** The largest parameter change the step made (what the difference above is small against). */
  train_step_max_abs_update: number;
}

export interface EnsembleSweepRow {
  p: number;
  /** Median ms of one population train step / one sampling pass, per backend. */
  train_ms: { webgpu: number; wasm: number };
  sample_ms: { webgpu: number; wasm: number };
  /** time(WASM) / time(WebGPU), from the median per-pair ratio (> 1: WebGPU faster). */
  webgpu_speedup_vs_wasm: { train: number; sample: number };
  /** P × time(P = 1) / time(P) per backend and phase (the row P = 1 is the reference). */
  per_seed_speedup: { webgpu: { train: number; sample: number }; wasm: { train: number; sample: number } };
}

const HYPER: PpoHyper = {
  lr: 1e-3, beta1: 0.9, beta2: 0.98, eps: 1e-8, weightDecay: 0.1, maxGradNorm: 1, clipLow: 0.2, clipHigh: 0.28,
  dualClip: 0, entropyCoef: 0, klCoef: 0, aggregation: 'token-mean', temperature: 1,
};

/** P members' sampling requests and, from what WASM sampled, their train requests (identical inputs on both backends). */
async function workload(pop: OrtPopulation, B: number, seed: number) {
  const T = pop.shape.context;
  const W = T - 1;
  const rng = new Rng(seed);
  const samples: SampleRequest[] = Array.from({ length: pop.size }, () => ({
    batch: B, prompt: new Int32Array(B * T).map((_, i) => (i % T === 0 ? 1 : 0)), promptLength: new Int32Array(B).fill(1),
    newTokens: W, temperature: 1, uniforms: rng.uniforms(B * W),
  }));
  const rollouts = await pop.sample(samples);
  const trains = rollouts.map((r) => {
    const batch: TrainBatch = {
      batch: B, tokens: r!.tokens, oldLogp: r!.logp, refLogp: r!.logp, lossMask: new Float32Array(B * W).fill(1),
      advantages: Float32Array.from({ length: B * W }, () => rng.next() - 0.5),
    };
    return { batch, hyper: HYPER };
  });
  return { samples, trains };
}

const maxAbsDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

/** Parity on the same weights (seeded init) and the same batch. */
export async function parity(ort: Backends, shape: PolicyShape, B: number): Promise<Parity> {
  const weights = [initParams(paramLayout(shape), 11)];
  const wasm = await OrtPopulation.create(ort.wasm, shape, { backend: 'wasm', seed: 11, weights });
  const gpu = await OrtPopulation.create(ort.webgpu, shape, { backend: 'webgpu', seed: 11, weights });
  const { trains } = await workload(wasm, B, 3);
  const tokens = trains[0].batch.tokens;
  const [a] = await wasm.score([{ batch: B, tokens, temperature: 1 }]);
  const [b] = await gpu.score([{ batch: B, tokens, temperature: 1 }]);
  await wasm.trainStep(trains);
  await gpu.trainStep(trains);
  const [wa, wg] = [await wasm.getWeights(0), await gpu.getWeights(0)];
  await wasm.dispose();
  await gpu.dispose();
  return {
    score_logp_max_abs_diff: maxAbsDiff(a!.logp, b!.logp),
    params_after_train_step_max_abs_diff: maxAbsDiff(wa, wg),
    train_step_max_abs_update: maxAbsDiff(wa, weights[0]),
  };
}

/** The ensembles on both backends, each P's four workloads timed in alternation (WASM, WebGPU, …). */
export async function ensembleSweep(ort: Backends, shape: PolicyShape, B: number, ps: readonly number[], reps: number, log: (m: string) => void = () => {}): Promise<EnsembleSweepRow[]> {
  const layout = paramLayout(shape);
  const rows: Omit<EnsembleSweepRow, 'per_seed_speedup'>[] = [];
  for (const P of ps) {
    const weights = Array.from({ length: P }, (_, p) => initParams(layout, 1 + p));
    const wasm = await OrtPopulation.create(ort.wasm, shape, { backend: 'wasm', size: P, seed: 1, weights });
    const gpu = await OrtPopulation.create(ort.webgpu, shape, { backend: 'webgpu', size: P, seed: 1, weights });
    const { samples, trains } = await workload(wasm, B, 2);
    const train = await interleaved(reps, () => wasm.trainStep(trains), () => gpu.trainStep(trains));
    const sample = await interleaved(Math.max(2, reps >> 1), () => wasm.sample(samples), () => gpu.sample(samples));
    await wasm.dispose();
    await gpu.dispose();
    rows.push({
      p: P,
      train_ms: { webgpu: train.b * 1000, wasm: train.a * 1000 },
      sample_ms: { webgpu: sample.b * 1000, wasm: sample.a * 1000 },
      webgpu_speedup_vs_wasm: { train: 1 / train.ratio, sample: 1 / sample.ratio },
    });
    log(`P = ${P}: train ${(train.b * 1000).toFixed(1)} ms WebGPU vs ${(train.a * 1000).toFixed(1)} ms WASM; sample ${(sample.b * 1000).toFixed(1)} vs ${(sample.a * 1000).toFixed(1)} ms`);
  }
  const one = rows.find((r) => r.p === 1) ?? rows[0];
  const perSeed = (r: (typeof rows)[number], k: 'webgpu' | 'wasm') => ({
    train: (r.p * one.train_ms[k]) / r.train_ms[k] / one.p,
    sample: (r.p * one.sample_ms[k]) / r.sample_ms[k] / one.p,
  });
  return rows.map((r) => ({ ...r, per_seed_speedup: { webgpu: perSeed(r, 'webgpu'), wasm: perSeed(r, 'wasm') } }));
}
