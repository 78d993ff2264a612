// verl: a registered advantage estimator deciding each response of the batch. Followed
// (volcengine/verl@b178a3c):
//   verl/trainer/ppo/core_algos.py  register_adv_est / get_adv_estimator_fn (the registry by name)
//     and compute_grpo_outcome_advantage (scores = token_level_rewards.sum(-1); groups by index =
//     the uid; returns (advantages, returns) = (scores.unsqueeze(-1) * response_mask, same));
//   verl/trainer/ppo/ray_trainer.py  compute_advantage: an estimator other than GAE / GRPO is called
//     with token_level_rewards, response_mask (the batch's own tensor), config and index
//     (non_tensor_batch["uid"]), nothing else; RayPPOTrainer.fit: reward_extra_info goes to
//     non_tensor_batch (never passed to the estimator); the only sampler hook,
//     AbstractCurriculumSampler.update(batch) (verl/experimental/dataset/sampler.py), runs after
//     the update and chooses later prompts: no hook removes a response from the current batch.
import { COMMON_PYTHON, SOURCES } from './common';
import type { Adapter } from './types';

const PYTHON = String.raw`
# ---------------------------------------------------------------------------------------------
# verl adapter: a registered advantage estimator, algorithm.adv_estimator=lab_gate
# Follows ${SOURCES.verl}: verl/trainer/ppo/core_algos.py register_adv_est and
# compute_grpo_outcome_advantage; verl/trainer/ppo/ray_trainer.py compute_advantage.
# ---------------------------------------------------------------------------------------------


def verl_records(rewards, lengths, index):
    """One lab record per response: reward (its token_level_rewards summed), response_len (its
    response_mask summed), a one-turn session, the group fields over the responses sharing a uid."""
    records = [{"reward": float(r), "response_len": int(n), "has_next_state": True, "turn": 0,
                "is_last_turn": True, "session_len": 1, "session_first_judged": True,
                "session_has_effective": float(r) != 0, "session_effective_before": 0}
               for r, n in zip(rewards, lengths)]
    keys = [index[i] for i in range(len(records))] if index is not None else list(range(len(records)))
    return _lab_fill_groups(records, keys)


def verl_gate_advantage(token_level_rewards, response_mask, config=None, index=None, **kwargs):
    """verl advantage estimator: advantages = the gate's reward on the response tokens of mask-1
    responses, 0 elsewhere; response_mask (the batch's tensor) is zeroed in place for mask-0 and
    dropped responses, so their tokens leave the loss. Returns (advantages, returns)."""
    rewards = token_level_rewards.sum(-1).tolist()
    lengths = response_mask.sum(-1).tolist()
    records = verl_records(rewards, lengths, index)
    decisions = _lab_decide(records, None, None, "verl",
                            "a verl advantage estimator sees only token_level_rewards, response_mask and the uid")
    keep = [1 if d["queued"] and d["loss_mask"] == 1 else 0 for d in decisions]
    values = [float(d["reward"]) if k else 0.0 for d, k in zip(decisions, keep)]
    response_mask.mul_(response_mask.new_tensor(keep).unsqueeze(-1))
    advantages = token_level_rewards.new_tensor(values).unsqueeze(-1) * response_mask
    return advantages, advantages


def verl_register(name="lab_gate", register_adv_est=None):
    """Register the estimator under name (verl's registry; call it in the trainer's process)."""
    if register_adv_est is None:
        from verl.trainer.ppo.core_algos import register_adv_est
    return register_adv_est(name)(verl_gate_advantage)
`;

const noExtra = 'a verl advantage estimator is given token_level_rewards, response_mask and the uid only (reward_extra_info stays in non_tensor_batch)';
const unavailable = {
  state: noExtra,
  votes: noExtra,
  votes_pos: noExtra,
  votes_neg: noExtra,
  votes_zero: noExtra,
  score: `${noExtra}: it sees the summed reward, not the judge's score`,
  hint_len: `${noExtra}; verl has no hint judge`,
  hint_votes_pos: `${noExtra}; verl has no hint judge`,
  hint_accepted: `${noExtra}; verl has no hint judge`,
  staleness: `${noExtra}; the trainer's version is not passed`,
  rollout_logp_gap: `${noExtra}; old and rollout log-probs are not passed`,
} as const;

export const verl: Adapter = {
  target: 'verl',
  title: 'verl: a registered advantage estimator (algorithm.adv_estimator=lab_gate)',
  unavailable,
  python: COMMON_PYTHON + PYTHON,
  docs: `verl (${SOURCES.verl}), a registered advantage estimator. Put gate_verl.py on the trainer's PYTHONPATH and register it in the process that computes advantages (the one that imports your custom_reward_function.path file): \`from gate_verl import verl_register; verl_register()\`; then \`algorithm.adv_estimator=lab_gate\`, with \`algorithm.use_kl_in_reward=False\` (the estimator reads token_level_rewards as the reward).
Followed: verl/trainer/ppo/core_algos.py register_adv_est, compute_grpo_outcome_advantage; verl/trainer/ppo/ray_trainer.py compute_advantage and RayPPOTrainer.fit; verl/experimental/dataset/sampler.py AbstractCurriculumSampler.
Each response is a record: reward (token_level_rewards summed), response_len (response_mask summed), a one-turn session (turn 0, last turn, first judged, session_effective_before 0), the group fields over the responses sharing a uid (the lab's population std, not verl GRPO's Bessel-corrected one).
Decides as the lab: the rule, the loss mask (response_mask zeroed in place for mask-0 and dropped responses: their tokens leave the token mean) and the advantage.
Cannot: remove a response from the batch — the estimator runs after generation and verl's only sampler hook (AbstractCurriculumSampler.update) runs after the update, choosing later prompts; a drop therefore costs its compute like mask0 (dropping rows needs a RayPPOTrainer subclass that filters the DataProto, as verl's DAPO recipe does); the fields ${Object.keys(unavailable).join(', ')}.`,
};
