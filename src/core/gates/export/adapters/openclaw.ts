// OpenClaw-RL's RL server, where it decides each turn's loss mask as it is submitted. Followed
// (Gen-Verse/OpenClaw-RL@0d034dd):
//   openclaw-rl/openclaw_api_server.py  OpenClawAPIServer._submit_turn_sample (exclude = no next
//     state or score 0; the at-least-one promotion while _session_effective[session] == 0; the
//     counter incremented for every mask-1 sample) and _maybe_submit_ready_samples (turns submitted
//     as their PRM finishes: the judging order); the PRM result {score, votes} of _prm_evaluate.
// The OPD / Combine servers (a hint judge) are the target openclaw-opd (openclaw-opd.ts).
// The patch is a subclass: the rollout file builds the server through openclaw_gated_server(...).
import { COMMON_PYTHON, SOURCES } from './common';
import type { Adapter } from './types';

/** Python both OpenClaw-RL adapters share: a slime Sample of one turn, built as the servers build it. */
export const OPENCLAW_SHARED_PYTHON = String.raw`
import asyncio as _oc_asyncio


def _oc_sample(Sample, turn_data, loss_mask, reward, teacher_log_probs=None):
    response_ids = turn_data["response_ids"]
    s = Sample()
    s.prompt = turn_data["prompt_text"]
    s.response = turn_data["response_text"]
    s.tokens = turn_data["prompt_ids"] + response_ids
    s.response_length = len(response_ids)
    s.loss_mask = [loss_mask] * len(response_ids)
    s.rollout_log_probs = turn_data["response_logprobs"]
    if teacher_log_probs is not None:
        s.teacher_log_probs = teacher_log_probs
    s.status = Sample.Status.COMPLETED
    s.reward = {"score": float(reward)}
    return s
`;

const PYTHON = String.raw`
# ---------------------------------------------------------------------------------------------
# OpenClaw-RL adapter: the server decides each turn with this gate as it submits it.
# Follows ${SOURCES.openclaw}: openclaw-rl/openclaw_api_server.py OpenClawAPIServer._submit_turn_sample
# and _maybe_submit_ready_samples. (The OPD / Combine servers: export with --to openclaw-opd.)
# ---------------------------------------------------------------------------------------------
def openclaw_turn_record(turn, has_next_state, score, votes, response_len, effective_before):
    """The lab's record of one submitted turn (turn is 0-based; the server counts from 1)."""
    votes = [int(v) for v in (votes or []) if v in (1, 0, -1)]  # "fail" votes are not votes
    rec = {"turn": turn, "has_next_state": bool(has_next_state), "score": float(score), "reward": float(score),
           "votes": votes, "response_len": int(response_len),
           # every turn but the last gets a next state, so the first judged turn is turn 0
           "session_first_judged": bool(has_next_state) and turn == 0,
           "session_effective_before": int(effective_before)}
    return _lab_fill_votes(rec)


def _oc_decide_one(rec, where):
    return _lab_decide([rec], None, None, "OpenClaw-RL", where)[0]


def openclaw_gated_server(base):
    """A subclass of OpenClaw-RL's OpenClawAPIServer (openclaw-rl) deciding each turn with the gate.
    drop -> not submitted; mask0 / mask1 -> loss_mask all 0 / all 1, reward {"score": the gate's
    advantage} (the RL launcher's grpo without normalization uses it as A); the per-session counter
    _session_effective counts the mask-1 samples, as the server's does."""
    from slime.utils.types import Sample

    class GatedOpenClawAPIServer(base):
        def _maybe_submit_ready_samples(self, session_id, *args, **kwargs):
            for turn_num, td in self._pending_turn_data.get(session_id, {}).items():
                td.setdefault("lab_turn", turn_num - 1)
            return super()._maybe_submit_ready_samples(session_id, *args, **kwargs)

        async def _submit_turn_sample(self, turn_data, session_id, prm_result):
            has_next_state = turn_data.get("has_next_state", False)
            score = prm_result["score"] if prm_result else 0.0
            with self._eval_scores_lock:
                self._eval_scores.append(score)
            rec = openclaw_turn_record(turn_data["lab_turn"], has_next_state, score,
                                       (prm_result or {}).get("votes"), len(turn_data["response_ids"]),
                                       self._session_effective.get(session_id, 0))
            d = _oc_decide_one(rec, "the RL server has no hint judge and sees one turn at a time")
            if not d["queued"]:
                return
            sample = _oc_sample(Sample, turn_data, d["loss_mask"], d["reward"])
            sample.index = next(self._index_counter)
            sample.group_index = next(self._group_counter)
            if d["loss_mask"] == 1:
                self._session_effective[session_id] = self._session_effective.get(session_id, 0) + 1
            await _oc_asyncio.to_thread(self.output_queue.put, (sample.group_index, [sample]))

    return GatedOpenClawAPIServer
`;

const unavailable = {
  state: 'OpenClaw serves open-ended chat: there is no task state to name',
  is_last_turn: 'a turn is submitted when its judge finishes, before the session ends',
  session_len: 'a turn is submitted before the session ends',
  session_has_effective: 'it looks at later turns of the session, not yet judged when a turn is submitted',
  group_size: 'OpenClaw has no groups (one sample per prompt); the session as its group is not complete when a turn is submitted',
  group_reward_mean: 'no groups; the session is not complete when a turn is submitted',
  group_reward_std: 'no groups; the session is not complete when a turn is submitted',
  staleness: 'the server does not know the trainer\'s version',
  rollout_logp_gap: 'the trainer\'s log-probs are computed after submission',
  hint_len: 'the RL server has no hint judge (the OPD / Combine servers have one: export with --to openclaw-opd)',
  hint_votes_pos: 'the RL server has no hint judge (the OPD / Combine servers have one: export with --to openclaw-opd)',
  hint_accepted: 'the RL server has no hint judge (the OPD / Combine servers have one: export with --to openclaw-opd)',
} as const;

export const openclaw: Adapter = {
  target: 'openclaw',
  title: 'OpenClaw-RL: the server\'s turn submission',
  unavailable,
  python: COMMON_PYTHON + OPENCLAW_SHARED_PYTHON + PYTHON,
  docs: `OpenClaw-RL (${SOURCES.openclaw}), patched where the server decides each turn. Put gate_openclaw.py beside openclaw-rl/openclaw_api_server.py and, in openclaw-rl/openclaw_rollout.py, build the server as \`openclaw_gated_server(OpenClawAPIServer)(args=..., output_queue=..., submission_enabled=...)\`; the launcher stays as it is (grpo, --disable-rewards-normalization).
Followed: openclaw-rl/openclaw_api_server.py _submit_turn_sample and _maybe_submit_ready_samples. The OPD / Combine servers: the target openclaw-opd.
Each turn becomes a record as it is submitted, in the server's judging order: turn, has_next_state, score = reward (the PRM majority), votes (a "fail" vote is not a vote), response_len, session_first_judged (a next state and turn 0: every turn but the last gets one), session_effective_before = the server's own per-session counter of mask-1 samples.
Decides as the lab: drop (never submitted), the loss mask, the advantage (reward), the at-least-one counter across batches, cleared where the server clears it (session_done pops it before judges still running finish; the import models this). The built-in Binary RL gate decides exactly as the unpatched server.
Needs OPENCLAW_RECORD_ENABLED=1: the server starts a turn's PRM only when it flushes the turn's buffered record (_buffer_record returns early without a record file), so with 0 no PRM ever fires and every turn is submitted unjudged.
Cannot: the fields ${Object.keys(unavailable).join(', ')}.`,
};
