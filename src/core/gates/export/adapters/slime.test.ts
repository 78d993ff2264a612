// slime's reward post-process hook under python3 against a stand-in of slime's Sample and of the
// part of _convert_samples_to_train_data that reads the hook (tests/fixtures/trainers/slime_standin.py),
// compared with the core's decideInOrder on the records the adapter's docs promise.
import { describe, expect, it } from 'vitest';
import { exported, runAdapter } from '../../../../../tests/support/adapter-python';
import { labDecisions, withGroups, withVotes, type Rec } from '../../../../../tests/support/adapter-expected';
import { scaled } from '../../../../../tests/support/speed';
import { ExportRefused, exportGate } from '../targets';
import { ADAPTERS } from './index';
import { slime } from './slime';

const GATE = [
  'votes_pos > 0 && votes_neg > 0 => drop # votes disagree',
  'response_len > 6 => mask0 # long',
  'group_reward_std == 0 => mask0 # no signal',
  'reward > 0 => mask1 rl_zscore # good',
  'true => mask1 0.5*rl',
].join('\n');

interface SlimeCase { group: number; reward: number; len: number; prompt: number; mask: number[] | null; votes: number[] }
// Two GRPO groups of 4 and one group whose rewards are all equal; prompts longer than responses, so
// a response length read from the tokens would decide differently.
const CASES: SlimeCase[] = [
  { group: 0, reward: 1, len: 3, prompt: 5, mask: null, votes: [1, 1, 0] },
  { group: 0, reward: -1, len: 4, prompt: 5, mask: null, votes: [1, -1, -1] },
  { group: 0, reward: 0.5, len: 7, prompt: 2, mask: null, votes: [1, 0, 0] },
  { group: 0, reward: -0.5, len: 2, prompt: 5, mask: [1, 0], votes: [0, 0, -1] },
  { group: 1, reward: 2, len: 5, prompt: 1, mask: [0, 0, 0, 0, 0], votes: [1, 1, 1] },
  { group: 1, reward: -2, len: 3, prompt: 9, mask: null, votes: [-1, -1, 0] },
  { group: 2, reward: 1, len: 3, prompt: 4, mask: null, votes: [1, 1, 1] },
  { group: 2, reward: 1, len: 3, prompt: 4, mask: null, votes: [1, 1, 1] },
];

const DRIVER = String.raw`
import json, sys
from slime_standin import Sample, make_args, convert_samples_to_train_data
import gate_module
cases = json.load(sys.stdin)
args = make_args(reward_key="score")
samples = [Sample(group_index=c["group"], index=i, tokens=[7] * (c["prompt"] + c["len"]), response_length=c["len"],
                  reward={"score": c["reward"], "other": 99.0}, loss_mask=c["mask"], metadata={"votes": c["votes"]})
           for i, c in enumerate(cases)]
out = convert_samples_to_train_data(args, samples, gate_module.post_process_rewards)
out["removed"] = [s.remove_sample for s in samples]
print(json.dumps(out))
`;

function expected(cases: SlimeCase[]) {
  const recs: Rec[] = withGroups(
    cases.map((c) => withVotes({ reward: c.reward, response_len: c.len, has_next_state: true, votes: c.votes })),
    (i) => cases[i].group,
  );
  const ds = labDecisions(GATE, recs);
  return {
    rewards: ds.map((d) => (d.queued && d.lossMask === 1 ? d.reward : 0)),
    raw_reward: cases.map((c) => c.reward),
    loss_masks: ds.map((d, i) => {
      const c = cases[i];
      if (!d.queued || d.lossMask === 0) return new Array(c.len).fill(0);
      return c.mask ?? new Array(c.len).fill(1); // the rollout's mask, all-zero too; None: slime's ones
    }),
    removed: ds.map((d) => !d.queued),
    rules: ds.map((d) => d.rule),
  };
}

describe('slime adapter (--custom-reward-post-process-path)', () => {
  it('decides each Sample as the lab: removed samples, loss masks, the rewards grpo uses as advantages', () => {
    const got = runAdapter(exported(GATE, 'slime', slime), DRIVER, CASES) as ReturnType<typeof expected>;
    const want = expected(CASES);
    expect(got.removed).toEqual(want.removed);
    expect(got.loss_masks).toEqual(want.loss_masks);
    expect(got.raw_reward).toEqual(want.raw_reward);
    got.rewards.forEach((r, i) => expect(r).toBeCloseTo(want.rewards[i], 12));
    // every rule of the gate decides some sample (dropped, mask 0 twice, z-scored, 0.5·r)
    expect(new Set(want.rules)).toEqual(new Set([0, 1, 2, 3, 4]));
  }, scaled(30_000));

  it('keeps a kept sample\'s all-zero rollout mask (group 1\'s first sample: mask 1 by the gate, no token trained by the rollout)', () => {
    const got = runAdapter(exported(GATE, 'slime', slime), DRIVER, CASES) as ReturnType<typeof expected>;
    expect(expected(CASES).rules[4]).toBe(3);
    expect(got.loss_masks[4]).toEqual([0, 0, 0, 0, 0]);
  }, scaled(30_000));

  it('a metadata key named like a field the Sample gives is an error; metadata["lab_override"] replaces it explicitly', () => {
    const driver = String.raw`
import json, sys
from slime_standin import Sample, make_args
import gate_module
args = make_args(reward_key="score")
def run(metadata):
    s = [Sample(group_index=0, index=i, tokens=[7] * 4, response_length=2, reward={"score": 1.0}, loss_mask=None, metadata=dict(metadata, votes=[1, 1, 0]))
         for i in range(2)]
    try:
        return gate_module.post_process_rewards(args, s)
    except ValueError as e:
        return str(e)
print(json.dumps({"plain": run({}), "named": run({"reward": -1.0}), "override": run({"lab_override": {"reward": -1.0}}),
                  "unknown": run({"lab_override": {"rewrd": -1.0}})}))
`;
    const got = runAdapter(exported('true => mask1 rl', 'slime', slime), driver, null) as Record<string, unknown>;
    expect(got.plain).toEqual([[1, 1], [1, 1]]);
    expect(got.named).toMatch(/metadata carries 'reward', which the adapter reads from the Sample \(Sample\.get_reward_value \(--reward-key\)\); to replace the Sample's value, put it in sample\.metadata\['lab_override'\]/);
    expect(got.override).toEqual([[-1, -1], [-1, -1]]);
    expect(got.unknown).toMatch(/names 'rewrd', which is not a lab field/);
  }, scaled(30_000));

  it('refuses a gate that reads a field the hook cannot see, naming the field and why', () => {
    expect(ADAPTERS.slime).toBe(slime);
    const o = { labVersion: 'test', adapters: ADAPTERS };
    expect(() => exportGate('staleness > 1 => drop\ntrue => mask1 rl', 'slime', o)).toThrow(ExportRefused);
    expect(() => exportGate('staleness > 1 => drop\ntrue => mask1 rl', 'slime', o)).toThrow(/"staleness", which slime cannot provide: the hook runs before training/);
    expect(() => exportGate(GATE, 'slime', o)).not.toThrow();
  });
});
