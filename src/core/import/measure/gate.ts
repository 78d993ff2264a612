// Gate counterfactual on imported samples: what would this gate (built-in or user-written, the
// gates module's rule language) have dropped, masked and trained? Each sample becomes a record of
// the gates' sample fields (SAMPLE_FIELDS); what a log does not carry is stated per field:
//   votes / score:      OpenClaw PRM votes and majority score; other logs: no votes, score = reward
//   reward:             the log's reward (0 when not judged: has_next_state is then false)
//   has_next_state:     OpenClaw: the record has a next_state; other logs: the sample was judged
//   hint_*:             OpenClaw OPD PRM records (hint_len in words of the accepted hint); else 0
//   session / turn:     OpenClaw sessions and turns within the step; other logs: one turn per sample
//   judging order:      OpenClaw: PRM file order (session_effective_before counts in it), with the
//                       server's session end (sessionEnds below); else log order
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
  /** OpenClaw: the record file line (written when the turn's next state arrives: its judge starts then; or at session end); else null. */
  recordLine: number | null;
}

/** What a gate replay reads of a sample before its state is known (no text: a step waiting for discovery's labels holds this, measure.ts). */
export type GateFacts = Omit<GateSample, 'state' | 'group'> & { group: string | null };

export function gateSample(s: ImportedSample, state: string): GateSample {
  return gateSampleOf(gateFacts(s), state);
}

/** The gate's sample once its state is known (a sample without a group is grouped by its state). */
export function gateSampleOf(g: GateFacts, state: string): GateSample {
  return { ...g, state, group: g.group ?? `state:${state}` };
}

export function gateFacts(s: ImportedSample): GateFacts {
  const f = s.fields;
  const openclaw = 'has_next_state' in f;
  const turn = openclaw && typeof f.turn === 'number' ? Math.max(0, f.turn - 1) : 0;
  const hasNext = openclaw ? f.has_next_state === true : s.reward !== null;
  const reward = s.reward ?? 0;
  return {
    session: openclaw ? String(f.session_id) : `${s.file}:${s.line}`,
    turn,
    group: s.group,
    hasNext,
    responseLen: tokensOf(s).length,
    votes: s.votes,
    score: openclaw && typeof f.prm_score === 'number' ? f.prm_score : reward,
    reward,
    hintLen: typeof f.prm_hint_words === 'number' ? f.prm_hint_words : 0,
    hintVotesPos: f.prm_accepted !== null && f.prm_accepted !== undefined ? s.votes.filter((v) => v > 0).length : 0,
    hintAccepted: f.prm_accepted === true,
    judged: typeof f.prm_line === 'number' ? f.prm_line : openclaw ? Infinity : s.line,
    recordLine: openclaw ? s.line : null,
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

/**
 * Each OpenClaw session's end as a record line: a judge started at a line at or after it started
 * after the session's counter was cleared. The server writes a record without a next state only
 * when its session ends (`_flush_pending_record(session_id, None)` under `session_done`) and, in
 * that same request, pops `_session_effective`. When the record just before it is the same
 * session's previous turn, the session-done came on the last main turn: that turn's judge was
 * started in the very request that cleared the counter, so it finishes after the clear.
 */
function sessionEnds(samples: readonly GateSample[]): Map<string, number> {
  const lineOf = new Map<string, Set<number>>();
  for (const s of samples) if (s.recordLine !== null) (lineOf.get(s.session) ?? lineOf.set(s.session, new Set()).get(s.session)!).add(s.recordLine);
  const ends = new Map<string, number>();
  for (const s of samples) {
    if (s.recordLine === null || s.hasNext || ends.has(s.session)) continue;
    ends.set(s.session, lineOf.get(s.session)!.has(s.recordLine - 1) ? s.recordLine - 1 : s.recordLine);
  }
  return ends;
}

/** The counter key of a turn decided after its session's counter was cleared (a fresh count, as the server's). */
const afterEnd = (session: string) => `${session}\u0000after session end`;

/**
 * The samples' judging order: PRM file order, as OpenClaw submits each turn when its judge
 * finishes. A session's counter is cleared at its end (openclaw_api_server.py pops
 * `_session_effective` under `session_done`, before judges still running finish): the turns
 * submitted after that count afresh, under their own key. They are the session's last turn (no next
 * state: submitted at the end, first after the clear) and each judged turn whose PRM line comes at
 * or after the PRM line of a turn whose judge started after the end (a judge finishes after it
 * starts, and PRM lines are written as judges finish): the earliest finish both files allow.
 */
export function judgingOrder(samples: readonly GateSample[]): JudgingOrder {
  const byPrm = samples.map((_, i) => i).sort((a, b) => samples[a].judged - samples[b].judged || a - b);
  const ends = sessionEnds(samples);
  const session = samples.map((s) => s.session);
  if (!ends.size) return { session, judged: byPrm };
  const before: number[] = [];
  const endTurns: number[] = [];
  const after: number[] = [];
  const unjudged: number[] = [];
  let started = -Infinity; // the latest record line among the judges finished so far
  for (const i of byPrm) {
    const s = samples[i];
    const end = ends.get(s.session);
    if (s.judged !== Infinity && s.recordLine !== null) started = Math.max(started, s.recordLine);
    if (s.judged === Infinity && s.hasNext) unjudged.push(i);
    else if (end === undefined) (s.judged === Infinity ? unjudged : before).push(i);
    else if (!s.hasNext) endTurns.push(i);
    else (started >= end ? after : before).push(i);
  }
  for (const i of [...endTurns, ...after]) session[i] = afterEnd(samples[i].session);
  return { session, judged: [...before, ...endTurns, ...after, ...unjudged] };
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
