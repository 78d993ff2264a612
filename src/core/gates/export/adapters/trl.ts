// TRL's GRPOTrainer: a reward function that returns the gate's reward for the completions it keeps
// with loss mask 1 and None for the others. Followed (huggingface/trl@f2cd577):
//   trl/trainer/grpo_trainer.py  GRPOTrainer docstring (a custom reward function may return None
//     where it does not apply); _calculate_rewards (called with prompts, completions, completion_ids
//     and the dataset's columns, trainer_state, log_extra, log_metric; None becomes NaN); and
//     _generate_and_score_completions (a row where every reward function returned None is
//     unscorable: out of its group's nanmean / nanstd baseline, advantage forced to 0; the others
//     get (r − group mean) / (Bessel std + 1e-4), or r − mean with scale_rewards="none");
//   trl/trainer/utils.py  nanstd (Bessel's correction).
import { COMMON_PYTHON, SOURCES } from './common';
import type { Adapter } from './types';

const PYTHON = String.raw`
# ---------------------------------------------------------------------------------------------
# TRL adapter: GRPOTrainer(reward_funcs=[trl_gated_reward(your_score_fn)])
# Follows ${SOURCES.trl}: trl/trainer/grpo_trainer.py GRPOTrainer._calculate_rewards and
# _generate_and_score_completions; trl/trainer/utils.py nanstd.
# ---------------------------------------------------------------------------------------------
TRL_RESERVED = ("trainer_state", "log_extra", "log_metric", "environments")


def trl_records(scored, completion_ids, columns):
    """One lab record per completion: what the scoring function returned (a number = the reward, or
    a dict of lab fields), response_len = len(completion_ids[i]), a one-turn session, and any lab
    field that is a dataset column (TRL passes the columns as keyword arguments)."""
    records = []
    for i, s in enumerate(scored):
        rec = dict(s) if isinstance(s, dict) else {"reward": s}
        for name, values in columns.items():
            if name in FIELDS and name not in TRL_UNAVAILABLE:
                rec.setdefault(name, values[i])
        rec.setdefault("response_len", len(completion_ids[i]))
        for name, value in (("has_next_state", True), ("turn", 0), ("is_last_turn", True), ("session_len", 1),
                            ("session_first_judged", True), ("session_effective_before", 0)):
            rec.setdefault(name, value)
        if "reward" in rec:
            rec["reward"] = float(rec["reward"])
            rec.setdefault("session_has_effective", rec["reward"] != 0)
        for name in TRL_UNAVAILABLE:
            if name in rec:
                raise ValueError("TRL reward function: %r cannot come from the scoring function: %s" % (name, TRL_UNAVAILABLE[name]))
        records.append(_lab_fill_votes(rec))
    return records


def trl_gated_reward(score_fn, name="lab_gate"):
    """A TRL reward function: score_fn(prompts=, completions=, completion_ids=, **columns) gives
    one number or dict of lab fields per completion; the gate decides; the reward is the gate's
    reward for mask-1 completions and None (TRL: no signal, out of the group's baseline) for the rest."""
    def reward_func(prompts, completions, completion_ids=None, **kwargs):
        scored = score_fn(prompts=prompts, completions=completions, completion_ids=completion_ids, **kwargs)
        columns = {k: v for k, v in kwargs.items() if k not in TRL_RESERVED}
        records = trl_records(scored, completion_ids, columns)
        decisions = _lab_decide(records, None, None, "TRL",
                                "return it from the scoring function (a dict per completion) or add it as a dataset column")
        for d in decisions:
            if d["opd_weight"] != 0:
                raise ValueError("TRL's GRPO has no teacher term (rule %d decided an OPD term)" % d["rule"])
        return [float(d["reward"]) if d["queued"] and d["loss_mask"] == 1 else None for d in decisions]

    reward_func.__name__ = name
    return reward_func
`;

const unavailable = {
  group_size: 'a reward function sees only its process\'s completions (a group may span processes), and TRL computes the group statistics itself after it',
  group_reward_mean: 'a reward function sees only its process\'s completions, and TRL computes the group baseline itself after it',
  group_reward_std: 'a reward function sees only its process\'s completions, and TRL computes the group std itself after it',
  staleness: 'a reward function is not told which weights generated the completion',
  rollout_logp_gap: 'log-probs are computed after the rewards',
  hint_len: 'TRL\'s GRPO has no teacher term (no hint judge, no OPD)',
  hint_votes_pos: 'TRL\'s GRPO has no hint judge',
  hint_accepted: 'TRL\'s GRPO has no hint judge',
} as const;

export const trl: Adapter = {
  target: 'trl',
  title: 'TRL GRPOTrainer: a reward function',
  unavailable,
  python: `${COMMON_PYTHON}\nTRL_UNAVAILABLE = ${JSON.stringify(unavailable)}\n${PYTHON}`,
  docs: `TRL (${SOURCES.trl}), GRPOTrainer with a reward function. Put gate_trl.py beside your training script: \`from gate_trl import trl_gated_reward\`, then \`GRPOTrainer(..., reward_funcs=[trl_gated_reward(my_score)])\` as the only reward function, where \`my_score(prompts, completions, completion_ids, **columns)\` returns per completion a reward or a dict of lab fields (e.g. \`{"reward": 1.0, "votes": [1, 1, 0]}\`).
Followed: trl/trainer/grpo_trainer.py GRPOTrainer._calculate_rewards and _generate_and_score_completions; trl/trainer/utils.py nanstd.
Each completion is a record: what my_score returned, dataset columns named like lab fields, response_len = len(completion_ids), a one-turn session (turn 0, last turn, first judged, session_effective_before 0).
Decides as the lab: which completions get a signal — the gate's reward for mask-1 completions, None for dropped and mask-0 ones, which TRL keeps out of the group baseline with advantage 0.
Cannot, without subclassing GRPOTrainer (overriding _generate_and_score_completions): the advantage itself (TRL always centers each group and, unless scale_rewards="none", divides by its Bessel std + 1e-4, so the gate's rl / rl_zscore terms are normalized again); a loss mask (a None completion stays in the batch and still counts in the loss's normalization (its tokens or its sequence, by loss_type), so drop and mask0 are alike and neither removes compute); the fields ${Object.keys(unavailable).join(', ')}.`,
};
