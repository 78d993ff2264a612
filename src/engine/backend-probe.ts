// The timed probe behind "auto": the actual model (shape, population size, batch) on one backend,
// a few rounds of one sampling pass + one PPO train step (what a training step costs, roughly), so
// the backend is chosen by what it measured on this machine, never by "an adapter exists".
import type { PolicyShape, PpoHyper, SampleRequest, TrainBatch } from '../core/engine';
import type { OrtPopulation } from './ort-population';

export interface ProbeWorkload {
  shape: PolicyShape;
  /** Population size in use (1 in the lab; the variant's seeds on the experiments page). */
  size: number;
  /** Rows per member (the config's rollout batch). */
  batch: number;
}

/** What the WebGPU probe worker (probe.worker.ts) answers. */
export type ProbeReply = { ok: true; stepsPerSecond: number } | { ok: false; error: string };

/** Timed rounds after one warm-up round (WebGPU compiles its shaders there). */
export const PROBE_ROUNDS = 3;

/** lr 0 and no decay: the probe leaves the weights as they were (moments are reset by setWeights). */
const PROBE_HYPER: PpoHyper = {
  lr: 0, beta1: 0.9, beta2: 0.98, eps: 1e-8, weightDecay: 0, maxGradNorm: 1, clipLow: 0.2, clipHigh: 0.28,
  dualClip: 0, entropyCoef: 0, klCoef: 0, aggregation: 'token-mean', temperature: 1,
};

/** One probe round for every member: a sampling pass of `batch` rows, then a train step on what it sampled. */
async function probeRound(pop: OrtPopulation, batch: number): Promise<void> {
  const T = pop.shape.context;
  const W = T - 1;
  const sample: SampleRequest = {
    batch, prompt: new Int32Array(batch * T).map((_, i) => (i % T === 0 ? 1 : 0)), promptLength: new Int32Array(batch).fill(1),
    newTokens: W, temperature: 1, uniforms: Float32Array.from({ length: batch * W }, (_, i) => ((i * 0.618034) % 1)),
  };
  const rollouts = await pop.sample(new Array(pop.size).fill(sample));
  const train = rollouts.map((r) => {
    const b: TrainBatch = {
      batch, tokens: r!.tokens, oldLogp: r!.logp, refLogp: r!.logp, lossMask: new Float32Array(batch * W).fill(1),
      advantages: Float32Array.from({ length: batch * W }, (_, i) => (i % 2 ? 0.5 : -0.5)),
    };
    return { batch: b, hyper: PROBE_HYPER };
  });
  await pop.trainStep(train);
}

/** Training steps per second the population reached (median round), after one warm-up round. */
export async function probeStepsPerSecond(pop: OrtPopulation, batch: number, rounds = PROBE_ROUNDS): Promise<number> {
  await probeRound(pop, batch);
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await probeRound(pop, batch);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return 1000 / Math.max(times[times.length >> 1], 1e-3);
}
