// slime's --custom-reward-post-process-path hook: a gate deciding each rollout's loss masks,
// removed samples and the rewards slime turns into advantages. Followed (THUDM/slime@624b824):
//   slime/ray/rollout.py  RolloutManager._post_process_rewards: with the flag set, slime calls
//     f(args, samples) and uses its (raw_rewards, rewards); _convert_samples_to_train_data asserts
//     one of each per sample, turns a None loss_mask into ones and zeroes the mask of a sample with
//     remove_sample=True (it stays in the batch);
//   slime/backends/megatron_utils/loss.py  compute_advantages_and_returns → slime/utils/ppo_utils.py
//     get_grpo_returns: with --advantage-estimator grpo each returned reward is the advantage of
//     every response token;
//   slime/utils/types.py  Sample (reward, response_length, group_index, loss_mask, remove_sample,
//     metadata) and Sample.get_reward_value (the --reward-key entry of a dict reward).
import { COMMON_PYTHON, SOURCES } from './common';
import type { Adapter } from './types';

const PYTHON = String.raw`
# ---------------------------------------------------------------------------------------------
# slime adapter: --custom-reward-post-process-path <this module>.post_process_rewards
# Follows ${SOURCES.slime}: slime/ray/rollout.py RolloutManager._post_process_rewards and
# _convert_samples_to_train_data, slime/utils/ppo_utils.py get_grpo_returns, slime/utils/types.py Sample.
# ---------------------------------------------------------------------------------------------

# Fields slime's hook cannot give (a gate reading one is refused for this target).
SLIME_UNAVAILABLE = __UNAVAILABLE__


def slime_reward_value(args, sample):
    """The sample's scalar reward as slime reads it (Sample.get_reward_value: args.reward_key of a dict)."""
    key = getattr(args, "reward_key", None)
    r = sample.reward[key] if key else sample.reward
    return float(r)


# Fields read from the Sample itself; sample.metadata replaces one only under "lab_override".
SLIME_FROM_SAMPLE = {"reward": "Sample.get_reward_value (--reward-key)", "response_len": "Sample.response_length"}
SLIME_OVERRIDE = "lab_override"


def _slime_field(name, value, rec):
    if name in SLIME_UNAVAILABLE:
        raise ValueError("slime sample metadata carries %r, which the slime hook cannot know: %s" % (name, SLIME_UNAVAILABLE[name]))
    rec[name] = value


def slime_records(args, samples):
    """One lab record per slime Sample: reward, response_len and has_next_state from the Sample,
    the group statistics from group_index over this rollout's samples, and any other lab field that
    your rollout or reward function stored in sample.metadata under the lab's name (e.g. "votes").
    A field the Sample gives (reward, response_len) is replaced only from
    sample.metadata["lab_override"] (a dict): under its own name in metadata it is an error."""
    records = []
    for s in samples:
        rec = {"reward": slime_reward_value(args, s), "response_len": int(s.response_length), "has_next_state": True}
        meta = s.metadata or {}
        for name, value in meta.items():
            if name == SLIME_OVERRIDE:
                continue
            if name in SLIME_FROM_SAMPLE:
                raise ValueError("slime sample metadata carries %r, which the adapter reads from the Sample (%s); "
                                 "to replace the Sample's value, put it in sample.metadata[%r] = {%r: ...}"
                                 % (name, SLIME_FROM_SAMPLE[name], SLIME_OVERRIDE, name))
            _slime_field(name, value, rec)
        override = meta.get(SLIME_OVERRIDE) or {}
        if not isinstance(override, dict):
            raise ValueError("slime sample metadata[%r] must be a dict of lab fields, not %s" % (SLIME_OVERRIDE, type(override).__name__))
        for name, value in override.items():
            if name not in FIELDS:
                raise ValueError("slime sample metadata[%r] names %r, which is not a lab field" % (SLIME_OVERRIDE, name))
            _slime_field(name, value, rec)
        records.append(_lab_fill_votes(rec))
    keys = [s.group_index if s.group_index is not None else ("sample", i) for i, s in enumerate(samples)]
    return _lab_fill_groups(records, keys)


def post_process_rewards(args, samples):
    """slime's reward post-process hook: decides each sample as the lab's gate does.
    drop  -> sample.remove_sample = True (slime zeroes its loss mask; it stays in the batch);
    mask0 -> loss_mask all 0; mask1 -> the rollout's token mask kept (None: slime makes it all 1);
    returns (raw_rewards, rewards): the rewards are the gate's advantage (0 unless mask 1)."""
    while samples and isinstance(samples[0], list):
        samples = [s for group in samples for s in group]
    records = slime_records(args, samples)
    decisions = _lab_decide(records, None, None, "slime",
                            "store it in sample.metadata[name] in your rollout or reward function")
    raw_rewards, rewards = [], []
    for s, rec, d in zip(samples, records, decisions):
        if d["opd_weight"] != 0:
            raise ValueError("slime's reward hook carries no per-sample teacher weight (rule %d decided an OPD term)" % d["rule"])
        n = int(s.response_length)
        if not d["queued"]:
            s.remove_sample = True
        elif d["loss_mask"] == 0:
            s.loss_mask = [0] * n
        raw_rewards.append(rec["reward"])
        rewards.append(float(d["reward"]) if d["queued"] and d["loss_mask"] == 1 else 0.0)
    return raw_rewards, rewards
`;

const unavailable = {
  staleness: 'the hook runs before training and is given no trainer version (only the rollout\'s samples)',
  rollout_logp_gap: 'the trainer\'s log-probs are computed after the hook (in the training actor)',
  session_effective_before: 'the hook sees one rollout batch: a session\'s turns decided in earlier batches are gone (OpenClaw-RL keeps this counter in its server: export with --to openclaw)',
  hint_len: 'slime has no hint judge (its on-policy distillation reads a teacher with no hint); an OPD term needs it',
  hint_votes_pos: 'slime has no hint judge',
  hint_accepted: 'slime has no hint judge',
} as const;

export const slime: Adapter = {
  target: 'slime',
  title: 'slime: --custom-reward-post-process-path',
  unavailable,
  python: COMMON_PYTHON + PYTHON.replace('__UNAVAILABLE__', JSON.stringify(unavailable)),
  docs: `slime (${SOURCES.slime}), the reward post-process hook: \`--custom-reward-post-process-path gate_slime.post_process_rewards --advantage-estimator grpo\` (no \`--normalize-advantages\`).
Followed: slime/ray/rollout.py RolloutManager._post_process_rewards and _convert_samples_to_train_data, slime/utils/ppo_utils.py get_grpo_returns, slime/utils/types.py Sample.
Each Sample becomes a record: reward (Sample.get_reward_value, --reward-key), response_len (response_length), has_next_state true, the group fields over the rollout's samples sharing group_index; every other field from sample.metadata under the lab's name (votes alone give votes_pos/neg/zero and score). A metadata key named reward or response_len is an error: the Sample gives those, and sample.metadata["lab_override"] (a dict of lab fields) replaces them explicitly.
Decides as the lab: which rule, the loss mask (mask 1 keeps the rollout's own token mask, an all-zero one too), the advantage (the returned rewards, broadcast over the tokens by grpo).
Cannot: remove a sample from the batch — a dropped sample gets remove_sample (an all-zero loss mask) and still costs its compute, so the lab's drop and mask0 train alike here; a per-sample OPD weight; the fields ${Object.keys(unavailable).join(', ')}.`,
};
