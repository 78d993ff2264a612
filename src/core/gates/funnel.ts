// What a gate keeps of a batch of sample records: served → queued → effective (and queued with
// loss mask 0), plus how many samples each rule decided. One implementation for the lab's
// counterfactual replay on traced samples, the import's replay on logs and the loop's ESR.
import { applyGate, ruleCounts, type Gate, type GateDecision, type JudgingOrder } from './gate';
import type { FieldRecord } from './types';

/** ESR's one definition: queued with loss mask 1 and a nonzero RL term or a teacher (OPD) term. */
export const isEffective = (o: Pick<GateDecision, 'queued' | 'lossMask' | 'reward' | 'opdWeight'>): boolean =>
  o.queued && o.lossMask === 1 && (o.reward !== 0 || o.opdWeight !== 0);

export interface GateFunnel {
  served: number;
  dropped: number;
  queued: number;
  /** Queued with loss mask 0: compute without signal. */
  masked: number;
  /** Mask 1 and a nonzero advantage term (RL reward term ≠ 0, or a teacher term). */
  effective: number;
  /** Samples decided by each rule; the last entry: no rule matched (dropped). */
  rules: number[];
}

/** The funnel of a gate's outcomes (from applyGate on the same records). */
export function funnelOfOutcomes(gate: Gate, outcomes: readonly GateDecision[]): GateFunnel {
  const queued = outcomes.filter((o) => o.queued).length;
  return {
    served: outcomes.length,
    dropped: outcomes.length - queued,
    queued,
    masked: outcomes.filter((o) => o.queued && o.lossMask === 0).length,
    effective: outcomes.filter(isEffective).length,
    rules: ruleCounts(gate, outcomes),
  };
}

/** Apply a gate to sample records (in judging order, when given) and count what it keeps. Pure. */
export function funnelOf(gate: Gate, records: readonly FieldRecord[], order?: JudgingOrder): GateFunnel {
  return funnelOfOutcomes(gate, applyGate(gate, records, order));
}

/**
 * What a replay on recorded samples cannot know: fields whose values depended on the gate that
 * was in use when the samples were served. Empty when the replay is exact.
 */
export function replayCaveats(draft: Gate, inUse: Gate): string[] {
  const out: string[] = [];
  if (draft.grouped && !inUse.grouped)
    out.push('the draft reads group fields, but these samples were served one session at a time (the gate in use reads none): group_* describe each session, not a group of sessions sharing a prompt');
  if (draft.reads.has('rollout_logp_gap') && !inUse.reads.has('rollout_logp_gap'))
    out.push('rollout_logp_gap was not computed for these samples (the gate in use does not read it): it is NaN, and every comparison with it is false');
  return out;
}
