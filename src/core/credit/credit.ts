// Long-horizon credit: turn score = γ^(L−1−t)·(2·outcome − 1) + prm_step_coef·PRM_t, where L is the
// episode length and PRM_t the judged per-step score; optional step-wise z-scoring within
// (group, step) buckets. Returns one reward per turn (same order as the input).
import type { JudgedTurn } from './types';

export interface CreditOptions {
  gamma: number;
  prmStepCoef: number;
  stepwiseZ: boolean;
}

export function creditRewards(turns: readonly JudgedTurn[], opts: CreditOptions): number[] {
  const length = new Map<number, number>();
  const outcome = new Map<number, number>();
  for (const t of turns) {
    length.set(t.session, Math.max(length.get(t.session) ?? 0, t.turn + 1));
    if (t.outcome !== undefined) outcome.set(t.session, t.outcome);
  }
  const raw = turns.map((t) => {
    const o = outcome.get(t.session) ?? 0;
    const L = length.get(t.session) ?? 1;
    return opts.gamma ** (L - 1 - t.turn) * (2 * o - 1) + opts.prmStepCoef * t.score;
  });
  if (!opts.stepwiseZ) return raw;
  const buckets = new Map<string, number[]>();
  turns.forEach((t, i) => {
    const k = `${t.group}:${t.turn}`;
    buckets.set(k, [...(buckets.get(k) ?? []), i]);
  });
  const out = raw.slice();
  for (const idx of buckets.values()) {
    const xs = idx.map((i) => raw[i]);
    const mean = xs.reduce((a, x) => a + x, 0) / xs.length;
    const std = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / xs.length);
    for (const i of idx) out[i] = std > 1e-6 ? (raw[i] - mean) / std : 0;
  }
  return out;
}
