// Sessions served by OpenClaw-RL's OPD / Combine servers, generated (fast-check, seeded) for the
// openclaw-opd adapter's tests, and the lab's side: each decided turn's record written from the
// server's rules again here (the hint the server selects, the eval votes' majority, the words of
// the hint as the lab counts them), decided by the core's decideInOrder in the judging order the
// events give, and the samples the patched server must submit.
import fc from 'fast-check';
import type { GateDecision } from '../../src/core/gates/gate';
import { labDecisions, type Rec } from './adapter-expected';

/** A hint vote as _query_judge_once returns it; an eval vote as _query_prm_eval_once does. */
export interface HintVote { vote_id: number; score: 1 | -1 | null; hint: string; raw: string }
export interface Judge { votes: HintVote[]; eval_votes: (1 | -1 | 0 | null)[]; teacher_log_probs: number[]; teacher_topk_log_probs?: number[][]; teacher_topk_indices?: number[][] }
/** One main turn: its response length and log-probs, and its judge (null: the judge task fails). */
export interface Turn { len: number; lp: number[]; judge: Judge | null }
export interface Scenario {
  eval_mode: boolean;
  topk: number;
  sessions: Record<string, Turn[]>;
  /** [session, turns]: those turns' judges finish together; [session, 'done']: the session ends. */
  events: [string, number[] | 'done'][];
}

// whitespace where Python and JavaScript disagree: \x1c is Python's (str.strip), \ufeff JavaScript's (/\s/)
const WORDS = ['use', 'the', 'tool', 'x', 'ls -la', 'mean\u00a0it', 'a\u2003b', 'q\x1cr', 'p\x1cq\x1cr', '\ufeffz', 'refactor', 'do'];
const PY_SPACE = new Set([' ', '\t', '\n', '\u00a0', '\u2003', '\x1c']);
const logp = fc.integer({ min: -80, max: -1 }).map((i) => i / 16);

const hintVote = (id: number) =>
  fc.oneof(
    fc.record({ score: fc.constant(1 as const), hint: fc.array(fc.constantFrom(...WORDS, ' ', '\t'), { maxLength: 6 }).map((w) => w.join(' ')) }),
    fc.record({ score: fc.constant(-1 as const), hint: fc.constant('') }),
    fc.record({ score: fc.constant(null), hint: fc.constant('') }),
  ).map((v): HintVote => ({ vote_id: id, ...v, raw: '' }));

function turn(topk: number) {
  return fc.integer({ min: 1, max: 6 }).chain((len) =>
    fc.record({
      len: fc.constant(len),
      lp: fc.array(logp, { minLength: len, maxLength: len }),
      judge: fc.option(
        fc.record({
          votes: fc.integer({ min: 1, max: 3 }).chain((m) => fc.tuple(...Array.from({ length: m }, (_, i) => hintVote(i)))),
          eval_votes: fc.array(fc.constantFrom(1 as const, -1 as const, 0 as const, null), { minLength: 1, maxLength: 3 }),
          // the teacher's log-probs, one short or long at times (the server cuts or pads them)
          teacher_log_probs: fc.array(logp, { minLength: Math.max(0, len - 1), maxLength: len + 1 }),
          // the teacher's top-k per token (log-probs and token ids), under top-k distillation
          topk: topk ? fc.array(fc.tuple(fc.array(logp, { minLength: topk, maxLength: topk }), fc.array(fc.nat(99), { minLength: topk, maxLength: topk })), { minLength: len - 1, maxLength: len + 1 }) : fc.constant(null),
        }).map(({ topk: rows, ...j }): Judge => (rows ? { ...j, teacher_topk_log_probs: rows.map((r) => r[0]), teacher_topk_indices: rows.map((r) => r[1]) } : j)),
        { freq: 12 },
      ),
    }),
  );
}

/** Sessions of 1-4 turns; the events: each judged turn's judge finishing and each session's end, shuffled. */
export function scenarios(n: number, seed: number, o: { topk: boolean }): Scenario[] {
  const arb = fc
    .record({ eval_mode: fc.boolean(), topk: o.topk ? fc.constantFrom(0, 2) : fc.constant(0) })
    .chain(({ eval_mode, topk }) =>
      fc.array(fc.array(turn(topk), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }).chain((ss) => {
        const sessions = Object.fromEntries(ss.map((turns, i) => [`s${i}`, turns]));
        const events: [string, number | 'done'][] = ss.flatMap((turns, i) => [...turns.slice(0, -1).map((_, k) => [`s${i}`, k + 1] as [string, number]), [`s${i}`, 'done'] as [string, 'done']]);
        const shuffled = fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length });
        return fc.tuple(shuffled, fc.array(fc.boolean(), { minLength: events.length, maxLength: events.length })).map(([ev, join]) => ({ eval_mode, topk, sessions, events: batched(ev, join) }));
      }),
    );
  return fc.sample(arb, { seed, numRuns: n });
}

/** Judge events of one session next to each other finish together where `join` says so. */
function batched(events: readonly [string, number | 'done'][], join: readonly boolean[]): [string, number[] | 'done'][] {
  const out: [string, number[] | 'done'][] = [];
  events.forEach(([sid, k], i) => {
    const last = out.at(-1);
    if (k === 'done') out.push([sid, 'done']);
    else if (join[i] && last && last[0] === sid && last[1] !== 'done') last[1].push(k);
    else out.push([sid, [k]]);
  });
  return out;
}

const pyStrip = (s: string) => {
  const cs = [...s];
  let a = 0;
  let b = cs.length;
  while (a < b && PY_SPACE.has(cs[a])) a++;
  while (b > a && PY_SPACE.has(cs[b - 1])) b--;
  return cs.slice(a, b).join('');
};

/** _select_best_hint: +1 votes whose stripped hint is over 10 characters; the first longest. */
function selectedHint(votes: readonly HintVote[]): string | null {
  let best: string | null = null;
  for (const v of votes) {
    const h = pyStrip(v.hint);
    if (v.score === 1 && [...h].length > 10 && (best === null || [...h].length > [...best].length)) best = h;
  }
  return best;
}

/** _prm_eval_majority_vote: the most common valid vote; a tie for the most common, or none, 0. */
function majority(votes: readonly (number | null)[]): number {
  const counts = new Map<number, number>();
  for (const v of votes) if (v !== null) counts.set(v, (counts.get(v) ?? 0) + 1);
  const top = Math.max(0, ...counts.values());
  const winners = [...counts].filter(([, c]) => c === top);
  return winners.length === 1 ? winners[0][0] : 0;
}

/** `counter`: the key of the session's counter the turn is decided under (decided after its session's end: a fresh count, the session's counter cleared there). */
export interface Decided { key: string; rec: Rec; turn: Turn; counter: string }

/** The turns the server decides, in judging order (a failed judge decides nothing), with the lab's records. */
export function decidedTurns(sc: Scenario): Decided[] {
  const steps = sc.events.flatMap(([sid, ks]): [string, number | 'done'][] => (ks === 'done' ? [[sid, 'done']] : [...ks].sort((a, b) => a - b).map((k) => [sid, k])));
  const ended = new Set<string>();
  return steps.flatMap(([sid, k]): Decided[] => {
    if (k === 'done') ended.add(sid);
    const turns = sc.sessions[sid];
    const n = k === 'done' ? turns.length : k;
    const t = turns[n - 1];
    if (k !== 'done' && t.judge === null) return [];
    const j = k === 'done' ? null : t.judge;
    const hint = j ? selectedHint(j.votes) : null;
    const score = j && sc.eval_mode ? majority(j.eval_votes) : 0;
    const rec: Rec = {
      turn: n - 1, has_next_state: j !== null, score, reward: score, response_len: t.len,
      hint_len: hint === null ? 0 : hint.trim().split(/\s+/).length,
      hint_votes_pos: j ? j.votes.filter((v) => v.score === 1).length : 0,
      hint_accepted: hint !== null, session_first_judged: j !== null && n === 1,
    };
    return [{ key: `${sid}:${n}`, rec, turn: t, counter: ended.has(sid) ? `${sid} after end` : sid }];
  });
}

/** A submitted sample as the driver prints it. */
export interface Submitted { key: string; mask: number[]; reward: number; teacher: number[]; index: number; topk: number[][] | null; topk_idx: number[][] | null }

const fit = <T>(xs: readonly T[], n: number, pad: T, front = false): T[] => (xs.length >= n ? xs.slice(0, n) : front ? [...Array<T>(n - xs.length).fill(pad), ...xs] : [...xs, ...Array<T>(n - xs.length).fill(pad)]);

/** The lab's decisions of a scenario's decided turns, and the samples the patched server must submit (in index order). */
export function expectedSamples(gate: string, sc: Scenario): { decisions: GateDecision[]; samples: Submitted[] } {
  const dec = decidedTurns(sc);
  const decisions = labDecisions(gate, dec.map((d) => d.rec), { session: dec.map((d) => d.counter), judged: dec.map((_, i) => i) });
  const samples: Submitted[] = [];
  dec.forEach(({ key, turn: t }, i) => {
    const d = decisions[i];
    if (!d.queued) return;
    const j = t.judge!;
    const teacher = fit(d.usesHint ? j.teacher_log_probs : t.lp, t.len, 0).map((x, k) => (d.usesHint && d.opdWeight !== 1 ? t.lp[k] + d.opdWeight * (x - t.lp[k]) : x));
    const topk = d.usesHint && sc.topk > 0;
    samples.push({
      key, mask: Array<number>(t.len).fill(d.lossMask), reward: d.reward, teacher, index: samples.length,
      topk: topk ? fit(j.teacher_topk_log_probs!, t.len, Array<number>(sc.topk).fill(0), true) : null,
      topk_idx: topk ? fit(j.teacher_topk_indices!, t.len, Array.from({ length: sc.topk }, (_, q) => q), true) : null,
    });
  });
  return { decisions, samples };
}
