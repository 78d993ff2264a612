// The fused output layout (one readback per run) against the separate one it replaced, on WASM:
// the same values bit for bit, from single engine calls up to the lab loop's frames, and the
// counted readbacks per run (generate / score / train: 1 vs 3 / 2 / 4).
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../core/config';
import type { PolicyShape, PpoHyper } from '../core/engine';
import { Run } from '../core/loop';
import { policyShape } from '../core/pretrain';
import { Rng } from '../core/rng';
import { initParams, paramLayout } from '../model/layout';
import type { OutputLayout } from '../model/graphs';
import { OrtEngine, OrtPopulation, ort } from './node';

const SHAPE: PolicyShape = { vocab: 16, context: 8, dModel: 16, layers: 1, heads: 2, mlp: 32 };
const T = SHAPE.context;
const W = T - 1;
const B = 3;
const HYPER: PpoHyper = {
  lr: 1e-2, beta1: 0.9, beta2: 0.98, eps: 1e-8, weightDecay: 0.1, maxGradNorm: 1, clipLow: 0.2, clipHigh: 0.28,
  dualClip: 0, entropyCoef: 0.01, klCoef: 0.1, aggregation: 'token-mean', temperature: 0.8,
};

/** Two members' sample → score → two train steps; every array the engine returned, and its run costs. */
async function workload(outputs: OutputLayout) {
  const layout = paramLayout(SHAPE);
  const weights = [initParams(layout, 1), initParams(layout, 2)];
  const pop = await OrtPopulation.create(ort, SHAPE, { backend: 'wasm', size: 2, seed: 0, weights, outputs });
  const rng = new Rng(5);
  const sampled = await pop.sample(weights.map(() => ({
    batch: B, prompt: new Int32Array(B * T).fill(1), promptLength: new Int32Array(B).fill(2), newTokens: W - 2, temperature: 0.8, uniforms: rng.uniforms(B * (W - 2)),
  })));
  const scored = await pop.score(sampled.map((s) => ({ batch: B, tokens: s!.tokens, temperature: 0.8 })));
  const trains = sampled.map((s, p) => ({
    hyper: HYPER,
    batch: {
      batch: B, tokens: s!.tokens, oldLogp: s!.logp, refLogp: scored[p]!.logp, lossMask: Float32Array.from({ length: B * W }, (_, i) => (i % 3 ? 1 : 0)),
      advantages: Float32Array.from({ length: B * W }, () => rng.next() - 0.5),
    },
  }));
  const metrics = [await pop.trainStep(trains), await pop.trainStep([trains[0], null])];
  const after = [await pop.getWeights(0), await pop.getWeights(1)];
  const costs = pop.costs.read();
  await pop.dispose();
  return { values: { sampled, scored, metrics, after }, costs };
}

describe('fused outputs (one readback per run)', () => {
  it('return the separate layout\'s values bit for bit, with one readback per run', async () => {
    const fused = await workload('fused');
    const separate = await workload('separate');
    expect(fused.values).toEqual(separate.values);
    const per = (c: typeof fused.costs, phase: 'generate' | 'score' | 'train') => c.phases[phase]!.readbacks / c.phases[phase]!.runs;
    // train: + 3 on WASM, where the new parameters and moments come back as well (WebGPU keeps them on the device)
    expect([per(fused.costs, 'generate'), per(fused.costs, 'score'), per(fused.costs, 'train')]).toEqual([1, 1, 1 + 3]);
    expect([per(separate.costs, 'generate'), per(separate.costs, 'score'), per(separate.costs, 'train')]).toEqual([3, 2, 4 + 3]); // train: gradNorm, ratio, logp, entropy
    // the same bytes come back, in fewer pieces
    expect(fused.costs.readback_bytes).toBe(separate.costs.readback_bytes);
  }, 120_000);

  it('leave the lab loop\'s frames unchanged (OPD + KL, K = 2)', async () => {
    const cfg = makeConfig({ task: 'assistant', method: 'combine', dModel: 16, layers: 1, heads: 2, mlp: 32, lr: 3e-3, rolloutBatch: 8, behaviorSamples: 4, updatesPerRollout: 2, klCoef: 0.1 });
    const shape = policyShape(cfg);
    const frames = async (outputs: OutputLayout) => {
      const engine = OrtEngine.of(await OrtPopulation.create(ort, shape, { backend: 'wasm', seed: 3, outputs }));
      const run = await Run.create(engine, cfg);
      const out = [];
      for (let s = 0; s < 2; s++) {
        const { perf: _perf, ...frame } = await run.step(); // perf: wall-clock speed
        out.push(frame);
      }
      await engine.dispose();
      return out;
    };
    expect(await frames('fused')).toEqual(await frames('separate'));
  }, 300_000);
});
