// TRL's GRPO reward function under python3 against a stand-in of GRPOTrainer._calculate_rewards and
// its group advantage (tests/fixtures/trainers/trl_standin.py), compared with the core's
// decideInOrder on the records the adapter's docs promise.
import { describe, expect, it } from 'vitest';
import { exported, runAdapter } from '../../../../../tests/support/adapter-python';
import { labDecisions, withVotes, type Rec } from '../../../../../tests/support/adapter-expected';
import { scaled } from '../../../../../tests/support/speed';
import { ExportRefused, exportGate } from '../targets';
import { ADAPTERS } from './index';
import { trl } from './trl';

const GATE = [
  'votes_pos > 0 && votes_neg > 0 => drop # votes disagree',
  'state == "math" && response_len > 4 => mask0 # long math',
  'score == 0 => mask0 # no signal',
  'reward > 0 => mask1 2*rl',
  'true => mask1 rl',
].join('\n');

// two prompts × 4 generations; state is a dataset column, the scoring function returns reward + votes
interface Row { state: string; ids: number; reward: number | null; votes: number[] }
const ROWS: Row[] = [
  { state: 'math', ids: 3, reward: 1, votes: [1, 1, 0] },
  { state: 'math', ids: 6, reward: 1, votes: [1, 1, 1] },
  { state: 'math', ids: 2, reward: -1, votes: [1, -1, -1] },
  { state: 'math', ids: 2, reward: 0.5, votes: [0, 0, 1] },
  { state: 'code', ids: 6, reward: -1, votes: [-1, -1, 0] },
  { state: 'code', ids: 1, reward: 1, votes: [1, 1, 1] },
  { state: 'code', ids: 5, reward: 0.25, votes: [1, 1, 0] },
  { state: 'code', ids: 2, reward: -0.5, votes: [-1, 0, -1] },
];

const DRIVER = String.raw`
import json, sys
from trl_standin import calculate_rewards, advantages
import gate_module
rows = json.load(sys.stdin)
def my_score(prompts, completions, completion_ids, **columns):
    assert "trainer_state" in columns and "state" in columns
    return [{"reward": r["reward"], "votes": r["votes"]} for r in rows]
inputs = [{"prompt": "q%d" % (i // 4), "state": r["state"]} for i, r in enumerate(rows)]
completion_ids = [[7] * r["ids"] for r in rows]
rewards = calculate_rewards(gate_module.trl_gated_reward(my_score), inputs, [x["prompt"] for x in inputs],
                            ["c"] * len(rows), completion_ids)
print(json.dumps({"rewards": [None if r != r else r for r in rewards], "advantages": advantages(rewards, 4)}))
`;

describe('TRL adapter (a GRPOTrainer reward function)', () => {
  it('returns the gate\'s reward for mask-1 completions and None for the rest (TRL: advantage 0)', () => {
    const got = runAdapter(exported(GATE, 'trl', trl), DRIVER, ROWS) as { rewards: (number | null)[]; advantages: number[] };
    const recs: Rec[] = ROWS.map((r) => withVotes({ reward: r.reward, votes: r.votes, state: r.state, response_len: r.ids }));
    const ds = labDecisions(GATE, recs);
    expect(new Set(ds.map((d) => d.rule))).toEqual(new Set([0, 1, 2, 3, 4]));
    expect(got.rewards).toEqual(ds.map((d) => (d.queued && d.lossMask === 1 ? d.reward : null)));
    got.rewards.forEach((r, i) => r === null && expect(got.advantages[i]).toBe(0));
  }, scaled(30_000));

  // TRL's own idiom: a score of None where the function does not apply; sync and async, and the
  // warning TRL logs for a row with no reward, captured from the trainer module's logger
  const NONE_DRIVER = String.raw`
import io, json, logging, sys
from trl_standin import calculate_rewards
import gate_module
rows = json.load(sys.stdin)
log = io.StringIO()
logging.getLogger("trl.trainer.grpo_trainer").addHandler(logging.StreamHandler(log))
scores = [None if r["reward"] is None else {"reward": r["reward"], "votes": r["votes"]} for r in rows]
def my_score(prompts, completions, completion_ids, **columns):
    return scores
async def my_async_score(prompts, completions, completion_ids, **columns):
    return scores
def run(fn):
    inputs = [{"prompt": "q", "state": r["state"]} for r in rows]
    out = calculate_rewards(gate_module.trl_gated_reward(fn), inputs, ["q"] * len(rows), ["c"] * len(rows), [[7] * r["ids"] for r in rows])
    return [None if r != r else r for r in out]
print(json.dumps({"sync": run(my_score), "async": run(my_async_score), "log": log.getvalue()}))
`;

  it('a score of None is an unjudged completion (reward 0, no next state), sync or async; TRL\'s None warning is not raised for the gate\'s own None', () => {
    const rows = ROWS.map((r, i) => (i === 1 || i === 6 ? { ...r, reward: null } : r));
    const got = runAdapter(exported(GATE, 'trl', trl), NONE_DRIVER, rows) as { sync: (number | null)[]; async: (number | null)[]; log: string };
    const recs: Rec[] = rows.map((r) => (r.reward === null ? withVotes({ reward: 0, has_next_state: false, votes: [], state: r.state, response_len: r.ids }) : withVotes({ reward: r.reward, votes: r.votes, state: r.state, response_len: r.ids })));
    const want = labDecisions(GATE, recs).map((d) => (d.queued && d.lossMask === 1 ? d.reward : null));
    expect(want.filter((r) => r === null).length).toBeGreaterThan(0);
    expect(got.sync).toEqual(want);
    expect(got.async).toEqual(want);
    expect(got.log).toBe('');
  }, scaled(30_000));

  it('checks TRL\'s version when the module loads: refused before 1.6.0 (a None reward joined the baseline as 0), warned for a 1.6.0 pre-release', () => {
    const driver = String.raw`
import json, sys, types, warnings
out = {}
for v in json.load(sys.stdin):
    sys.modules["trl"] = types.SimpleNamespace(__version__=v)
    sys.modules.pop("gate_module", None)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            import gate_module
            out[v] = "ok" if not w else "warned: " + str(w[0].message)
        except ImportError as e:
            out[v] = "refused: " + str(e)
print(json.dumps(out))
`;
    const got = runAdapter(exported(GATE, 'trl', trl), driver, ['1.5.1', '1.6.0', '1.9.0', '1.6.0.dev0', '0.29.1']) as Record<string, string>;
    expect(got['1.5.1']).toMatch(/^refused: gate for TRL needs TRL >= 1\.6\.0, found 1\.5\.1/);
    expect(got['0.29.1']).toMatch(/^refused/);
    expect(got['1.6.0']).toBe('ok');
    expect(got['1.9.0']).toBe('ok');
    expect(got['1.6.0.dev0']).toMatch(/^warned: .*pre-release of 1\.6\.0/);
  }, scaled(30_000));

  it('refuses a gate reading the group statistics, which TRL computes after the reward function', () => {
    expect(ADAPTERS.trl).toBe(trl);
    const o = { labVersion: 'test', adapters: ADAPTERS };
    expect(() => exportGate('true => mask1 rl_zscore', 'trl', o)).toThrow(ExportRefused);
    expect(() => exportGate('true => mask1 rl_zscore', 'trl', o)).toThrow(/"group_reward_mean", which trl cannot provide/);
  });
});
