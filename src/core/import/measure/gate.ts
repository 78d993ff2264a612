// Gate counterfactual on imported samples: what would this gate (built-in or user-written, the
// gates module's rule language) have dropped, masked and trained? Each sample becomes a record of
// the gates' sample fields (SAMPLE_FIELDS); what a log does not carry is stated per field:
//   votes / score:      OpenClaw PRM votes and majority score; other logs: no votes, score = reward
//   reward:             the log's reward (0 when not judged: has_next_state is then false)
//   has_next_state:     OpenClaw: the record has a next_state; other logs: the sample was judged
//   hint_*:             OpenClaw OPD PRM records (hint_len in words of the accepted hint); else 0
//   session / turn:     OpenClaw sessions and turns within the step; other logs: one turn per sample
//   judging order:      OpenClaw: PRM file order (session_effective_before counts in it); else log order
//   group_*:            the log's groups (verl/TRL: same prompt in the step; JSONL: group_id)
//   staleness, rollout_logp_gap: unknown in a log → NaN (a comparison with them is false)
import { funnelOfOutcomes, type GateFunnel } from '../../gates/funnel';
import { decideInOrder, type FieldRecord, type Gate, type GateDecision, type JudgingOrder } from '../../gates/index';
import { tokensOf } from './tokens';
import type { ImportedSample } from '../types';

/** What a gate replay keeps of a sample (no text). */
export interface GateSample {
  state: string;
  session: string;
  turn: number;
  group: string;
  hasNext: boolean;
  responseLen: number;
  votes: number[];
  score: number;
  reward: number;
  hintLen: number;
  hintVotesPos: number;
  hintAccepted: boolean;
  /** Place in judging order: the PRM file line (OpenClaw); Infinity when never judged (submitted at session end). */
  judged: number;
}

export function gateSample(s: ImportedSample, state: string): GateSample {
  const f = s.fields;
  const openclaw = 'has_next_state' in f;
  const turn = openclaw && typeof f.turn === 'number' ? Math.max(0, f.turn - 1) : 0;
  const hasNext = openclaw ? f.has_next_state === true : s.reward !== null;
  const reward = s.reward ?? 0;
  return {
    state,
    session: openclaw ? String(f.session_id) : `${s.file}:${s.line}`,
    turn,
    group: s.group ?? `state:${state}`,
    hasNext,
    responseLen: tokensOf(s).length,
    votes: s.votes,
    score: openclaw && typeof f.prm_score === 'number' ? f.prm_score : reward,
    reward,
    hintLen: typeof f.prm_hint_words === 'number' ? f.prm_hint_words : 0,
    hintVotesPos: f.prm_accepted !== null && f.prm_accepted !== undefined ? s.votes.filter((v) => v > 0).length : 0,
    hintAccepted: f.prm_accepted === true,
    judged: typeof f.prm_line === 'number' ? f.prm_line : openclaw ? Infinity : s.line,
  };
}

/** The gate fields of one step's samples (session and group aggregates within the step). */
export function gateRecords(samples: readonly GateSample[]): FieldRecord[] {
  const sessions = new Map<string, number[]>();
  const groups = new Map<string, number[]>();
  samples.forEach((s, i) => {
    (sessions.get(s.session) ?? sessions.set(s.session, []).get(s.session)!).push(i);
    (groups.get(s.group) ?? groups.set(s.group, []).get(s.group)!).push(i);
  });
  const groupStats = new Map(
    [...groups].map(([k, idx]) => {
      const rs = idx.filter((i) => samples[i].hasNext).map((i) => samples[i].reward);
      const mean = rs.length ? rs.reduce((a, x) => a + x, 0) / rs.length : 0;
      const std = rs.length ? Math.sqrt(rs.reduce((a, x) => a + (x - mean) ** 2, 0) / rs.length) : 0;
      return [k, { size: rs.length, mean, std }];
    }),
  );
  const out = new Array<FieldRecord>(samples.length);
  for (const idx of sessions.values()) {
    const last = Math.max(...idx.map((i) => samples[i].turn));
    const effective = idx.some((i) => samples[i].hasNext && samples[i].reward !== 0);
    const firstJudged = idx.find((i) => samples[i].hasNext);
    for (const i of idx) {
      const s = samples[i];
      const g = groupStats.get(s.group)!;
      out[i] = {
        state: s.state,
        turn: s.turn,
        is_last_turn: s.turn === last,
        session_len: idx.length,
        has_next_state: s.hasNext,
        response_len: s.responseLen,
        votes: s.votes,
        votes_pos: s.votes.filter((v) => v > 0).length,
        votes_neg: s.votes.filter((v) => v < 0).length,
        votes_zero: s.votes.filter((v) => v === 0).length,
        score: s.score,
        reward: s.reward,
        hint_len: s.hintLen,
        hint_votes_pos: s.hintVotesPos,
        hint_accepted: s.hintAccepted,
        session_has_effective: effective,
        session_first_judged: i === firstJudged,
        group_size: g.size,
        group_reward_mean: g.mean,
        group_reward_std: g.std,
        staleness: NaN,
        rollout_logp_gap: NaN,
      };
    }
  }
  return out;
}

export type { GateFunnel } from '../../gates/funnel';

/** The samples' judging order (PRM file order; unjudged turns last, as the server submits them at session end). */
export function judgingOrder(samples: readonly GateSample[]): JudgingOrder {
  const judged = samples.map((_, i) => i).sort((a, b) => samples[a].judged - samples[b].judged || a - b);
  return { session: samples.map((s) => s.session), judged };
}

/** A step's replay: each sample's decision and the record the gate read (in sample order), the judging order, the funnel. */
export interface StepReplay {
  decisions: GateDecision[];
  records: FieldRecord[];
  order: JudgingOrder;
  funnel: GateFunnel;
}

export function replayStep(gate: Gate, samples: readonly GateSample[]): StepReplay {
  const order = judgingOrder(samples);
  const { decisions, records } = decideInOrder(gate, gateRecords(samples), order);
  return { decisions, records, order, funnel: funnelOfOutcomes(gate, decisions) };
}

export function gateFunnel(gate: Gate, samples: readonly GateSample[]): GateFunnel {
  return replayStep(gate, samples).funnel;
}

/** A step's funnel under the lab's ESR names (one definition: effective / queued; yield = effective / served). */
export function funnelScalars(f: GateFunnel): Record<string, number> {
  return {
    'esr/served': f.served,
    'esr/queued': f.queued,
    'esr/masked': f.masked,
    'esr/dropped': f.dropped,
    'esr/effective_rate': f.queued ? f.effective / f.queued : 0,
    'esr/yield': f.served ? f.effective / f.served : 0,
  };
}
