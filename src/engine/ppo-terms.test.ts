// The train graph without the KL and entropy terms (src/model/ppo-head.ts, PpoTerms) is the one with
// them bit for bit where β_KL = β_ent = 0, and the engine takes the one with them where a
// coefficient is not 0 (else the terms would be silently dropped).
import { describe, expect, it } from 'vitest';
import type { PpoHyper, PolicyShape, TrainBatch } from '../core/engine';
import { Rng } from '../core/rng';
import { encodeModel } from '../graph/encode';
import { buildTrainGraph, HYPER_FIELDS, hyperRow } from '../model/graphs';
import { initParams, paramLayout } from '../model/layout';
import { ppoTokenInputs } from '../model/ppo-coefs';
import { ALL_PPO_TERMS, PPO_TOKEN_INPUTS, type PpoTerms } from '../model/ppo-head';
import { createNodeEngine, ort } from './node';

const SHAPE: PolicyShape = { vocab: 16, context: 8, dModel: 16, layers: 1, heads: 2, mlp: 32 };
const [T, W, B] = [8, 7, 6];
const HYPER: PpoHyper = {
  lr: 1e-2, beta1: 0.9, beta2: 0.98, eps: 1e-8, weightDecay: 0.1, maxGradNorm: 1,
  clipLow: 0.2, clipHigh: 0.28, dualClip: 0, entropyCoef: 0, klCoef: 0, aggregation: 'token-mean', temperature: 0.9,
};

function batch(seed: number): TrainBatch {
  const rng = new Rng(seed);
  const n = B * W;
  const f = (g: () => number) => Float32Array.from({ length: n }, g);
  // masked tokens (w = 0: a −0 policy-gradient coefficient where A > 0) and A = 0 included
  return {
    batch: B, tokens: Int32Array.from({ length: B * T }, () => rng.int(SHAPE.vocab)), advantages: f(() => (rng.next() < 0.1 ? 0 : rng.next() * 2 - 1)),
    oldLogp: f(() => -3 + rng.next()), refLogp: f(() => -3 - rng.next()), lossMask: f(() => (rng.next() < 0.7 ? 1 : 0)),
  };
}

/** All outputs of one train step of graph `terms` on WASM. */
async function step(terms: PpoTerms, b: TrainBatch, h: PpoHyper): Promise<Float32Array[]> {
  const layout = paramLayout(SHAPE);
  const g = buildTrainGraph(layout, 1, 'float32', 'fused', terms);
  const s = await ort.InferenceSession.create(encodeModel(g), { executionProviders: ['wasm'], logSeverityLevel: 3 });
  const N = layout.total;
  const hyper = hyperRow(h, 3, true);
  const out = await s.run({
    params: new ort.Tensor('float32', initParams(layout, 5), [1, N]),
    m: new ort.Tensor('float32', Float32Array.from({ length: N }, (_, i) => 1e-3 * Math.sin(i)), [1, N]),
    v: new ort.Tensor('float32', Float32Array.from({ length: N }, (_, i) => 1e-6 * (1 + Math.cos(i))), [1, N]),
    tokens: new ort.Tensor('int32', b.tokens, [1, B, T]),
    tokenInputs: new ort.Tensor('float32', ppoTokenInputs(b, h) as Float32Array, [1, PPO_TOKEN_INPUTS.length, B, W]),
    hyper: new ort.Tensor('float32', hyper, [1, HYPER_FIELDS.length]),
  });
  return ['params_out', 'm_out', 'v_out', 'out'].map((k) => out[k].data as Float32Array);
}

const bits = (xs: Float32Array[]) => xs.map((x) => Array.from(new Uint32Array(x.buffer, x.byteOffset, x.length)));

describe('PPO train graph terms', () => {
  it('without the KL and entropy terms it is the graph with them, bit for bit, where both coefficients are 0', async () => {
    for (const seed of [1, 2, 3]) {
      const b = batch(seed);
      expect(bits(await step({ kl: false, entropy: false }, b, HYPER))).toEqual(bits(await step(ALL_PPO_TERMS, b, HYPER)));
    }
    // and the terms change the step where their coefficients are not 0 (the check above is not vacuous)
    const b = batch(4);
    for (const patch of [{ klCoef: 0.5 }, { entropyCoef: 0.05 }]) {
      const h = { ...HYPER, ...patch };
      expect(bits(await step({ kl: false, entropy: false }, b, h))[0]).not.toEqual(bits(await step(ALL_PPO_TERMS, b, h))[0]);
    }
  });

  it('the engine trains with the terms where a coefficient is not 0', async () => {
    const b = batch(5);
    const weightsAfter = async (h: PpoHyper) => {
      const e = await createNodeEngine(SHAPE, { seed: 9 });
      await e.trainStep(b, h);
      await e.trainStep(b, h);
      const w = await e.getWeights();
      await e.dispose();
      return w;
    };
    const plain = await weightsAfter(HYPER);
    for (const patch of [{ klCoef: 0.5 }, { entropyCoef: 0.05 }]) expect(Array.from(await weightsAfter({ ...HYPER, ...patch }))).not.toEqual(Array.from(plain));
  });
});
