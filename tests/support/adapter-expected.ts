// The lab's side of the adapter tests: records built by hand from a scenario (the mapping each
// adapter documents, written again here), decided by the core's decideInOrder.
import { compileGate } from '../../src/core/gates/compile';
import { decideInOrder, type GateDecision } from '../../src/core/gates/gate';

export type Rec = Record<string, unknown>;

/** votes_pos / votes_neg / votes_zero and the majority score (tie → 0) from votes. */
export function withVotes(rec: Rec): Rec {
  const votes = rec.votes as number[] | undefined;
  if (!votes) return rec;
  const n = (x: number) => votes.filter((v) => v === x).length;
  const counts: [number, number][] = [[1, n(1)], [0, n(0)], [-1, n(-1)]];
  const top = Math.max(...counts.map((c) => c[1]));
  const winners = counts.filter((c) => c[1] === top);
  return { votes_pos: n(1), votes_neg: n(-1), votes_zero: n(0), score: winners.length === 1 && top > 0 ? winners[0][0] : 0, ...rec };
}

/** Group fields over the group's records with a next state (population std), as gates/sample.ts. */
export function withGroups(recs: Rec[], key: (i: number) => unknown): Rec[] {
  const rewards = new Map<unknown, number[]>();
  recs.forEach((r, i) => {
    if (r.has_next_state === false) return;
    const k = key(i);
    rewards.set(k, [...(rewards.get(k) ?? []), r.reward as number]);
  });
  return recs.map((r, i) => {
    const rs = rewards.get(key(i)) ?? [];
    const mean = rs.length ? rs.reduce((a, x) => a + x, 0) / rs.length : 0;
    const std = rs.length ? Math.sqrt(rs.reduce((a, x) => a + (x - mean) ** 2, 0) / rs.length) : 0;
    return { group_size: rs.length, group_reward_mean: mean, group_reward_std: std, ...r };
  });
}

export function labDecisions(gate: string, recs: Rec[], order?: { session: (string | number)[]; judged: number[] }): GateDecision[] {
  return decideInOrder(compileGate(gate), recs, order).decisions;
}
