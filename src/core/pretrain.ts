// Supervised phases on the engine: pretraining the base on a task's reference distribution
// (hinted contexts included, so the frozen base follows hints: it is the OPD teacher), and the
// "SFT on gold only" phase that compresses support before RL.
import type { PolicyEngine, PolicyShape } from './engine';
import { Rng } from './rng';
import { REFERENCE_DEFAULTS, referenceBatch, type ReferenceOptions } from './tasks/index';
import type { Task } from './tasks/types';
import { CONTEXT, VOCAB } from './tasks/vocab';

/** Seed of a pretrained base: the same for every run seed (a shipped checkpoint is one fixed model too). */
export const BASE_SEED = 0;

export interface SftOptions {
  steps: number;
  batch: number;
  lr: number;
  /** Softmax temperature of the SFT loss; train at the sampling temperature (default 0.6) so that
   *  sampling reproduces the reference mix. */
  temperature?: number;
  weightDecay?: number;
  maxGradNorm?: number;
  reference?: ReferenceOptions;
  onStep?: (step: number, loss: number) => void;
}

/** Runs `steps` SFT steps on reference batches drawn from `rng`; returns the losses. */
export async function sftSteps(engine: PolicyEngine, task: Task, rng: Rng, o: SftOptions): Promise<number[]> {
  const losses: number[] = [];
  const hyper = { lr: o.lr, beta1: 0.9, beta2: 0.98, eps: 1e-8, weightDecay: o.weightDecay ?? 0, maxGradNorm: o.maxGradNorm ?? 1, temperature: o.temperature ?? 0.6 };
  for (let s = 0; s < o.steps; s++) {
    const { tokens, lossMask } = referenceBatch(task, o.batch, rng, o.reference ?? REFERENCE_DEFAULTS);
    const m = await engine.sftStep({ batch: o.batch, tokens, lossMask }, hyper);
    losses.push(m.loss);
    o.onStep?.(s, m.loss);
  }
  return losses;
}

/**
 * Pretrain a base policy on the task's full reference distribution, from the weights and optimizer
 * state the engine holds (deterministic from the seed when that is a fresh engine's init: a loader
 * that reuses an engine puts the init back first, as workers/base.ts does).
 */
export function pretrainBase(engine: PolicyEngine, task: Task, seed: number, o: Omit<SftOptions, 'reference'>): Promise<number[]> {
  return sftSteps(engine, task, new Rng(seed ^ 0x5eed), { ...o, reference: REFERENCE_DEFAULTS });
}

/** SFT on the gold behavior of each state only, no hints. */
export function sftOnGold(engine: PolicyEngine, task: Task, rng: Rng, o: Omit<SftOptions, 'reference'>): Promise<number[]> {
  return sftSteps(engine, task, rng, { ...o, reference: { ...REFERENCE_DEFAULTS, goldOnly: true } });
}

/** The reference model shape (vocab and context fixed by the vocabulary layout). */
export function policyShape(c: { dModel: number; layers: number; heads: number; mlp: number }): PolicyShape {
  return { vocab: VOCAB, context: CONTEXT, dModel: c.dModel, layers: c.layers, heads: c.heads, mlp: c.mlp };
}
