// The engine on onnxruntime-web's WASM EP in Node: the train graph against the plain-TS PPO
// reference, a whole-model finite-difference check, reproducible and KV-cached sampling, learning.
import { beforeAll, describe, expect, it } from 'vitest';
import type { PpoHyper, PolicyShape } from '../core/engine';
import { ppoReference } from '../core/ppo';
import { Rng } from '../core/rng';
import { closedFormGradCheck } from '../../tests/support/gradcheck';
import { ppoGradient } from '../model/graphs';
import { ppoTokenInputs } from '../model/ppo-coefs';
import { PPO_TOKEN_INPUTS } from '../model/ppo-head';
import { initParams, paramLayout } from '../model/layout';
import { createNodeEngine, type OrtEngine } from './node';

const SHAPE: PolicyShape = { vocab: 16, context: 8, dModel: 16, layers: 2, heads: 2, mlp: 32 };
const T = SHAPE.context;
const W = T - 1;

const BASE_HYPER: PpoHyper = {
  lr: 1e-3, beta1: 0.9, beta2: 0.98, eps: 1e-8, weightDecay: 0.1, maxGradNorm: 1,
  clipLow: 0.2, clipHigh: 0.28, dualClip: 0, entropyCoef: 0, klCoef: 0, aggregation: 'token-mean', temperature: 1,
};

function randomTokens(rng: Rng, batch: number, vocab: number, length: number): Int32Array {
  return Int32Array.from({ length: batch * length }, () => 1 + rng.int(vocab - 1));
}

/** A fixed batch with ρ on both sides of the clip, both advantage signs, masked tokens. */
function fixedBatch(logp: Float32Array, batch: number) {
  const deltas = [-0.6, -0.3, -0.1, 0, 0.05, 0.15, 0.35, 0.7];
  const advs = [1.5, -1, 0.5, -2, 0, 1, -0.5];
  const n = batch * W;
  const oldLogp = Float32Array.from({ length: n }, (_, i) => logp[i] + deltas[(i * 5) % deltas.length]);
  const advantages = Float32Array.from({ length: n }, (_, i) => advs[(i * 3) % advs.length]);
  const lossMask = Float32Array.from({ length: n }, (_, i) => (i % W === 0 || i % 11 === 4 ? 0 : 1));
  // one row fully masked out: seq-mean aggregation must skip it
  lossMask.fill(0, (batch - 1) * W, batch * W);
  const refLogp = Float32Array.from({ length: n }, (_, i) => logp[i] + 0.3 * Math.sin(i));
  return { oldLogp, advantages, lossMask, refLogp };
}

describe('OrtEngine (WASM)', () => {
  let engine: OrtEngine;
  let w0: Float32Array;
  beforeAll(async () => {
    engine = await createNodeEngine(SHAPE, { seed: 7 });
    w0 = await engine.getWeights();
  });

  const variants: [string, Partial<PpoHyper>][] = [
    ['token-mean', {}],
    ['seq-mean-token-mean + dual clip + entropy + KL', { aggregation: 'seq-mean-token-mean', dualClip: 3, entropyCoef: 0.01, klCoef: 0.2 }],
    ['asymmetric clip 0.1 / 0.5', { clipLow: 0.1, clipHigh: 0.5, dualClip: 1.5 }],
  ];
  for (const [name, patch] of variants) {
    it(`train-step loss and metrics match the TypeScript reference (${name})`, async () => {
      const hyper = { ...BASE_HYPER, ...patch };
      await engine.setWeights(w0);
      const B = 6;
      const tokens = randomTokens(new Rng(11), B, SHAPE.vocab, T);
      const now = await engine.score({ batch: B, tokens, temperature: 1 });
      const batch = fixedBatch(now.logp, B);
      const ref = ppoReference({ batch: B, logp: now.logp, entropy: now.entropy, ...batch }, hyper);
      expect(ref.clipfracLow).toBeGreaterThan(0);
      expect(ref.clipfracHigh).toBeGreaterThan(0);
      const m = await engine.trainStep({ batch: B, tokens, ...batch }, hyper);
      expect(m.loss).toBeCloseTo(ref.loss, 5);
      expect(m.pgLoss).toBeCloseTo(ref.pgLoss, 5);
      expect(m.clipfracLow).toBeCloseTo(ref.clipfracLow, 6);
      expect(m.clipfracHigh).toBeCloseTo(ref.clipfracHigh, 6);
      expect(m.ppoKl).toBeCloseTo(ref.ppoKl, 5);
      expect(m.entropy).toBeCloseTo(ref.entropy, 5);
      m.ratio.forEach((r, i) => expect(r).toBeCloseTo(ref.ratio[i], 5));
      expect(m.gradNorm).toBeGreaterThan(0);
      expect(engine.version).toBe(1);
    });
  }

  it('with oldLogp = the current log-probs, clipfrac is exactly 0 (ρ = 1)', async () => {
    await engine.setWeights(w0);
    const B = 8;
    const tokens = randomTokens(new Rng(3), B, SHAPE.vocab, T);
    const now = await engine.score({ batch: B, tokens, temperature: 0.6 });
    const advantages = Float32Array.from({ length: B * W }, (_, i) => (i % 2 ? 3 : -3));
    const m = await engine.trainStep(
      { batch: B, tokens, advantages, oldLogp: now.logp, refLogp: now.logp, lossMask: new Float32Array(B * W).fill(1) },
      { ...BASE_HYPER, temperature: 0.6, clipLow: 1e-4, clipHigh: 1e-4 },
    );
    expect(m.clipfracLow).toBe(0);
    expect(m.clipfracHigh).toBe(0);
    expect(Math.abs(m.ppoKl)).toBeLessThan(1e-6);
    m.ratio.forEach((r) => expect(Math.abs(r - 1)).toBeLessThan(1e-5));
  });

  it('sampling is reproducible, KV-cache and full-prefix sampling agree, and match score()', async () => {
    await engine.setWeights(w0);
    const B = 5;
    const prompt = new Int32Array(B * T);
    const promptLength = Int32Array.from({ length: B }, (_, b) => 1 + (b % 3));
    for (let b = 0; b < B; b++) for (let t = 0; t < promptLength[b]; t++) prompt[b * T + t] = 1 + ((b + t) % 5);
    const newTokens = 4;
    const req = { batch: B, prompt, promptLength, newTokens, temperature: 0.8, uniforms: new Rng(5).uniforms(B * newTokens) };
    const a = await engine.sample(req);
    const b = await engine.sample(req);
    const full = await engine.sampleRecompute(req);
    expect(Array.from(a.tokens)).toEqual(Array.from(b.tokens));
    expect(Array.from(a.tokens)).toEqual(Array.from(full.tokens));
    a.logp.forEach((v, i) => expect(v).toBeCloseTo(full.logp[i], 5));
    const scored = await engine.score({ batch: B, tokens: a.tokens, temperature: 0.8 });
    for (let r = 0; r < B; r++) {
      for (let t = promptLength[r] - 1; t < promptLength[r] - 1 + newTokens; t++) {
        expect(a.logp[r * W + t]).toBeCloseTo(scored.logp[r * W + t], 5);
        expect(a.entropy[r * W + t]).toBeCloseTo(scored.entropy[r * W + t], 5);
      }
      // prompts are kept, PAD after the window; log-probs and entropies are 0 outside it
      for (let t = 0; t < promptLength[r]; t++) expect(a.tokens[r * T + t]).toBe(prompt[r * T + t]);
      for (let t = promptLength[r] + newTokens; t < T; t++) expect(a.tokens[r * T + t]).toBe(0);
      for (let t = 0; t < W; t++) {
        if (t >= promptLength[r] - 1 && t < promptLength[r] - 1 + newTokens) continue;
        expect([a.logp[r * W + t], a.entropy[r * W + t], full.logp[r * W + t]]).toEqual([0, 0, 0]);
      }
    }
    const other = await engine.sample({ ...req, uniforms: new Rng(6).uniforms(B * newTokens) });
    expect(Array.from(other.tokens)).not.toEqual(Array.from(a.tokens));
  });

  it('KV-cache sampling agrees with full-prefix sampling and score() where the LayerNorm gains and shifts are not 1 and 0', async () => {
    // at init every gain is 1 and every shift 0, so a decode path that read one norm's weights for
    // another (e.g. ln2.g for ln1.g in the decode tables) would pass the test above
    const layout = paramLayout(SHAPE);
    const w = Float32Array.from(w0);
    const rng = new Rng(17);
    for (const p of layout.params) if (/ln/.test(p.name)) for (let i = 0; i < p.size; i++) w[p.offset + i] = (p.init === 'ones' ? 0.4 : -0.3) + rng.next();
    await engine.setWeights(w);
    const B = 6;
    const prompt = Int32Array.from({ length: B * T }, (_, i) => 1 + (i % 7));
    const promptLength = Int32Array.from({ length: B }, (_, b) => 1 + (b % 3));
    const req = { batch: B, prompt, promptLength, newTokens: 4, temperature: 0.7, uniforms: new Rng(8).uniforms(B * 4) };
    const [kv, full] = [await engine.sample(req), await engine.sampleRecompute(req)];
    expect(Array.from(kv.tokens)).toEqual(Array.from(full.tokens));
    const scored = await engine.score({ batch: B, tokens: kv.tokens, temperature: 0.7 });
    for (let r = 0; r < B; r++) {
      for (let t = promptLength[r] - 1; t < promptLength[r] + 3; t++) expect(kv.logp[r * W + t]).toBeCloseTo(scored.logp[r * W + t], 5);
    }
  });

  it('snapshots keep old weights alive while the trainer moves on', async () => {
    await engine.setWeights(w0);
    const B = 4;
    const tokens = randomTokens(new Rng(9), B, SHAPE.vocab, T);
    const handle = engine.snapshot();
    const before = await engine.score({ batch: B, tokens, temperature: 1 });
    const mask = new Float32Array(B * W).fill(1);
    await engine.sftStep({ batch: B, tokens, lossMask: mask }, { ...BASE_HYPER, lr: 1e-2 });
    await engine.sftStep({ batch: B, tokens, lossMask: mask }, { ...BASE_HYPER, lr: 1e-2 });
    const old = await engine.score({ batch: B, tokens, temperature: 1, weights: handle });
    const now = await engine.score({ batch: B, tokens, temperature: 1 });
    expect(Array.from(old.logp)).toEqual(Array.from(before.logp));
    expect(now.logp[3]).not.toBeCloseTo(before.logp[3], 3);
    expect(handle.version).toBe(0);
    engine.release(handle);
    await expect(engine.score({ batch: B, tokens, temperature: 1, weights: handle })).rejects.toThrow(/released/);
  });

  it('SFT drives KL(target ‖ policy) of a small distribution below 0.005 nats', async () => {
    await engine.setWeights(w0);
    // One sequence per outcome, weighted by its target probability through the loss mask:
    // the masked mean is then exactly the cross-entropy to the target.
    const target = [0.5, 0.3, 0.15, 0.05];
    const B = target.length;
    const tokens = new Int32Array(B * T);
    const lossMask = new Float32Array(B * W);
    target.forEach((p, v) => {
      tokens[v * T] = 1;
      tokens[v * T + 1] = 2 + v;
      lossMask[v * W] = p;
    });
    const kl = async () => {
      const q = await engine.score({ batch: B, tokens, temperature: 1 });
      return target.reduce((s, p, v) => s + p * (Math.log(p) - q.logp[v * W]), 0);
    };
    const start = await kl();
    for (let step = 0; step < 120; step++) await engine.sftStep({ batch: B, tokens, lossMask }, { ...BASE_HYPER, lr: 1e-2, weightDecay: 0 });
    expect(start).toBeGreaterThan(0.5);
    expect(await kl()).toBeLessThan(0.005);
  });

  it('PPO on a two-armed toy raises the better arm', async () => {
    await engine.setWeights(w0);
    const rng = new Rng(4);
    const B = 32;
    const prompt = new Int32Array(B * T);
    for (let b = 0; b < B; b++) prompt[b * T] = 1;
    const promptLength = new Int32Array(B).fill(1);
    const probBest = async () => {
      const tokens = new Int32Array(T);
      tokens[0] = 1;
      tokens[1] = 3;
      return Math.exp((await engine.score({ batch: 1, tokens, temperature: 1 })).logp[0]);
    };
    const start = await probBest();
    for (let step = 0; step < 25; step++) {
      const s = await engine.sample({ batch: B, prompt, promptLength, newTokens: 1, temperature: 1, uniforms: rng.uniforms(B) });
      // arm 3 pays 1, arm 2 pays 0.5, everything else 0; advantage = reward − batch mean
      const rewards = Array.from({ length: B }, (_, b) => ({ 3: 1, 2: 0.5 })[s.tokens[b * T + 1]] ?? 0);
      const mean = rewards.reduce((a, r) => a + r, 0) / B;
      const advantages = new Float32Array(B * W);
      const lossMask = new Float32Array(B * W);
      for (let b = 0; b < B; b++) {
        advantages[b * W] = rewards[b] - mean;
        lossMask[b * W] = 1;
      }
      await engine.trainStep({ batch: B, tokens: s.tokens, advantages, oldLogp: s.logp, refLogp: s.logp, lossMask }, { ...BASE_HYPER, lr: 2e-2 });
    }
    const end = await probBest();
    expect(start).toBeLessThan(0.15);
    expect(end).toBeGreaterThan(0.5);
  });
});

describe('whole-model gradient (float64, closed-form PPO head vs central differences of the TypeScript reference loss)', () => {
  it('d loss / d params matches, for a population of 2 with different settings (dual clip, entropy, KL, both aggregations)', async () => {
    const shape: PolicyShape = { vocab: 6, context: 4, dModel: 4, layers: 1, heads: 2, mlp: 8 };
    const layout = paramLayout(shape);
    const P = 2;
    const B = 2;
    const W4 = shape.context - 1;
    const N = layout.total;
    const n = B * W4;
    const params = [5, 6].flatMap((seed) => Array.from(initParams(layout, seed), (v, i) => v * 20 + 0.01 * Math.cos(i + seed))); // larger weights: non-trivial attention
    const rng = new Rng(8);
    const tokens = Array.from({ length: P * B * shape.context }, () => rng.int(shape.vocab));
    const vec = (f: (i: number) => number) => Float32Array.from({ length: n }, (_, i) => f(i));
    const hypers: PpoHyper[] = [
      { ...BASE_HYPER, aggregation: 'seq-mean-token-mean', temperature: 0.7, dualClip: 2, entropyCoef: 0.05, klCoef: 0.3 },
      { ...BASE_HYPER, temperature: 0.9, dualClip: 2, entropyCoef: 0.05, klCoef: 0.3 },
    ];
    const batches = [0, 1].map((p) => ({
      batch: B, tokens: new Int32Array(0),
      advantages: vec((i) => [1.2, -0.7, 0.4, -1.5, 0.9, -0.2][i % 6] * (p === 0 ? 1 : -0.8)),
      oldLogp: vec((i) => -1.8 + 0.13 * ((i + p) % 6)),
      refLogp: vec((i) => -1.7 - 0.05 * ((i + p) % 6)),
      lossMask: vec((i) => (i === 2 || (p === 1 && i === 3) ? 0 : 1)),
    }));
    const perToken = batches.flatMap((b, p) => Array.from(ppoTokenInputs(b, hypers[p], 'float64')));
    const r = await closedFormGradCheck(
      [
        { shape: [P, N], values: params },
        { shape: [P, B, shape.context], values: tokens, constant: true, dtype: 'int32' },
        { shape: [P, PPO_TOKEN_INPUTS.length, B, W4], values: perToken, constant: true },
        { shape: [P, 1], values: hypers.map((h) => h.temperature), constant: true },
      ],
      (p, tok, x, temperature) => {
        const head = ppoGradient(p, tok, x, temperature, layout);
        return { outputs: [head.logp, head.entropy], gradients: [head.gradient] };
      },
      ([logp, entropy]) =>
        [0, 1].reduce((sum, p) => sum + ppoReference({ ...batches[p], logp: logp.subarray(p * n, (p + 1) * n), entropy: entropy.subarray(p * n, (p + 1) * n) }, hypers[p]).loss, 0),
    );
    expect(layout.total).toBeGreaterThan(200);
    expect(r.maxAbsErr).toBeLessThan(1e-7);
    for (const p of [0, 1]) expect(Math.max(...r.analytic[0].slice(p * N, (p + 1) * N).map(Math.abs))).toBeGreaterThan(1e-3);
  });
});
