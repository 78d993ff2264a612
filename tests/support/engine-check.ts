// A fixed, deterministic engine workout (sample → score → PPO steps → SFT step) whose numbers are
// compared across backends: the same script runs on WASM in Node and on WebGPU/WASM in a browser
// worker, and the e2e test asserts they agree.
import type { PolicyEngine, PolicyShape, PpoHyper } from '../../src/core/engine';
import { Rng } from '../../src/core/rng';

export const CHECK_SHAPE: PolicyShape = { vocab: 32, context: 12, dModel: 32, layers: 2, heads: 4, mlp: 64 };

export interface EngineCheckResult {
  tokens: number[];
  sampleLogp: number[];
  scoreLogp: number[];
  train: { loss: number; pgLoss: number; clipfracLow: number; clipfracHigh: number; ppoKl: number; entropy: number; gradNorm: number }[];
  sftLoss: number;
  finalLogp: number[];
  paramsLocation: string;
}

export async function engineCheck(engine: PolicyEngine & { paramsLocation: string }, steps = 3): Promise<EngineCheckResult> {
  const { context: T } = engine.shape;
  const W = T - 1;
  const B = 8;
  const rng = new Rng(17);
  const prompt = new Int32Array(B * T).map((_, i) => (i % T === 0 ? 1 : i % T === 1 ? 2 + (i % 3) : 0));
  const newTokens = W - 1;
  const sample = await engine.sample({
    batch: B, prompt, promptLength: new Int32Array(B).fill(2), newTokens, temperature: 0.9, uniforms: rng.uniforms(B * newTokens),
  });
  const scored = await engine.score({ batch: B, tokens: sample.tokens, temperature: 0.9 });
  const lossMask = Float32Array.from({ length: B * W }, (_, i) => (i % W >= 1 ? 1 : 0));
  const advantages = Float32Array.from({ length: B * W }, (_, i) => Math.sin(i * 0.7) * 2);
  const hyper: PpoHyper = {
    lr: 3e-3, beta1: 0.9, beta2: 0.98, eps: 1e-8, weightDecay: 0.1, maxGradNorm: 1, clipLow: 0.2, clipHigh: 0.28,
    dualClip: 3, entropyCoef: 0.01, klCoef: 0.05, aggregation: 'token-mean', temperature: 0.9,
  };
  const train: EngineCheckResult['train'] = [];
  for (let k = 0; k < steps; k++) {
    // oldLogp stays the rollout's: from the second update on ρ ≠ 1 and the clip can bind
    const m = await engine.trainStep({ batch: B, tokens: sample.tokens, advantages, oldLogp: sample.logp, refLogp: scored.logp, lossMask }, hyper);
    const { ratio: _ratio, ...scalars } = m;
    train.push(scalars);
  }
  const sft = await engine.sftStep({ batch: B, tokens: sample.tokens, lossMask }, hyper);
  const final = await engine.score({ batch: B, tokens: sample.tokens, temperature: 0.9 });
  return {
    tokens: Array.from(sample.tokens),
    sampleLogp: Array.from(sample.logp),
    scoreLogp: Array.from(scored.logp),
    train,
    sftLoss: sft.loss,
    finalLogp: Array.from(final.logp),
    paramsLocation: engine.paramsLocation,
  };
}
