// The bench's transfer counts (`costs`, `output_layouts`, `loop_step`): what one train step, sampling
// pass, score pass and SFT step cost in session runs, uploads and readbacks (and, on WebGPU in Node,
// in WebGPU calls: kernels dispatched, submits, buffer maps), for both output layouts, with the two
// layouts' times measured in interleaved pairs; and what one step of the lab loop costs in runs.
// Counts do not depend on the machine (they transfer from SwiftShader to a real GPU); times do.
import { makeConfig } from '../core/config';
import type { PolicyShape, PpoHyper, SampleRequest, ScoreRequest, SftBatch, TrainBatch } from '../core/engine';
import { Run } from '../core/loop';
import { policyShape } from '../core/pretrain';
import { Rng } from '../core/rng';
import type { Graph } from '../graph/builder';
import { buildGenerateGraph, buildScoreGraph, buildSftGraph, buildTrainGraph, type OutputLayout } from '../model/graphs';
import { ppoTermsFor } from '../model/ppo-head';
import { initParams, paramLayout } from '../model/layout';
import { interleaved } from './timing';
import type { GpuCalls } from '../engine/node-webgpu';
import { OrtEngine } from '../engine/ort-engine';
import { OrtPopulation, type Backend, type OrtModule } from '../engine/ort-population';
import { sortedCounts, type RunCosts } from '../engine/run-costs';

export interface GpuCounter {
  read(): GpuCalls;
  reset(): void;
}

/**
 * One call's counts, and the ONNX nodes of the phase's graph per op type as built (before
 * onnxruntime's own optimizations; Reshape, Unsqueeze and Shape run no kernel). On WebGPU `gpu.kernels`
 * is what ran: dispatches per kernel as onnxruntime names its programs.
 */
export type PhaseCosts = RunCosts & { gpu?: GpuCalls; graph_nodes: Record<string, number> };

export interface Costs {
  train_step: PhaseCosts;
  sample_pass: PhaseCosts;
  score_pass: PhaseCosts;
  sft_step: PhaseCosts;
}

export interface OutputLayoutsBench {
  /** Per layout: the counts of one call of each phase. */
  costs: Record<OutputLayout, Costs>;
  /** Median ms per call, the two layouts timed in interleaved pairs. */
  ms: Record<OutputLayout, { train: number; sample: number; score: number }>;
  /** time(separate) / time(fused) from the median per-pair ratio (> 1: fusing was faster). */
  fused_speedup: { train: number; sample: number; score: number };
}

const HYPER: PpoHyper = {
  lr: 1e-4, beta1: 0.9, beta2: 0.98, eps: 1e-8, weightDecay: 0.1, maxGradNorm: 1, clipLow: 0.2, clipHigh: 0.28,
  dualClip: 0, entropyCoef: 0, klCoef: 0, aggregation: 'token-mean', temperature: 1,
};

export interface Workload {
  sample: SampleRequest;
  score: ScoreRequest;
  train: { batch: TrainBatch; hyper: PpoHyper };
  sft: { batch: SftBatch; hyper: PpoHyper };
}

export async function workload(pop: OrtPopulation, B: number): Promise<Workload> {
  const T = pop.shape.context;
  const W = T - 1;
  const rng = new Rng(2);
  const sample: SampleRequest = {
    batch: B, prompt: new Int32Array(B * T).map((_, i) => (i % T === 0 ? 1 : 0)), promptLength: new Int32Array(B).fill(1), newTokens: W, temperature: 1, uniforms: rng.uniforms(B * W),
  };
  const [r] = await pop.sample([sample]);
  const batch: TrainBatch = {
    batch: B, tokens: r!.tokens, oldLogp: r!.logp, refLogp: r!.logp, lossMask: new Float32Array(B * W).fill(1),
    advantages: Float32Array.from({ length: B * W }, () => rng.next() - 0.5),
  };
  return {
    sample, score: { batch: B, tokens: r!.tokens, temperature: 1 }, train: { batch, hyper: HYPER },
    sft: { batch: { batch: B, tokens: r!.tokens, lossMask: batch.lossMask }, hyper: HYPER },
  };
}

/** The counts of ONE call (after a warm-up call: first runs allocate and compile). */
async function countOne(pop: OrtPopulation, gpu: GpuCounter | undefined, graph: Graph, f: () => Promise<unknown>): Promise<PhaseCosts> {
  await f();
  pop.costs.reset();
  gpu?.reset();
  await f();
  const { phases: _phases, ...run } = pop.costs.read();
  const graph_nodes = nodeCounts(graph);
  return gpu ? { ...run, gpu: gpu.read(), graph_nodes } : { ...run, graph_nodes };
}

/** ONNX nodes per op type (graph outputs' Identity nodes left out), largest count first. */
export function nodeCounts(g: Graph): Record<string, number> {
  const out = new Map<string, number>();
  const outputs = new Set(g.outputs.map((o) => o.tensor));
  for (const n of g.nodes) if (!n.outputs.some((t) => outputs.has(t))) out.set(n.op, (out.get(n.op) ?? 0) + 1);
  return sortedCounts(Object.fromEntries(out));
}

export async function phaseCosts(pop: OrtPopulation, w: Workload, gpu?: GpuCounter): Promise<Costs> {
  const { layout, size: P, outputs } = pop;
  return {
    train_step: await countOne(pop, gpu, buildTrainGraph(layout, P, 'float32', outputs, ppoTermsFor([w.train.hyper])), () => pop.trainStep([w.train])),
    sample_pass: await countOne(pop, gpu, buildGenerateGraph(layout, true, P, 'float32', outputs), () => pop.sample([w.sample])),
    score_pass: await countOne(pop, gpu, buildScoreGraph(layout, P, 'float32', outputs), () => pop.score([w.score])),
    sft_step: await countOne(pop, gpu, buildSftGraph(layout, P), () => pop.sftStep([w.sft])),
  };
}

/** Both output layouts on one backend (P = 1): counts, and times in interleaved pairs. */
export async function benchOutputLayouts(ort: OrtModule, backend: Backend, shape: PolicyShape, B: number, reps: number, gpu?: GpuCounter): Promise<OutputLayoutsBench> {
  const weights = initParams(paramLayout(shape), 1);
  const make = (outputs: OutputLayout) => OrtPopulation.create(ort, shape, { backend, seed: 1, weights, outputs });
  const fused = await make('fused');
  const separate = await make('separate');
  const w = await workload(fused, B);
  const costs = { fused: await phaseCosts(fused, w, gpu), separate: await phaseCosts(separate, w, gpu) };
  const train = await interleaved(reps, () => separate.trainStep([w.train]), () => fused.trainStep([w.train]));
  const sample = await interleaved(Math.max(2, reps >> 1), () => separate.sample([w.sample]), () => fused.sample([w.sample]));
  const score = await interleaved(reps, () => separate.score([w.score]), () => fused.score([w.score]));
  await fused.dispose();
  await separate.dispose();
  const ms = (t: { a: number; b: number }, k: 'a' | 'b') => t[k] * 1000;
  return {
    costs,
    ms: {
      fused: { train: ms(train, 'b'), sample: ms(sample, 'b'), score: ms(score, 'b') },
      separate: { train: ms(train, 'a'), sample: ms(sample, 'a'), score: ms(score, 'a') },
    },
    fused_speedup: { train: 1 / train.ratio, sample: 1 / sample.ratio, score: 1 / score.ratio },
  };
}

export interface LoopStepCosts {
  /** What was run: the default lab config (seed 1) on this model. */
  config: string;
  steps: number;
  /** Mean per loop step (serve rounds, π_old recompute, train, behavior measure). */
  per_step: RunCosts & { phases: Record<string, RunCosts> };
}

/** One lab loop step's session runs and transfers, averaged over `steps` steps of the default config. */
export async function loopStepCosts(ort: OrtModule, backend: Backend, steps: number, overrides: Record<string, unknown> = {}): Promise<LoopStepCosts> {
  const cfg = makeConfig({ seed: 1, ...overrides });
  const pop = await OrtPopulation.create(ort, policyShape(cfg), { backend, seed: 1 });
  const run = await Run.create(OrtEngine.of(pop), cfg);
  await run.step();
  pop.costs.reset();
  for (let s = 0; s < steps; s++) await run.step();
  const total = pop.costs.read();
  run.dispose();
  await pop.dispose();
  const mean = (c: RunCosts): RunCosts => Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v / steps])) as unknown as RunCosts;
  const { phases, ...all } = total;
  return {
    config: `defaults${Object.keys(overrides).length ? ` + ${JSON.stringify(overrides)}` : ''} (task ${cfg.task}, method ${cfg.method}, batch ${cfg.rolloutBatch}, turns ${cfg.sessionTurns}, measure every ${cfg.measureEvery})`,
    steps,
    per_step: { ...mean(all), phases: Object.fromEntries(Object.entries(phases).map(([k, c]) => [k, mean(c!)])) },
  };
}

/**
 * Kernels of one default lab step from the phases' counts: two sampling passes (the serve round and
 * the behavior measure), the π_old score and the train step (`loop_step` counts the runs).
 */
export function labStepDispatches(c: Costs): number | undefined {
  const d = (p: PhaseCosts) => p.gpu?.dispatches;
  const [sample, score, train] = [d(c.sample_pass), d(c.score_pass), d(c.train_step)];
  return sample === undefined || score === undefined || train === undefined ? undefined : 2 * sample + score + train;
}

/** Only the counts (`--costs-only`): one population, one warm-up and one counted call per phase. */
export async function costsOnly(ort: OrtModule, backend: Backend, shape: PolicyShape, B: number, gpu?: GpuCounter) {
  const pop = await OrtPopulation.create(ort, shape, { backend, seed: 1, weights: initParams(paramLayout(shape), 1) });
  const costs = await phaseCosts(pop, await workload(pop, B), gpu);
  await pop.dispose();
  return { model: { ...shape, batch: B }, costs, lab_step_dispatches: labStepDispatches(costs) };
}
