// The tabular reference engine's PPO update, checked independently of the reference it reports:
// with plain SGD (no clipping, no weight decay) a step moves the weights by Δw = −η∇L, so the loss
// of the plain-TS reference, evaluated on the engine's own scores at w0 ± Δw, must change by
// L(w0 + Δw) − L(w0 − Δw) ≈ 2⟨∇L, Δw⟩ = −2|Δw|²/η (central difference), and gradNorm = |Δw|/η.
import { describe, expect, it } from 'vitest';
import type { PolicyEngine } from '../../core/engine';
import { ppoReference } from '../../core/ppo';
import { Rng } from '../../core/rng';
import { tabularFactory } from '../../../tests/support/factory';
import { referenceBatch, referenceConfig } from '../../../tests/support/fidelity';

/** Row-keyed weights (layout of TabularEngine.getWeights: [key, logits...] per row). */
function rows(w: Float32Array, V: number): Map<number, Float64Array> {
  const m = new Map<number, Float64Array>();
  for (let i = 0; i < w.length; i += V + 1) m.set(w[i], Float64Array.from(w.subarray(i + 1, i + 1 + V)));
  return m;
}
function flat(m: Map<number, Float64Array>, V: number): Float32Array {
  const keys = [...m.keys()].sort((a, b) => a - b);
  const out = new Float32Array(keys.length * (V + 1));
  keys.forEach((k, i) => {
    out[i * (V + 1)] = k;
    out.set(m.get(k)!, i * (V + 1) + 1);
  });
  return out;
}

describe('tabular engine trainStep', () => {
  it('moves the weights along −∇ of the reference PPO loss (finite differences), clipped tokens included', async () => {
    const cfg = referenceConfig(0.3);
    const engine: PolicyEngine = await tabularFactory({ optimizer: 'sgd' })(cfg);
    const V = engine.shape.vocab;
    const { B, tokens, adv, mask, old, ref, hyper } = await referenceBatch(engine, cfg);
    const batch = { batch: B, tokens, advantages: adv, oldLogp: old, refLogp: ref, lossMask: mask };
    const loss = async (w: Float32Array) => {
      await engine.setWeights(w);
      const s = await engine.score({ batch: B, tokens, temperature: cfg.temperature });
      return ppoReference({ batch: B, logp: s.logp, oldLogp: old, advantages: adv, lossMask: mask, refLogp: ref, entropy: s.entropy }, hyper);
    };
    // Move away from π_old first so that some ratios sit outside the clip band.
    for (let k = 0; k < 3; k++) await engine.trainStep(batch, { ...hyper, lr: 5, maxGradNorm: 0, weightDecay: 0 });
    const w0 = await engine.getWeights();
    const at0 = await loss(w0);
    expect(at0.clipfracLow + at0.clipfracHigh).toBeGreaterThan(0);
    const eta = 1e-3;
    const m = await engine.trainStep(batch, { ...hyper, lr: eta, weightDecay: 0, maxGradNorm: 0 });
    const before = rows(w0, V);
    const after = rows(await engine.getWeights(), V);
    const plus = new Map<number, Float64Array>();
    const minus = new Map<number, Float64Array>();
    let sq = 0;
    for (const [k, a] of after) {
      const b = before.get(k) ?? new Float64Array(V);
      const d = a.map((x, j) => x - b[j]);
      for (const x of d) sq += x * x;
      plus.set(k, b.map((x, j) => x + d[j]));
      minus.set(k, b.map((x, j) => x - d[j]));
    }
    const measured = (await loss(flat(plus, V))).loss - (await loss(flat(minus, V))).loss;
    const predicted = (-2 * sq) / eta;
    expect(predicted).toBeLessThan(0);
    expect(Math.abs(measured / predicted - 1), `measured ${measured}, predicted ${predicted}`).toBeLessThan(0.02);
    expect(Math.abs(m.gradNorm - Math.sqrt(sq) / eta) / m.gradNorm).toBeLessThan(0.01);
    // Random directions d (first-order sensitive to any error in the gradient, not only its size):
    // (L(w0 + d) − L(w0 − d)) / 2 ≈ ⟨∇L, d⟩ = −⟨Δw, d⟩ / η.
    const rng = new Rng(5);
    for (let r = 0; r < 4; r++) {
      const dp = new Map<number, Float64Array>();
      const dm = new Map<number, Float64Array>();
      let dot = 0;
      for (const [k, a] of after) {
        const b = before.get(k) ?? new Float64Array(V);
        const d = b.map(() => 1e-3 * (2 * rng.next() - 1));
        d.forEach((x, j) => (dot += (a[j] - b[j]) * x));
        dp.set(k, b.map((x, j) => x + d[j]));
        dm.set(k, b.map((x, j) => x - d[j]));
      }
      const fd = ((await loss(flat(dp, V))).loss - (await loss(flat(dm, V))).loss) / 2;
      expect(Math.abs(fd / (-dot / eta) - 1), `direction ${r}: finite difference ${fd}, engine ${-dot / eta}`).toBeLessThan(3e-3);
    }
    await engine.dispose();
  });
});
