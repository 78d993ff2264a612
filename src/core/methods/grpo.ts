// GRPO and Dr.GRPO baselines: the advantage of a turn is its reward relative to its group
// (sessions sharing a prompt): (r − mean) / std with normalizeStd (GRPO), r − mean for Dr.GRPO.
// Groups whose rewards have zero variance carry no signal; dynamic sampling drops them.
// Turns without a next state cannot be judged: queued with mask 0, outside the group statistics.
// Dr.GRPO also drops the per-sequence length normalization: pair it with lossAggregation =
// 'token-mean' (one mean over all tokens of the batch), not 'seq-mean-token-mean'.
// ESR = queued turns with A ≠ 0 / queued turns.
import type { GateDecision, GateOptions, JudgedTurn, MethodResult } from './types';

const STD_EPS = 1e-6;

export function groupAdvantages(turns: readonly JudgedTurn[], opts: GateOptions, normalizeStd: boolean): MethodResult {
  const decisions: GateDecision[] = turns.map(() => ({ queued: true, lossMask: 0, reward: 0, opdWeight: 0, hint: null, reasons: ['no-next-state'] }));
  const groups = new Map<number, number[]>();
  turns.forEach((t, i) => {
    if (t.hasNext) groups.set(t.group, [...(groups.get(t.group) ?? []), i]);
  });
  let zeroStd = 0;
  for (const idx of groups.values()) {
    const rs = idx.map((i) => turns[i].reward);
    const mean = rs.reduce((a, x) => a + x, 0) / rs.length;
    const std = Math.sqrt(rs.reduce((a, x) => a + (x - mean) ** 2, 0) / rs.length);
    const flat = std < STD_EPS;
    if (flat) zeroStd++;
    for (const i of idx) {
      const a = flat ? 0 : normalizeStd ? (turns[i].reward - mean) / (std + STD_EPS) : turns[i].reward - mean;
      decisions[i] = flat
        ? { queued: !opts.dynamicSampling, lossMask: 1, reward: 0, opdWeight: 0, hint: null, reasons: opts.dynamicSampling ? ['zero-variance-group', 'dynamic-sampling-dropped'] : ['zero-variance-group'] }
        : { queued: true, lossMask: 1, reward: a, opdWeight: 0, hint: null, reasons: ['group-advantage'] };
    }
  }
  const queued = decisions.filter((d) => d.queued);
  const effective = queued.filter((d) => d.lossMask === 1 && d.reward !== 0).length;
  return { decisions, esr: queued.length ? effective / queued.length : 0, esrNum: effective, esrDen: queued.length, counts: { groups: groups.size, zero_std_groups: zeroStd } };
}

export const grpo = (turns: readonly JudgedTurn[], opts: GateOptions) => groupAdvantages(turns, opts, opts.normalizeStd);
export const drGrpo = (turns: readonly JudgedTurn[], opts: GateOptions) => groupAdvantages(turns, opts, false);
