// The sample fields of served turns (one serve round: whole sessions, whole groups): per-turn values
// plus the session and group aggregates the rules may read, so that a gate is a pure function of
// each sample's record (and a traced record can be replayed under another gate).
import type { JudgedTurn } from '../credit/types';
import type { JudgingOrder } from './gate';
import { chooseHint } from '../tasks/judge';
import { SAMPLE_FIELDS, type SampleFieldName } from './fields';
import type { ValueType } from './types';

type TypeOf<T extends ValueType> = T extends 'number' ? number : T extends 'boolean' ? boolean : T extends 'string' ? string : T extends 'number[]' ? number[] : string[];

/** Fields a gate fills in as it decides in judging order (decideInOrder), not the record builders. */
type OrderFields = 'session_effective_before';
/** One sample's fields, typed from the field table (the order fields once the gate has decided). */
export type SampleRecord = { [K in Exclude<SampleFieldName, OrderFields>]: TypeOf<(typeof SAMPLE_FIELDS)[K]['type']> } & { [K in OrderFields]?: number };

export interface SampleContext {
  hintMinLength: number;
  staleness: number;
  stateName: (state: number) => string;
  /** Mean |logπ_rollout − logπ_trainer| per turn, when the gate reads it (else NaN). */
  gap?: readonly number[] | null;
}

interface Bucket {
  idx: number[];
  rewards: number[];
}

function buckets(turns: readonly JudgedTurn[], key: (t: JudgedTurn) => number): Map<number, Bucket> {
  const m = new Map<number, Bucket>();
  turns.forEach((t, i) => {
    let b = m.get(key(t));
    if (!b) m.set(key(t), (b = { idx: [], rewards: [] }));
    b.idx.push(i);
    if (t.hasNext) b.rewards.push(t.reward);
  });
  return m;
}

/** Mean and population std, summed in turn order (the GRPO reference's arithmetic). */
function stats(rs: readonly number[]): { mean: number; std: number } {
  if (!rs.length) return { mean: 0, std: 0 };
  const mean = rs.reduce((a, x) => a + x, 0) / rs.length;
  return { mean, std: Math.sqrt(rs.reduce((a, x) => a + (x - mean) ** 2, 0) / rs.length) };
}

export function sampleRecords(turns: readonly JudgedTurn[], ctx: SampleContext): SampleRecord[] {
  const sessions = buckets(turns, (t) => t.session);
  const groups = buckets(turns, (t) => t.group);
  const groupStats = new Map([...groups].map(([k, b]) => [k, stats(b.rewards)]));
  const out = new Array<SampleRecord>(turns.length);
  for (const s of sessions.values()) {
    const last = Math.max(...s.idx.map((i) => turns[i].turn));
    const effective = s.idx.some((i) => turns[i].hasNext && turns[i].reward !== 0);
    const firstJudged = s.idx.find((i) => turns[i].hasNext);
    for (const i of s.idx) {
      const t = turns[i];
      const { mean, std } = groupStats.get(t.group)!;
      const hint = chooseHint(t.hintVotes, 0);
      out[i] = {
        state: ctx.stateName(t.state),
        turn: t.turn,
        is_last_turn: t.turn === last,
        session_len: s.idx.length,
        has_next_state: t.hasNext,
        response_len: t.responseLength,
        votes: [...t.votes],
        votes_pos: t.votes.filter((v) => v === 1).length,
        votes_neg: t.votes.filter((v) => v === -1).length,
        votes_zero: t.votes.filter((v) => v === 0).length,
        score: t.score,
        reward: t.reward,
        hint_len: hint ? hint.length : 0,
        hint_votes_pos: t.hintVotes.filter((v) => v.vote === 1).length,
        hint_accepted: chooseHint(t.hintVotes, ctx.hintMinLength) !== null,
        session_has_effective: effective,
        session_first_judged: i === firstJudged,
        group_size: groups.get(t.group)!.rewards.length,
        group_reward_mean: mean,
        group_reward_std: std,
        staleness: ctx.staleness,
        rollout_logp_gap: ctx.gap ? ctx.gap[i] : NaN,
      };
    }
  }
  return out;
}

/**
 * The loop's judging order: a turn is judged when its next state (the next turn's message)
 * arrives, so within a session turn t is judged before turn t + 1. Across the sessions of a serve
 * round (served side by side) all first turns come before all second turns, and so on; sessions
 * in serve order. Only the order within a session matters to a gate (its counters are per session).
 */
export function loopJudgingOrder(turns: readonly JudgedTurn[]): JudgingOrder {
  const judged = turns.map((_, i) => i).sort((a, b) => turns[a].turn - turns[b].turn || a - b);
  return { session: turns.map((t) => t.session), judged };
}
