// The CPU's half of the PPO train step (the graph's half is src/model/ppo-head.ts): the per-token
// inputs that depend on the batch alone, computed once per step on the CPU instead of as graph
// ops, and the step's metrics, computed from the per-token statistics the graph hands back with
// the plain-TypeScript reference (src/core/ppo.ts: the PPO math written once).
//
// Each coefficient is the float32 value the plain-op graph computed, so the gradient is the same
// bit for bit in the default case: one float32 operation done in float64 and rounded once gives the
// correctly rounded float32 result (aggregation weights, −w·A, the clip bounds 1 ∓ ε).
import type { PpoHyper, TrainBatch, TrainMetrics } from '../core/engine';
import { aggregationWeights, ppoReference, type PpoLossHyper } from '../core/ppo';
import { PPO_TOKEN_INPUTS, type PpoTokenInput } from './ppo-head';

/** Graph precisions: float32 (the engine) or float64 (the gradient checks). */
export type Precision = 'float32' | 'float64';
const rounding = (p: Precision) => (p === 'float32' ? Math.fround : (x: number) => x);

/** The clip bounds and dual clip as the graph compares ρ with them. */
function bounds(h: PpoHyper, p: Precision) {
  const f = rounding(p);
  return { low: f(1 - f(h.clipLow)), high: f(1 + f(h.clipHigh)), dual: f(h.dualClip) };
}

/**
 * One member's per-token inputs, rows in PPO_TOKEN_INPUTS order, each B·W long: ∂loss/∂ρ = −w·A
 * while ρ stays in [ratioLow, ratioHigh] — for A > 0 up to 1 + ε_high; for A < 0 from 1 − ε_low up to
 * the dual clip c (where −c·A < pg, i.e. ρ > c, the dual clip binds; with 1 − ε_low > c it always
 * does) — and β_KL·w, β_ent·w.
 */
export function ppoTokenInputs(batch: TrainBatch, h: PpoHyper, precision: Precision = 'float32'): Float32Array | Float64Array {
  const f = rounding(precision);
  const n = batch.lossMask.length;
  const w = aggregationWeights(batch.lossMask, batch.batch, h.aggregation);
  const { low, high, dual } = bounds(h, precision);
  const dualHigh = dual > 0 ? (low > dual ? -Infinity : dual) : Infinity;
  const out = precision === 'float32' ? new Float32Array(PPO_TOKEN_INPUTS.length * n) : new Float64Array(PPO_TOKEN_INPUTS.length * n);
  const row = (k: PpoTokenInput) => out.subarray(PPO_TOKEN_INPUTS.indexOf(k) * n, (PPO_TOKEN_INPUTS.indexOf(k) + 1) * n);
  row('oldLogp').set(batch.oldLogp);
  row('refLogp').set(batch.refLogp);
  const [pg, lo, hi, kl, ent] = (['pgCoef', 'ratioLow', 'ratioHigh', 'klCoef', 'entropyCoef'] as const).map(row);
  const klCoef = f(h.klCoef);
  const entropyCoef = f(h.entropyCoef);
  for (let i = 0; i < n; i++) {
    const wi = f(w[i]);
    const a = f(batch.advantages[i]);
    pg[i] = f(-wi * a);
    lo[i] = a < 0 ? low : -Infinity;
    hi[i] = a > 0 ? high : a < 0 ? dualHigh : Infinity;
    kl[i] = f(klCoef * wi);
    ent[i] = f(entropyCoef * wi);
  }
  return out;
}

/** What the train graph hands back per token for one member (B·W each). */
export interface PpoTokenStats {
  ratio: Float32Array;
  logp: Float32Array;
  entropy: Float32Array;
}

/** One member's train metrics from its batch and the graph's per-token statistics. */
export function ppoMetrics(batch: TrainBatch, h: PpoHyper, s: PpoTokenStats, gradNorm: number): TrainMetrics {
  const { low, high, dual } = bounds(h, 'float32');
  // 1 − (1 − low) and 1 + (high − 1) give back low and high exactly in float64
  const hyper: PpoLossHyper = { clipLow: 1 - low, clipHigh: high - 1, dualClip: dual, entropyCoef: h.entropyCoef, klCoef: h.klCoef, aggregation: h.aggregation };
  const r = ppoReference({ batch: batch.batch, logp: s.logp, oldLogp: batch.oldLogp, advantages: batch.advantages, lossMask: batch.lossMask, refLogp: batch.refLogp, entropy: s.entropy, ratio: s.ratio }, hyper);
  return { loss: r.loss, pgLoss: r.pgLoss, clipfracLow: r.clipfracLow, clipfracHigh: r.clipfracHigh, ppoKl: r.ppoKl, entropy: r.entropy, gradNorm, ratio: s.ratio };
}
