// OpenClaw-RL's RL server, patched by the adapter, under python3 against a stand-in holding the
// server's submission code verbatim (tests/fixtures/trainers/openclaw_api_server.py): PRM results
// complete out of turn order, sessions end; the built-in Binary RL gate must submit exactly what the
// unpatched server submits, and another gate what the core's decideInOrder decides in that order.
import { describe, expect, it } from 'vitest';
import { exported, runAdapter } from '../../../../../tests/support/adapter-python';
import { labDecisions, withVotes, type Rec } from '../../../../../tests/support/adapter-expected';
import { scaled } from '../../../../../tests/support/speed';
import { builtinGateByName } from '../targets';
import { openclaw } from './openclaw';

const BINARY_RL = builtinGateByName('binary-rl', { atLeastOne: true, maskZeroMode: 'keep', wOpd: 1, wRl: 1, normalizeStd: true, dynamicSampling: false })!;
const GATE = [
  'votes_pos > 0 && votes_neg > 0 => drop # votes disagree',
  '!has_next_state => mask0 # no next state',
  'response_len > 5 && turn > 0 => drop # long later turn',
  'session_first_judged && score == 0 => mask1 # first judged',
  'score == 0 && session_effective_before == 0 => mask1 # at-least-one',
  'score == 0 => mask0 # score zero',
  'true => mask1 2*rl',
].join('\n');

interface Turn { len: number; score: number; votes: (number | 'fail')[] }
// sessions → turns (1-based in the server); the last turn of each session has no next state.
const SESSIONS: Record<string, Turn[]> = {
  a: [{ len: 3, score: 0, votes: [0, 0, 1] }, { len: 4, score: 1, votes: [1, 1, 0] }, { len: 2, score: 0, votes: [0, 0, 0] }, { len: 2, score: 0, votes: [] }],
  b: [{ len: 6, score: 1, votes: [1, 1, -1] }, { len: 7, score: 0, votes: [0, 'fail', 0] }, { len: 3, score: 0, votes: [0, 0, 0] }, { len: 2, score: 0, votes: [] }],
  c: [{ len: 2, score: -1, votes: [-1, -1, 0] }, { len: 3, score: 0, votes: [0, 1, -1] }, { len: 1, score: 0, votes: [] }],
  d: [{ len: 4, score: 0, votes: [] }],
};
// the order PRM results finish (session, turn), then each session's end
const EVENTS: [string, number | 'done'][] = [
  ['b', 2], ['a', 2], ['a', 3], ['c', 1], ['b', 3], ['a', 1], ['b', 1], ['c', 2], ['d', 'done'], ['a', 'done'], ['c', 'done'], ['b', 'done'],
];

const DRIVER = String.raw`
import asyncio, json, sys
from openclaw_api_server import OpenClawAPIServer
import gate_module
inp = json.load(sys.stdin)

async def run(server_cls):
    server = server_cls()
    futures = {}
    for sid, turns in inp["sessions"].items():
        for k, t in enumerate(turns, start=1):
            last = k == len(turns)
            td = {"prompt_ids": [5] * 3, "response_ids": [9] * t["len"], "response_logprobs": [-0.5] * t["len"],
                  "prompt_text": "p", "response_text": "%s:%d" % (sid, k)}
            server._pending_turn_data.setdefault(sid, {})[k] = td
            if not last:  # _fire_prm_scoring: a next state arrived, the PRM runs
                td["has_next_state"] = True
                futures[(sid, k)] = asyncio.get_running_loop().create_future()
                server._prm_tasks.setdefault(sid, {})[k] = futures[(sid, k)]
    for sid, k in inp["events"]:
        if k == "done":
            server._maybe_submit_ready_samples(sid, force_no_prm=True)
        else:
            t = inp["sessions"][sid][k - 1]
            futures[(sid, k)].set_result({"score": float(t["score"]), "votes": t["votes"], "representative_eval": ""})
            server._maybe_submit_ready_samples(sid)
        for _ in range(5):
            await asyncio.sleep(0)
    await asyncio.gather(*[t for t in asyncio.all_tasks() if t is not asyncio.current_task()], return_exceptions=True)
    out = []
    while not server.output_queue.empty():
        _, [s] = server.output_queue.get()
        out.append({"key": s.response, "mask": s.loss_mask, "reward": s.reward["score"], "index": s.index})
    return out

print(json.dumps({"plain": asyncio.run(run(OpenClawAPIServer)),
                  "gated": asyncio.run(run(gate_module.openclaw_gated_server(OpenClawAPIServer)))}))
`;

type Out = { key: string; mask: number[]; reward: number; index: number }[];
const run = (gate: string) => runAdapter(exported(gate, 'openclaw', openclaw), DRIVER, { sessions: SESSIONS, events: EVENTS }) as { plain: Out; gated: Out };

function record(key: string): Rec {
  const [sid, k] = key.split(':');
  const turns = SESSIONS[sid];
  const t = turns[Number(k) - 1];
  const next = Number(k) < turns.length;
  return withVotes({
    turn: Number(k) - 1, has_next_state: next, score: next ? t.score : 0, reward: next ? t.score : 0,
    votes: next ? t.votes.filter((v) => v !== 'fail') : [], response_len: t.len, session_first_judged: next && k === '1',
  });
}

describe('OpenClaw-RL adapter (the RL server\'s _submit_turn_sample)', () => {
  it('the built-in Binary RL gate submits exactly what the unpatched server submits', () => {
    const { plain, gated } = run(BINARY_RL);
    expect(plain.length).toBe(12);
    expect(gated).toEqual(plain);
    // the at-least-one promotion happened (a 0-scored judged turn with mask 1)
    expect(plain.some((s) => s.reward === 0 && s.mask.every((m) => m === 1))).toBe(true);
  }, scaled(30_000));

  it('another gate decides each turn as decideInOrder in the server\'s judging order, with its per-session counter', () => {
    const { plain, gated } = run(GATE);
    const keys = plain.map((s) => s.key); // the server's submission order is the judging order
    const recs = keys.map(record);
    const ds = labDecisions(GATE, recs, { session: keys.map((k) => k.split(':')[0]), judged: keys.map((_, i) => i) });
    const want = keys.flatMap((key, i) => (ds[i].queued ? [{ key, mask: new Array(recs[i].response_len as number).fill(ds[i].lossMask), reward: ds[i].reward }] : []));
    expect(gated.map(({ key, mask, reward }) => ({ key, mask, reward }))).toEqual(want);
    expect(new Set(ds.map((d) => d.rule))).toEqual(new Set([0, 1, 2, 3, 4, 5, 6]));
    expect(gated.map((s) => s.index)).toEqual(gated.map((_, i) => i));
  }, scaled(30_000));
});
