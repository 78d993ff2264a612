// Plain-TypeScript reference of the PPO loss (written once; the ONNX train graph is checked
// against it). Per-token arrays follow the engine layout: B × T with T = context − 1.
//
//   ρ_t        = exp(logp_t − oldLogp_t)
//   pg_t       = max(−ρ_t·A_t, −clip(ρ_t, 1 − clipLow, 1 + clipHigh)·A_t)
//   dual clip  : if c > 0 and A_t < 0, pg_t = min(pg_t, −c·A_t)
//   k3 KL_t    = exp(ref_t − logp_t) − (ref_t − logp_t) − 1, clamped to [−10, 10]   ("low_var_kl")
//   loss       = agg(pg) − entropyCoef·agg(H) + klCoef·agg(KL)
//
// agg = 'token-mean': Σ_masked x / #masked tokens;
//       'seq-mean-token-mean': mean over rows with ≥ 1 masked token of the row's masked token mean.
// Reported metrics (clipfracLow/High, ppoKl, entropy) are token means over masked tokens,
// independent of the aggregation; pgLoss and loss use the aggregation.
import type { PpoHyper } from './engine';

export interface PpoInputs {
  batch: number;
  /** Current log π_θ, B × T. */
  logp: ArrayLike<number>;
  oldLogp: ArrayLike<number>;
  advantages: ArrayLike<number>;
  lossMask: ArrayLike<number>;
  /** Reference log-probs for the KL term (may be omitted when klCoef = 0). */
  refLogp?: ArrayLike<number>;
  /** Entropy of the current next-token distribution, B × T (may be omitted when entropyCoef = 0). */
  entropy?: ArrayLike<number>;
  /**
   * ρ as a trainer computed it (float32), used instead of exp(logp − oldLogp): the metrics then
   * count exactly the tokens that trainer's gradient treated as clipped.
   */
  ratio?: ArrayLike<number>;
}

export type PpoLossHyper = Pick<PpoHyper, 'clipLow' | 'clipHigh' | 'dualClip' | 'entropyCoef' | 'klCoef' | 'aggregation'>;

export interface PpoReference {
  loss: number;
  pgLoss: number;
  /** Share of masked tokens with A < 0 and ρ < 1 − clipLow. */
  clipfracLow: number;
  /** Share of masked tokens with A > 0 and ρ > 1 + clipHigh. */
  clipfracHigh: number;
  /** Masked token mean of (oldLogp − logp). */
  ppoKl: number;
  /** Masked token mean of the entropy. */
  entropy: number;
  /** Aggregated k3 KL (the value multiplied by klCoef). */
  klLoss: number;
  /** Aggregated entropy (the value multiplied by entropyCoef). */
  entropyLoss: number;
  ratio: Float64Array;
  /** Per-token pg_t before aggregation (0 where unmasked). */
  pgPerToken: Float64Array;
  /** Per-token k3 KL after the clamp. */
  klPerToken: Float64Array;
  /** Aggregation weight of each token (Σ weight = 1 when any token is masked in). */
  weight: Float64Array;
  /**
   * ∂loss/∂logp_t through the pg and KL terms (the entropy term depends on the whole next-token
   * distribution, not on logp_t alone, and is not included).
   */
  gradLogp: Float64Array;
}

/** Per-token aggregation weights for a loss mask. */
export function aggregationWeights(mask: ArrayLike<number>, batch: number, mode: PpoHyper['aggregation']): Float64Array {
  const n = mask.length;
  const T = n / batch;
  const w = new Float64Array(n);
  if (mode === 'token-mean') {
    let count = 0;
    for (let i = 0; i < n; i++) count += mask[i];
    if (count > 0) for (let i = 0; i < n; i++) w[i] = mask[i] / count;
    return w;
  }
  let rows = 0;
  const rowCount = new Float64Array(batch);
  for (let b = 0; b < batch; b++) {
    for (let t = 0; t < T; t++) rowCount[b] += mask[b * T + t];
    if (rowCount[b] > 0) rows++;
  }
  for (let b = 0; b < batch; b++) {
    if (rowCount[b] === 0) continue;
    for (let t = 0; t < T; t++) w[b * T + t] = mask[b * T + t] / (rowCount[b] * rows);
  }
  return w;
}

export function ppoReference(inp: PpoInputs, h: PpoLossHyper): PpoReference {
  const n = inp.logp.length;
  const ratio = new Float64Array(n);
  const pgPerToken = new Float64Array(n);
  const klPerToken = new Float64Array(n);
  const gradLogp = new Float64Array(n);
  const weight = aggregationWeights(inp.lossMask, inp.batch, h.aggregation);
  let masked = 0;
  let lowCount = 0;
  let highCount = 0;
  let klSum = 0;
  let entSum = 0;
  let pgLoss = 0;
  let klLoss = 0;
  let entropyLoss = 0;
  for (let i = 0; i < n; i++) {
    const logp = inp.logp[i];
    const rho = inp.ratio ? inp.ratio[i] : Math.exp(logp - inp.oldLogp[i]);
    ratio[i] = rho;
    const m = inp.lossMask[i];
    if (m === 0) continue;
    const a = inp.advantages[i];
    masked += m;
    const unclipped = -rho * a;
    const clippedRho = Math.min(Math.max(rho, 1 - h.clipLow), 1 + h.clipHigh);
    const clipped = -clippedRho * a;
    let pg = Math.max(unclipped, clipped);
    // d pg / d logp: −ρA on the unclipped branch, 0 when the clipped constant wins
    let dpg = unclipped >= clipped ? -rho * a : clippedRho === rho ? -rho * a : 0;
    if (h.dualClip > 0 && a < 0) {
      const dual = -h.dualClip * a;
      if (dual < pg) {
        pg = dual;
        dpg = 0;
      }
    }
    if (a > 0 && rho > 1 + h.clipHigh) highCount += m;
    if (a < 0 && rho < 1 - h.clipLow) lowCount += m;
    pgPerToken[i] = pg;
    pgLoss += weight[i] * pg;
    klSum += m * (inp.oldLogp[i] - logp);
    const ent = inp.entropy ? inp.entropy[i] : 0;
    entSum += m * ent;
    entropyLoss += weight[i] * ent;
    let dkl = 0;
    if (inp.refLogp) {
      const d = Math.min(Math.max(inp.refLogp[i] - logp, -20), 20);
      const raw = Math.exp(d) - d - 1;
      const kl = Math.min(Math.max(raw, -10), 10);
      klPerToken[i] = kl;
      klLoss += weight[i] * kl;
      if (raw === kl) dkl = 1 - Math.exp(d);
    }
    gradLogp[i] = weight[i] * (dpg + h.klCoef * dkl);
  }
  const denom = masked > 0 ? masked : 1;
  return {
    loss: pgLoss - h.entropyCoef * entropyLoss + h.klCoef * klLoss,
    pgLoss,
    clipfracLow: lowCount / denom,
    clipfracHigh: highCount / denom,
    ppoKl: klSum / denom,
    entropy: entSum / denom,
    klLoss,
    entropyLoss,
    ratio,
    pgPerToken,
    klPerToken,
    weight,
    gradLogp,
  };
}
