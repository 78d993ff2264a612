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
import inspect as _trl_inspect
import logging as _trl_logging
import re as _trl_re
import warnings as _trl_warnings

TRL_RESERVED = ("trainer_state", "log_extra", "log_metric", "environments")
# TRL keeps a None reward out of its group's baseline from 1.6.0 on (its commit 1c7c7f9, #5902);
# before, nansum turns it into a reward of 0 that joins the group's mean and std.
TRL_MIN_VERSION = (1, 6, 0)


def trl_check_version(version):
    """Raise ImportError for a TRL older than TRL_MIN_VERSION; warn where the version cannot tell."""
    m = _trl_re.match(r"(\d+)\.(\d+)(?:\.(\d+))?(.*)$", str(version))
    if not m:
        _trl_warnings.warn("gate for TRL: cannot read TRL's version %r; it needs TRL >= 1.6.0 (a None reward kept out of the group baseline)" % (version,))
        return
    v = (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0))
    if v < TRL_MIN_VERSION:
        raise ImportError("gate for TRL needs TRL >= 1.6.0, found %s: before 1.6.0 GRPOTrainer turns the gate's None "
                          "(no signal) into a reward of 0 that joins the group's mean and std" % version)
    if v == TRL_MIN_VERSION and m.group(4):
        _trl_warnings.warn("gate for TRL: TRL %s is a pre-release of 1.6.0, which may predate the change that keeps a "
                           "None reward out of the group baseline (TRL #5902)" % version)


try:
    import trl as _trl
except ImportError:  # not installed here: the module still decides (checked where TRL is)
    _trl = None
if _trl is not None:
    trl_check_version(getattr(_trl, "__version__", "unknown"))


def trl_records(scored, completion_ids, columns):
    """One lab record per completion: what the scoring function returned (a number = the reward, or
    a dict of lab fields; None, or a dict whose reward is None = not judged: reward 0, no votes and
    has_next_state false, as the lab reads an unjudged sample of a log), response_len =
    len(completion_ids[i]), a one-turn session, and any lab field that is a dataset column (TRL
    passes the columns as keyword arguments)."""
    records = []
    for i, s in enumerate(scored):
        rec = dict(s) if isinstance(s, dict) else {"reward": s}
        if rec.get("reward", 0) is None:
            rec["reward"] = 0.0
            rec.setdefault("has_next_state", False)
            rec.setdefault("votes", [])
        for name, values in columns.items():
            if name in FIELDS and name not in TRL_UNAVAILABLE:
                rec.setdefault(name, values[i])
        rec.setdefault("response_len", len(completion_ids[i]))
        for name, value in (("has_next_state", True), ("turn", 0), ("is_last_turn", True), ("session_len", 1),
                            ("session_first_judged", True), ("session_effective_before", 0)):
            rec.setdefault(name, value)
        if "reward" in rec:
            rec["reward"] = float(rec["reward"])
            rec.setdefault("session_has_effective", rec["has_next_state"] is True and rec["reward"] != 0)
        for name in TRL_UNAVAILABLE:
            if name in rec:
                raise ValueError("TRL reward function: %r cannot come from the scoring function: %s" % (name, TRL_UNAVAILABLE[name]))
        records.append(_lab_fill_votes(rec))
    return records


class _TrlGateNoneFilter(_trl_logging.Filter):
    """Drops GRPOTrainer's "All reward functions returned None" warning for a call where the gate
    itself gave None (a completion it drops or masks: its deliberate no-signal), which TRL cannot
    tell from a failing reward function."""
    gave_none = False

    def filter(self, record):
        return not (self.gave_none and str(record.msg).startswith("All reward functions returned None"))


_TRL_NONE_FILTER = _TrlGateNoneFilter()
_trl_logging.getLogger("trl.trainer.grpo_trainer").addFilter(_TRL_NONE_FILTER)


def _trl_gate_rewards(scored, completion_ids, kwargs):
    columns = {k: v for k, v in kwargs.items() if k not in TRL_RESERVED}
    records = trl_records(scored, completion_ids, columns)
    decisions = _lab_decide(records, None, None, "TRL",
                            "return it from the scoring function (a dict per completion) or add it as a dataset column")
    for d in decisions:
        if d["opd_weight"] != 0:
            raise ValueError("TRL's GRPO has no teacher term (rule %d decided an OPD term)" % d["rule"])
    rewards = [float(d["reward"]) if d["queued"] and d["loss_mask"] == 1 else None for d in decisions]
    _TRL_NONE_FILTER.gave_none = any(r is None for r in rewards)
    return rewards


def trl_gated_reward(score_fn, name="lab_gate"):
    """A TRL reward function: score_fn(prompts=, completions=, completion_ids=, **columns) gives
    one number or dict of lab fields per completion (None: not judged); the gate decides; the reward
    is the gate's reward for mask-1 completions and None (TRL: no signal, out of the group's
    baseline) for the rest. An async score_fn gives an async reward function (TRL awaits it on its
    event loop)."""
    if _trl_inspect.iscoroutinefunction(score_fn):
        async def reward_func(prompts, completions, completion_ids=None, **kwargs):
            scored = await score_fn(prompts=prompts, completions=completions, completion_ids=completion_ids, **kwargs)
            return _trl_gate_rewards(scored, completion_ids, kwargs)
    else:
        def reward_func(prompts, completions, completion_ids=None, **kwargs):
            scored = score_fn(prompts=prompts, completions=completions, completion_ids=completion_ids, **kwargs)
            return _trl_gate_rewards(scored, completion_ids, kwargs)

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
