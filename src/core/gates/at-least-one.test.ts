// OpenClaw-RL's at-least-one as its server computes it (openclaw-rl/openclaw_api_server.py,
// OpenClawAPIServer._submit_turn_sample, with _maybe_submit_ready_samples submitting turns as their
// PRM finishes): turns are submitted one by one in judging order, and a turn with a next state that
// scored 0 gets loss mask 1 when its session has no mask-1 sample so far (_session_effective == 0).
// Checked against a hand-computed submission order on an OpenClaw-format run (records + PRM file),
// against a plain transliteration of the server code on random sessions and orders, and in the
// loop's own judging order (turn order within a session).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { measureLogs } from '../import/analyze';
import { gateRecords, gateSample, judgingOrder } from '../import/measure/gate';
import { memorySource } from '../import/sources';
import type { ImportedSample } from '../import/types';
import type { JudgedTurn } from '../credit/types';
import type { Vote } from '../tasks/judge';
import { CONTEXT } from '../tasks/vocab';
import { binaryRlWholeSessionText, builtinGateText, type GateKnobs } from './builtin';
import { compileGate } from './compile';
import { decideInOrder } from './gate';
import { loopJudgingOrder, sampleRecords } from './sample';

const KNOBS: GateKnobs = { method: 'binary-rl', atLeastOne: true, maskZeroMode: 'keep', wOpd: 1, wRl: 1, normalizeStd: true, dynamicSampling: false };
const SERVER = compileGate(builtinGateText(KNOBS));
const WHOLE_SESSION = compileGate(binaryRlWholeSessionText(KNOBS));

/** _submit_turn_sample, line for line: the loss mask of each turn, in submission order. */
function serverMasks(submitted: readonly { session: string; hasNext: boolean; score: number }[]): (0 | 1)[] {
  const sessionEffective = new Map<string, number>(); // self._session_effective
  return submitted.map((t) => {
    let exclude = !t.hasNext || t.score === 0;
    if (exclude && t.hasNext && (sessionEffective.get(t.session) ?? 0) === 0) exclude = false;
    if (!exclude) sessionEffective.set(t.session, (sessionEffective.get(t.session) ?? 0) + 1);
    return exclude ? 0 : 1;
  });
}

// ---- a recorded OpenClaw-format run: 4 sessions, PRM lines in the order the judge finished ----
// session A: t1 0, t2 +1, t3 0, t4 last (no next state)      PRM order A1 < A2 < A3
// session B: t1 +1, t2 0, t3 last                            PRM order B2 < B1 (t2's judge finished first)
// session C: t1 0, t2 0, t3 last                             PRM order C2 < C1
// session D: t1 −1, t2 0, t3 last                            PRM order D1 < D2
const SCORES: Record<string, number[]> = { A: [0, 1, 0], B: [1, 0], C: [0, 0], D: [-1, 0] };
const PRM_ORDER = ['A1', 'B2', 'C2', 'A2', 'B1', 'D1', 'C1', 'A3', 'D2'];
/** Submission, worked by hand from PRM_ORDER (then the last turns at session end, force_no_prm):
 *  A1 0, A has 0 mask-1 → promoted (1) · B2 0, B has 0 → promoted (1) · C2 0, C has 0 → promoted (1)
 *  A2 +1 → 1 · B1 +1 → 1 · D1 −1 → 1 · C1 0, C has 1 → 0 · A3 0, A has 2 → 0 · D2 0, D has 1 → 0
 *  A4, B3, C3, D3: no next state → 0.  Mask 1: A1 A2 B1 B2 C2 D1 (6; of them 3 promoted). */
const HAND_MASK1 = ['A1', 'A2', 'B1', 'B2', 'C2', 'D1'];

function openclawRun(): { records: string; prm: string } {
  const jl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
  const record = (s: string, turn: number, next: boolean) => ({ session_id: s, turn, prompt_text: 'p', response_text: 'r', tool_calls: null, next_state: next ? { role: 'user', content: 'next' } : null, step: 0 });
  // the sessions end after every judge finished (their last records written last, apart from their
  // previous turns: the session-done came in a request of its own), so no counter is cleared early
  const records = [
    ...Object.entries(SCORES).flatMap(([s, scores]) => scores.map((_, i) => record(s, i + 1, true))),
    ...Object.entries(SCORES).map(([s, scores]) => record(s, scores.length + 1, false)),
  ];
  const prm = PRM_ORDER.map((k) => {
    const score = SCORES[k[0]][Number(k.slice(1)) - 1];
    return { session_id: k[0], turn: Number(k.slice(1)), score, votes: [score, score, score] };
  });
  return { records: jl(records), prm: jl(prm) };
}

async function importRun(gate: string) {
  const { records, prm } = openclawRun();
  const samples: ImportedSample[] = [];
  const m = await measureLogs([memorySource('run.jsonl', records), memorySource('run_prm.jsonl', prm)], { states: { kind: 'single' }, behaviors: { rules: [], fallback: 'x' }, eps: 0.05, gate }, {}, (s) => samples.push(s));
  return { frame: m.frames[0], samples: samples.map((s) => gateSample(s, 'all')) };
}

describe('at-least-one as OpenClaw-RL\'s server computes it', () => {
  it('on a recorded OpenClaw-format run: the hand-computed submission order (PRM file order)', async () => {
    const { frame, samples } = await importRun(builtinGateText(KNOBS));
    // rules: no next state, at-least-one, score zero, effective, (none)
    expect(frame.series['gate/rule_counts']).toEqual([4, 3, 3, 3, 0]);
    const recs = gateRecords(samples);
    const d = decideInOrder(SERVER, recs, judgingOrder(samples));
    const name = (i: number) => `${samples[i].session}${samples[i].turn + 1}`;
    expect(d.decisions.flatMap((x, i) => (x.lossMask === 1 ? [name(i)] : [])).sort()).toEqual(HAND_MASK1);
    expect(d.decisions.flatMap((x, i) => (SERVER.rules[x.rule]?.label === 'at-least-one' ? [name(i)] : [])).sort()).toEqual(['A1', 'B2', 'C2']);
    // the counter each turn saw: _session_effective before its submission
    expect(Object.fromEntries(d.records.map((r, i) => [name(i), r.session_effective_before]))).toMatchObject({ A1: 0, A2: 1, A3: 2, B2: 0, B1: 1, C2: 0, C1: 1, D1: 0, D2: 1 });
    // the server's own code, transliterated, on the same submission order agrees turn for turn
    const order = judgingOrder(samples).judged;
    const server = serverMasks(order.map((i) => ({ session: samples[i].session, hasNext: samples[i].hasNext, score: samples[i].score })));
    expect(order.map((i) => d.decisions[i].lossMask)).toEqual(server);
  });

  it('with X-Session-Done on a session\'s last main turn: the counter is cleared before that request\'s judge (and slower ones) finish', async () => {
    // The server's timeline (openclaw_api_server.py _handle_request: a main turn flushes the previous
    // turn's record and starts its judge; under session_done it writes the last record and pops
    // _session_effective in the same request; _submit_turn_sample runs as each judge finishes):
    //   A t2: record A1 (judge starts) · B t2: record B1 · A t3: record A2 · judge B1 done (0) · judge A2 done (+1)
    //   A t4 + X-Session-Done: record A3 (judge starts), record A4 (no next state), A's counter popped, A4 submitted
    //   B t3 + X-Session-Done: record B2 (judge starts), record B3 (no next state), B's counter popped, B3 submitted
    //   judge B2 done (0) · judge A1 done (0, slow) · judge A3 done (0)
    const rec = (s: string, turn: number, next: boolean) => ({ session_id: s, turn, prompt_text: 'p', response_text: 'r', tool_calls: null, next_state: next ? { role: 'user', content: 'n' } : null, step: 0 });
    const prm = (s: string, turn: number, score: number) => ({ session_id: s, turn, score, votes: [score, score, score] });
    const jl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
    const records = [rec('A', 1, true), rec('B', 1, true), rec('A', 2, true), rec('A', 3, true), rec('A', 4, false), rec('B', 2, true), rec('B', 3, false)];
    const prms = [prm('B', 1, 0), prm('A', 2, 1), prm('B', 2, 0), prm('A', 1, 0), prm('A', 3, 0)];
    const samples: ImportedSample[] = [];
    const m = await measureLogs([memorySource('run.jsonl', jl(records)), memorySource('run_prm.jsonl', jl(prms))], { states: { kind: 'single' }, behaviors: { rules: [], fallback: 'x' }, eps: 0.05, gate: builtinGateText(KNOBS) }, {}, (x) => samples.push(x));
    const gs = samples.map((x) => gateSample(x, 'all'));
    const name = (i: number) => `${gs[i].session}${gs[i].turn + 1}`;
    const order = judgingOrder(gs);
    const d = decideInOrder(SERVER, gateRecords(gs), order);
    // the server's code on that timeline: `end` pops the session's counter (a fresh count after it)
    const events: ([kind: 'submit', turn: string, hasNext: boolean, score: number] | [kind: 'end', session: string])[] = [
      ['submit', 'B1', true, 0], ['submit', 'A2', true, 1], ['end', 'A'], ['submit', 'A4', false, 0], ['end', 'B'], ['submit', 'B3', false, 0],
      ['submit', 'B2', true, 0], ['submit', 'A1', true, 0], ['submit', 'A3', true, 0],
    ];
    const sessionEffective = new Map<string, number>();
    const server: Record<string, 0 | 1> = {};
    for (const e of events) {
      if (e[0] === 'end') { sessionEffective.delete(e[1]); continue; }
      const [, turn, hasNext, score] = e;
      let exclude = !hasNext || score === 0;
      if (exclude && hasNext && (sessionEffective.get(turn[0]) ?? 0) === 0) exclude = false;
      if (!exclude) sessionEffective.set(turn[0], (sessionEffective.get(turn[0]) ?? 0) + 1);
      server[turn] = exclude ? 0 : 1;
    }
    expect(Object.fromEntries(d.decisions.map((x, i) => [name(i), x.lossMask]))).toEqual(server);
    // B2 (judged in the request that ended B), A1 (its judge finished after B2's, which started after A ended) and A3 count afresh
    expect(d.decisions.flatMap((x, i) => (x.lossMask === 1 ? [name(i)] : [])).sort()).toEqual(['A1', 'A2', 'B1', 'B2']);
    expect(order.judged.map(name)).toEqual(['B1', 'A2', 'A4', 'B3', 'B2', 'A1', 'A3']);
    expect(Object.fromEntries(d.records.map((r, i) => [name(i), r.session_effective_before]))).toEqual({ A1: 0, A2: 0, A3: 1, A4: 0, B1: 0, B2: 0, B3: 0 });
    // the funnel the import reports says the same: 4 trained (3 promoted), where counting every judge before the end says 2
    expect(m.frames[0].series['gate/rule_counts']).toEqual([2, 3, 1, 1, 0]);
  });

  it('the earlier whole-session rule (kept as a named variant) promotes less: only C, at its first turn', async () => {
    const { frame } = await importRun(binaryRlWholeSessionText(KNOBS));
    expect(WHOLE_SESSION.rules[1].when).toBe('reward == 0 && !session_has_effective && session_first_judged');
    expect(frame.series['gate/rule_counts']).toEqual([4, 1, 5, 3, 0]);
  });

  it('matches the server code on random sessions submitted in random judging orders', () => {
    const session = fc.array(fc.constantFrom<Vote>(-1, 0, 1), { minLength: 0, maxLength: 5 });
    fc.assert(
      fc.property(fc.array(session, { minLength: 1, maxLength: 6 }), fc.infiniteStream(fc.double({ min: 0, max: 1, noNaN: true })), (sessions, keys) => {
        const turns = sessions.flatMap((scores, s) => [...scores.map((score) => ({ session: `s${s}`, hasNext: true, score })), { session: `s${s}`, hasNext: false, score: 0 }]);
        const it = keys[Symbol.iterator]();
        // a random PRM completion order; unjudged last turns at session end
        const rank = turns.map((t) => (t.hasNext ? it.next().value : Infinity));
        const judged = turns.map((_, i) => i).sort((a, b) => rank[a] - rank[b] || a - b);
        const recs = turns.map((t) => ({ has_next_state: t.hasNext, reward: t.score, hint_len: 0 }));
        const d = decideInOrder(SERVER, recs, { session: turns.map((t) => t.session), judged });
        expect(judged.map((i) => d.decisions[i].lossMask)).toEqual(serverMasks(judged.map((i) => turns[i])));
        // promoted turns carry A = r = 0; at most one per session
        const promoted = d.decisions.filter((x) => SERVER.rules[x.rule].label === 'at-least-one');
        expect(promoted.every((x) => x.reward === 0)).toBe(true);
        expect(new Set(promoted.map((_, i) => i)).size).toBeLessThanOrEqual(sessions.length);
      }),
      { numRuns: 400, seed: 18 },
    );
  });

  it('in the loop\'s judging order (turn order within a session): a session\'s first judged turn is always mask 1, even if a later turn scores ±1', () => {
    const turn = (session: number, t: number, score: Vote, hasNext = true): JudgedTurn => ({
      session, group: session, turn: t, state: 0, tokens: new Int32Array(CONTEXT), responseLength: 3, behavior: 0, rolloutLogp: new Float32Array(CONTEXT - 1),
      hasNext, votes: [score, score, score], score: hasNext ? score : 0, reward: hasNext ? score : 0, hintVotes: [],
    });
    // served side by side: the loop lists session 0's turns, then session 1's
    const turns = [turn(0, 0, 0), turn(0, 1, 1), turn(0, 2, 0, false), turn(1, 0, 1), turn(1, 1, 0), turn(1, 2, 0, false)];
    const order = loopJudgingOrder(turns);
    expect(order.judged).toEqual([0, 3, 1, 4, 2, 5]);
    const recs = sampleRecords(turns, { hintMinLength: 5, staleness: 0, stateName: String });
    expect(decideInOrder(SERVER, recs, order).decisions.map((x) => x.lossMask)).toEqual([1, 1, 0, 1, 0, 0]);
    // the whole-session variant: session 0 has an effective turn, so nothing is promoted
    expect(decideInOrder(WHOLE_SESSION, recs, order).decisions.map((x) => x.lossMask)).toEqual([0, 1, 0, 1, 0, 0]);
  });
});
