// The ensemble part of `npm run bench`: the reference model's train step and sampling pass for a
// population of P seeds in ONE session run vs a single run (P = 1), timed in interleaved pairs in
// the same process. Per-seed speedup = P × time(P = 1) / time(P), from the median per-pair ratio.
import type { PolicyShape, PpoHyper, SampleRequest, TrainBatch } from '../core/engine';
import { Rng } from '../core/rng';
import { initParams, paramLayout } from '../model/layout';
import { OrtPopulation, type Backend, type OrtModule } from '../engine/ort-population';
import { REFERENCE_BATCH, REFERENCE_SHAPE, interleaved, timeIt } from './timing';

export interface EnsembleBench {
  ensemble_p: number;
  /** Median ms of one train step: the single run and the whole population. */
  ensemble_train_ms: { single: number; population: number };
  /** Median ms of one sampling pass (REFERENCE_BATCH rows × 15 tokens per member). */
  ensemble_sample_ms: { single: number; population: number };
  /** P × time(P = 1) / time(P), per phase (≥ 3 is the target on WASM). */
  ensemble_per_seed_speedup: { train: number; sample: number };
  /**
   * What limits the speedup: the single run's ms with ONE row instead of REFERENCE_BATCH (the
   * per-run cost that batching members can share: dispatch, and for train the AdamW pass over N),
   * and the share of the full-batch time it makes up.
   */
  ensemble_floor_ms: { train: number; sample: number; train_share: number; sample_share: number };
}

export async function benchEnsemble(ort: OrtModule, backend: Backend, P: number, reps: number, work: { shape?: PolicyShape; batch?: number } = {}): Promise<EnsembleBench> {
  const shape = work.shape ?? REFERENCE_SHAPE;
  const B = work.batch ?? REFERENCE_BATCH;
  const T = shape.context;
  const W = T - 1;
  const layout = paramLayout(shape);
  const weights = Array.from({ length: P }, (_, p) => initParams(layout, 1 + p));
  const single = await OrtPopulation.create(ort, shape, { backend, size: 1, seed: 1, weights: weights.slice(0, 1) });
  const pop = await OrtPopulation.create(ort, shape, { backend, size: P, seed: 1, weights });
  const rng = new Rng(2);
  // member p samples its own batch (own uniforms), then trains on it
  const sampleReqs: SampleRequest[] = weights.map(() => ({
    batch: B, prompt: new Int32Array(B * T).map((_, i) => (i % T === 0 ? 1 : 0)), promptLength: new Int32Array(B).fill(1),
    newTokens: W, temperature: 1, uniforms: rng.uniforms(B * W),
  }));
  const rollouts = await pop.sample(sampleReqs);
  const scored = await pop.score(rollouts.map((r) => ({ batch: B, tokens: r!.tokens, temperature: 1 })));
  const hyper: PpoHyper = {
    lr: 1e-4, beta1: 0.9, beta2: 0.98, eps: 1e-8, weightDecay: 0.1, maxGradNorm: 1, clipLow: 0.2, clipHigh: 0.28,
    dualClip: 0, entropyCoef: 0, klCoef: 0, aggregation: 'token-mean', temperature: 1,
  };
  const trainReqs = rollouts.map((r, p) => {
    const batch: TrainBatch = {
      batch: B, tokens: r!.tokens, oldLogp: scored[p]!.logp, refLogp: scored[p]!.logp,
      advantages: Float32Array.from({ length: B * W }, () => rng.next() - 0.5), lossMask: new Float32Array(B * W).fill(1),
    };
    return { batch, hyper };
  });
  const train = await interleaved(reps, () => single.trainStep(trainReqs.slice(0, 1)), () => pop.trainStep(trainReqs));
  const sample = await interleaved(Math.max(3, reps >> 1), () => single.sample(sampleReqs.slice(0, 1)), () => pop.sample(sampleReqs));
  // one row of the same workload: the per-run floor
  const t0 = trainReqs[0].batch;
  const row1Train = {
    hyper, batch: { batch: 1, tokens: t0.tokens.slice(0, T), oldLogp: t0.oldLogp.slice(0, W), refLogp: t0.refLogp.slice(0, W), advantages: t0.advantages.slice(0, W), lossMask: t0.lossMask.slice(0, W) },
  };
  const s0 = sampleReqs[0];
  const row1Sample = { ...s0, batch: 1, prompt: s0.prompt.slice(0, T), promptLength: s0.promptLength.slice(0, 1), uniforms: s0.uniforms.slice(0, W) };
  const floorTrain = await timeIt(reps, () => single.trainStep([row1Train]));
  const floorSample = await timeIt(Math.max(3, reps >> 1), () => single.sample([row1Sample]));
  await single.dispose();
  await pop.dispose();
  return {
    ensemble_p: P,
    ensemble_train_ms: { single: train.a * 1000, population: train.b * 1000 },
    ensemble_sample_ms: { single: sample.a * 1000, population: sample.b * 1000 },
    ensemble_per_seed_speedup: { train: P / train.ratio, sample: P / sample.ratio },
    ensemble_floor_ms: { train: floorTrain * 1000, sample: floorSample * 1000, train_share: floorTrain / train.a, sample_share: floorSample / sample.a },
  };
}
