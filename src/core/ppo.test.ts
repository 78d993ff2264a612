import { describe, expect, it } from 'vitest';
import { aggregationWeights, ppoReference, type PpoLossHyper } from './ppo';

const H: PpoLossHyper = { clipLow: 0.2, clipHigh: 0.28, dualClip: 0, entropyCoef: 0, klCoef: 0, aggregation: 'token-mean' };
const ln = Math.log;

describe('ppoReference', () => {
  it('ρ = 1 gives pg = −mean(A) and no clipping', () => {
    const r = ppoReference({ batch: 1, logp: [-1, -2, -3], oldLogp: [-1, -2, -3], advantages: [1, -2, 5], lossMask: [1, 1, 0] }, H);
    expect(r.pgLoss).toBeCloseTo(-(1 - 2) / 2, 12);
    expect(r.clipfracHigh).toBe(0);
    expect(r.clipfracLow).toBe(0);
    expect(r.ppoKl).toBe(0);
    expect(Array.from(r.gradLogp)).toEqual([-0.5, 1, 0]);
  });

  it('clips high for A > 0 and low for A < 0 with zero gradient on the clipped side', () => {
    // token 0: ρ = 1.5, A = +1 → clipped at 1.28; token 1: ρ = 0.5, A = −1 → clipped at 0.8
    // token 2: ρ = 1.5, A = −1 → unclipped (pessimistic), token 3: ρ = 0.5, A = +1 → unclipped
    const logp = [ln(1.5), ln(0.5), ln(1.5), ln(0.5)];
    const r = ppoReference({ batch: 1, logp, oldLogp: [0, 0, 0, 0], advantages: [1, -1, -1, 1], lossMask: [1, 1, 1, 1] }, H);
    expect(r.pgPerToken[0]).toBeCloseTo(-1.28, 12);
    expect(r.pgPerToken[1]).toBeCloseTo(0.8, 12);
    expect(r.pgPerToken[2]).toBeCloseTo(1.5, 12);
    expect(r.pgPerToken[3]).toBeCloseTo(-0.5, 12);
    expect(r.clipfracHigh).toBe(0.25);
    expect(r.clipfracLow).toBe(0.25);
    expect(r.gradLogp[0]).toBe(0);
    expect(r.gradLogp[1]).toBe(0);
    expect(r.gradLogp[2]).toBeCloseTo(0.25 * 1.5, 12);
    expect(r.gradLogp[3]).toBeCloseTo(-0.25 * 0.5, 12);
    expect(r.ppoKl).toBeCloseTo(-(ln(1.5) * 2 + ln(0.5) * 2) / 4, 12);
  });

  it('takes ρ from a given ratio (a trainer\'s float32 ρ) instead of exp(logp − oldLogp)', () => {
    const r = ppoReference({ batch: 1, logp: [-1, -1], oldLogp: [-1, -1], advantages: [1, -1], lossMask: [1, 1], ratio: [1.5, 0.5] }, H);
    expect(Array.from(r.ratio)).toEqual([1.5, 0.5]);
    expect(r.clipfracHigh).toBe(0.5);
    expect(r.clipfracLow).toBe(0.5);
    expect(r.pgLoss).toBeCloseTo((-1.28 + 0.8) / 2, 12);
    expect(r.ppoKl).toBe(0);
  });

  it('dual clip caps the loss of negative advantages at −c·A', () => {
    const r = ppoReference({ batch: 1, logp: [ln(5)], oldLogp: [0], advantages: [-1], lossMask: [1] }, { ...H, dualClip: 3 });
    expect(r.pgLoss).toBeCloseTo(3, 12);
    expect(r.gradLogp[0]).toBe(0);
  });

  it('seq-mean-token-mean weights rows equally', () => {
    const w = aggregationWeights([1, 1, 1, 1, 0, 0, 0, 0, 0], 3, 'seq-mean-token-mean');
    expect(Array.from(w)).toEqual([0.5 / 3, 0.5 / 3, 0.5 / 3, 0.5, 0, 0, 0, 0, 0]);
    const r = ppoReference(
      { batch: 2, logp: [0, 0, 0, 0], oldLogp: [0, 0, 0, 0], advantages: [1, 1, 1, 4], lossMask: [1, 1, 1, 1] },
      { ...H, aggregation: 'seq-mean-token-mean' },
    );
    expect(r.pgLoss).toBeCloseTo(-(1 + 2.5) / 2, 12);
  });

  it('k3 KL and entropy terms enter the loss', () => {
    const r = ppoReference(
      { batch: 1, logp: [-1, -2], oldLogp: [-1, -2], advantages: [0, 0], lossMask: [1, 1], refLogp: [-1.5, -2], entropy: [2, 1] },
      { ...H, klCoef: 0.1, entropyCoef: 0.01 },
    );
    const k = Math.exp(-0.5) + 0.5 - 1;
    expect(r.klLoss).toBeCloseTo(k / 2, 12);
    expect(r.entropy).toBeCloseTo(1.5, 12);
    expect(r.loss).toBeCloseTo(0.1 * (k / 2) - 0.01 * 1.5, 12);
  });

  it('gradient matches finite differences', () => {
    const logp = [-0.7, -1.3, -0.2, -2.0, -0.9, -1.1];
    const inp = { batch: 2, logp, oldLogp: [-0.8, -1.0, -0.5, -2.1, -0.6, -1.0], advantages: [0.7, -1.2, 2, -0.5, 1, -1], lossMask: [1, 1, 0, 1, 1, 1], refLogp: [-1, -1, -1, -1, -1, -1] };
    const h: PpoLossHyper = { ...H, klCoef: 0.3, dualClip: 3, aggregation: 'seq-mean-token-mean' };
    const g = ppoReference(inp, h).gradLogp;
    for (let i = 0; i < logp.length; i++) {
      const e = 1e-6;
      const up = logp.slice(); up[i] += e;
      const dn = logp.slice(); dn[i] -= e;
      const fd = (ppoReference({ ...inp, logp: up }, h).loss - ppoReference({ ...inp, logp: dn }, h).loss) / (2 * e);
      expect(g[i]).toBeCloseTo(fd, 6);
    }
  });

  it('empty mask gives zeros', () => {
    const r = ppoReference({ batch: 1, logp: [-1], oldLogp: [0], advantages: [1], lossMask: [0] }, H);
    expect(r.loss).toBe(0);
    expect(r.clipfracHigh).toBe(0);
  });
});
