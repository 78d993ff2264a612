// verl's registered advantage estimator under python3 against a stand-in of verl's registry,
// DataProto and compute_advantage (tests/fixtures/trainers/verl_standin.py), compared with the
// core's decideInOrder on the records the adapter's docs promise.
import { describe, expect, it } from 'vitest';
import { exported, runAdapter } from '../../../../../tests/support/adapter-python';
import { labDecisions, withGroups, type Rec } from '../../../../../tests/support/adapter-expected';
import { scaled } from '../../../../../tests/support/speed';
import { ExportRefused, exportGate } from '../targets';
import { ADAPTERS } from './index';
import { verl } from './verl';

const GATE = [
  'group_reward_std == 0 => drop # no signal',
  'response_len > 4 && reward < 0 => mask0 # long and wrong',
  'session_has_effective && turn == 0 && is_last_turn && session_first_judged && session_effective_before == 0 => mask1 rl_zscore',
  'true => mask1 0.25*rl_centered',
].join('\n');

// rows: uid (prompt), token rewards on the response (reward at the last valid token), response mask
interface Row { uid: string; reward: number; mask: number[] }
const ROWS: Row[] = [
  { uid: 'p0', reward: 1, mask: [1, 1, 1, 0, 0, 0] },
  { uid: 'p0', reward: -1, mask: [1, 1, 1, 1, 1, 0] },
  { uid: 'p0', reward: 0, mask: [1, 1, 0, 0, 0, 0] },
  { uid: 'p1', reward: 0.5, mask: [1, 1, 1, 1, 1, 1] },
  { uid: 'p1', reward: 0.5, mask: [1, 0, 0, 0, 0, 0] },
  { uid: 'p2', reward: -1, mask: [1, 1, 1, 1, 1, 1] },
  { uid: 'p2', reward: 2, mask: [1, 1, 1, 0, 1, 1] },
  { uid: 'p2', reward: -1, mask: [1, 1, 0, 0, 0, 0] },
];

const DRIVER = String.raw`
import json, sys
from verl_standin import DataProto, Tensor, compute_advantage, register_adv_est
import gate_module
rows = json.load(sys.stdin)
gate_module.verl_register("lab_gate", register_adv_est)
def token_rewards(r):
    last = max(i for i, m in enumerate(r["mask"]) if m)
    return [float(r["reward"]) if i == last else 0.0 for i in range(len(r["mask"]))]
data = DataProto({"token_level_rewards": Tensor([token_rewards(r) for r in rows]),
                  "response_mask": Tensor([[float(m) for m in r["mask"]] for r in rows])},
                 {"uid": [r["uid"] for r in rows]})
compute_advantage(data, "lab_gate")
print(json.dumps({"advantages": data.batch["advantages"].tolist(), "response_mask": data.batch["response_mask"].tolist()}))
`;

describe('verl adapter (a registered advantage estimator)', () => {
  it('writes the lab\'s advantage on mask-1 responses and zeroes the batch\'s response_mask of the others', () => {
    const got = runAdapter(exported(GATE, 'verl', verl), DRIVER, ROWS) as { advantages: number[][]; response_mask: number[][] };
    const recs: Rec[] = withGroups(
      ROWS.map((r) => ({ reward: r.reward, response_len: r.mask.filter((m) => m === 1).length, has_next_state: true, turn: 0, is_last_turn: true,
        session_len: 1, session_first_judged: true, session_has_effective: r.reward !== 0, session_effective_before: 0 })),
      (i) => ROWS[i].uid,
    );
    const ds = labDecisions(GATE, recs);
    expect(new Set(ds.map((d) => d.rule))).toEqual(new Set([0, 1, 2, 3]));
    ds.forEach((d, i) => {
      const on = d.queued && d.lossMask === 1;
      expect(got.response_mask[i]).toEqual(ROWS[i].mask.map((m) => (on ? m : 0)));
      got.advantages[i].forEach((a, t) => expect(a).toBeCloseTo(on && ROWS[i].mask[t] ? d.reward : 0, 12));
    });
  }, scaled(30_000));

  it('refuses a gate reading the judge\'s votes: the estimator never sees them', () => {
    expect(ADAPTERS.verl).toBe(verl);
    const o = { labVersion: 'test', adapters: ADAPTERS };
    expect(() => exportGate('votes_pos > 1 => drop\ntrue => mask1 rl', 'verl', o)).toThrow(ExportRefused);
    expect(() => exportGate('votes_pos > 1 => drop\ntrue => mask1 rl', 'verl', o)).toThrow(/"votes_pos", which verl cannot provide: a verl advantage estimator is given/);
  });
});
