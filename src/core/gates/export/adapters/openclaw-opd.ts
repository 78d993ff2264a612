// OpenClaw-RL's OPD and Combine servers (the hint judge), patched where they decide what a judged
// turn becomes. Followed (Gen-Verse/OpenClaw-RL@0d034dd):
//   openclaw-opd/openclaw_opd_api_server.py  OpenClawOPDAPIServer._maybe_submit_ready_samples (the
//     decision point: a turn with no next state is dropped when its session ends, a failed judge is
//     skipped, a rejected hint is dropped, an accepted one submitted; eval scores kept in eval mode),
//     _submit_turn_sample (loss mask all 1, teacher_log_probs fitted to the response, reward 1.0),
//     _opd_evaluate (its result: accepted, hint, votes [{score, hint}], teacher_log_probs, eval_score:
//     the majority of the eval votes in eval mode, else None), _select_best_hint (accepted: a +1
//     vote whose stripped hint is over 10 characters, the longest), _fire_opd_task (a turn gets a
//     judge only when its next state arrives); the launcher's on_policy_distillation advantage
//     (slime/slime/backends/megatron_utils/loss.py: teacher − student, no reward);
//   openclaw-combine/openclaw_combine_api_server.py  OpenClawCombineAPIServer (a subclass):
//     _maybe_submit_ready_samples (hint accepted × eval ±1 → combined / OPD-only / RL-only /
//     nothing), _submit_turn_sample (teacher log-probs, reward = eval score or 0),
//     _submit_rl_turn_sample (teacher = rollout log-probs: no teacher term); combine_loss.py
//     (advantage w_opd·(teacher − old) + w_rl·reward, the weights from the environment).
// Neither server keeps a per-session counter: the patch keeps one as the RL server does.
import { COMMON_PYTHON, SOURCES } from './common';
import { OPENCLAW_SHARED_PYTHON } from './openclaw';
import type { Adapter } from './types';

const PYTHON = String.raw`
# ---------------------------------------------------------------------------------------------
# OpenClaw-RL adapter, OPD / Combine servers: the server decides each judged turn with this gate.
# Follows ${SOURCES.openclaw}: openclaw-opd/openclaw_opd_api_server.py
# OpenClawOPDAPIServer._maybe_submit_ready_samples, _submit_turn_sample, _opd_evaluate,
# _select_best_hint; openclaw-combine/openclaw_combine_api_server.py (its subclass)
# _maybe_submit_ready_samples, _submit_rl_turn_sample; openclaw-combine/combine_loss.py.
# ---------------------------------------------------------------------------------------------
import logging as _oc_logging
import re as _oc_re

_oc_log = _oc_logging.getLogger("gate_openclaw_opd")
# JavaScript's whitespace (String.prototype.trim, /\s/): the lab counts a hint's words with it
_OC_SPACE = _oc_re.compile("[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")


def _oc_words(text):
    return sum(1 for w in _OC_SPACE.split(text) if w)


def openclaw_hint_record(turn, opd_result, response_len, effective_before):
    """The lab's record of one turn (turn is 0-based; the server counts from 1). opd_result: what the
    server's _opd_evaluate returned; None for a turn that never got a next state (never judged)."""
    judged = opd_result is not None
    r = opd_result or {}
    eval_score = r.get("eval_score")  # None outside eval mode: no eval votes, whose majority is 0
    score = float(eval_score) if eval_score is not None else 0.0
    accepted = bool(r.get("accepted"))
    return {"turn": turn, "has_next_state": judged, "score": score, "reward": score,
            "response_len": int(response_len),
            # the words of the hint the teacher reads (the accepted one); 0 when none is accepted
            "hint_len": _oc_words(r.get("hint") or "") if accepted else 0,
            "hint_votes_pos": sum(1 for v in (r.get("votes") or []) if isinstance(v, dict) and v.get("score") == 1),
            "hint_accepted": accepted,
            # every turn but the last gets a next state, so the first judged turn is turn 0
            "session_first_judged": judged and turn == 0,
            "session_effective_before": int(effective_before)}


def _oc_fit(values, n, pad):
    """Cut or pad a per-token list to the response's n tokens, as the servers do."""
    values = list(values or [])
    return values[:n] if len(values) > n else values + [pad] * (n - len(values))


def _oc_teacher(d, opd_result, rollout, n):
    """The teacher log-probs of a decision: the hinted teacher's for a decision that uses the hint,
    moved toward the rollout's so that teacher − rollout is weighted by opd_weight; else the
    rollout's own (no teacher term, as Combine's _submit_rl_turn_sample)."""
    if not d["uses_hint"]:
        return rollout
    teacher = _oc_fit(opd_result.get("teacher_log_probs"), n, 0.0)
    w = d["opd_weight"]
    return teacher if w == 1 else [r + w * (t - r) for t, r in zip(teacher, rollout)]


# The OPD weights other than 1 of this gate's rules (top-k distillation cannot weight the teacher term).
_OC_WEIGHTED_OPD = sorted({rule[4] for rule in _RULES if rule[4] is not None and rule[4] != 1})


def openclaw_gated_opd_server(base):
    """A subclass of OpenClaw-RL's OpenClawOPDAPIServer (openclaw-opd) or OpenClawCombineAPIServer
    (openclaw-combine) deciding each turn with the gate where the server does
    (_maybe_submit_ready_samples): drop -> not submitted; mask0 / mask1 -> loss_mask all 0 / all 1,
    reward {"score": the gate's RL term}, teacher_log_probs the hinted teacher's weighted by opd_weight
    (or the rollout's: no teacher term). _session_effective counts each session's mask-1 samples in
    judging order, as the RL server's counter does."""
    import torch
    from slime.utils.types import Sample

    class GatedOpenClawOPDAPIServer(base):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            if self._use_topk_distillation and _OC_WEIGHTED_OPD:
                raise ValueError("gate for OpenClaw-RL: this gate weights the teacher term (opd weights %s), which top-k "
                                 "distillation (--distill-topk %d) cannot: its loss is a KL to the teacher's top-k with no "
                                 "per-sample weight; export a gate whose opd terms have weight 1, or train without top-k"
                                 % (", ".join(repr(w) for w in _OC_WEIGHTED_OPD), self.distill_topk))
            self._session_effective = {}
            self._oc_ended = set()  # sessions ended with turns still being judged

        def _oc_end_session(self, session_id):
            """The session ended: its counter is cleared, as the RL server pops _session_effective under
            session_done; turns judged after this count afresh, and the entry goes once none is left."""
            if session_id not in self._oc_ended:
                self._session_effective.pop(session_id, None)
                self._oc_ended.add(session_id)

        def _maybe_submit_ready_samples(self, session_id, force_drop_without_next_state=False):
            self._oc_decide_ready(session_id, force_drop_without_next_state)
            if force_drop_without_next_state:
                self._oc_end_session(session_id)
            if session_id in self._oc_ended and not self._pending_turn_data.get(session_id):
                self._session_effective.pop(session_id, None)
                self._oc_ended.discard(session_id)

        def _oc_decide_ready(self, session_id, force_drop_without_next_state):
            prm_tasks = self._prm_tasks.get(session_id, {})
            pending = self._pending_turn_data.get(session_id, {})
            for turn_num in sorted(list(pending.keys())):
                td = pending[turn_num]
                task = prm_tasks.get(turn_num)
                if task is None:
                    if force_drop_without_next_state:  # the session ended: this turn has no next state
                        self._oc_end_session(session_id)
                        pending.pop(turn_num, None)
                        if self._eval_mode:
                            with self._eval_scores_lock:
                                self._eval_scores.append(0.0)
                        self._oc_gate(td, session_id, turn_num, None)
                    continue
                if not task.done():
                    continue
                pending.pop(turn_num, None)
                prm_tasks.pop(turn_num, None)
                try:
                    opd_result = task.result()
                except Exception as e:  # as the server: a failed judge leaves nothing to decide on
                    _oc_log.warning("[gate] judge task failed session=%s turn=%d: %s", session_id, turn_num, e)
                    if self._eval_mode:
                        with self._eval_scores_lock:
                            self._eval_scores.append(0.0)
                    continue
                eval_score = opd_result.get("eval_score")
                if self._eval_mode and eval_score is not None:
                    with self._eval_scores_lock:
                        self._eval_scores.append(eval_score)
                self._oc_gate(td, session_id, turn_num, opd_result)

        def _oc_gate(self, td, session_id, turn_num, opd_result):
            rec = openclaw_hint_record(turn_num - 1, opd_result, len(td["response_ids"]),
                                       self._session_effective.get(session_id, 0))
            d = _lab_decide([rec], None, None, "OpenClaw-RL (OPD / Combine)",
                            "the OPD / Combine servers see one judged turn at a time")[0]
            if not d["queued"]:
                return
            if d["loss_mask"] == 1:
                self._session_effective[session_id] = self._session_effective.get(session_id, 0) + 1
            self._safe_create_task(self._oc_submit(td, d, opd_result))

        async def _oc_submit(self, td, d, opd_result):
            n = len(td["response_ids"])
            rollout = _oc_fit(td["response_logprobs"], n, 0.0)
            teacher = _oc_teacher(d, opd_result, rollout, n)
            s = _oc_sample(Sample, td, d["loss_mask"], d["reward"], torch.tensor(teacher, dtype=torch.float32))
            if d["uses_hint"] and self._use_topk_distillation:
                K = self.distill_topk
                lp = opd_result.get("teacher_topk_log_probs") or []
                idx = opd_result.get("teacher_topk_indices") or []
                if len(lp) > n:
                    lp, idx = lp[:n], idx[:n]
                elif len(lp) < n:  # padded in front, as the servers pad the top-k
                    lp = [[0.0] * K] * (n - len(lp)) + lp
                    idx = [list(range(K))] * (n - len(idx)) + idx
                s.teacher_topk_log_probs = torch.tensor(lp, dtype=torch.float32)
                s.teacher_topk_indices = torch.tensor(idx, dtype=torch.long)
            s.index = next(self._index_counter)
            s.group_index = next(self._group_counter)
            await _oc_asyncio.to_thread(self.output_queue.put, (s.group_index, [s]))

    return GatedOpenClawOPDAPIServer
`;

const noWhole = 'a turn is decided when its judge finishes, before the session ends';
const unavailable = {
  state: 'OpenClaw serves open-ended chat: there is no task state to name',
  is_last_turn: noWhole,
  session_len: noWhole,
  session_has_effective: 'it looks at later turns of the session, not yet judged when a turn is decided',
  group_size: 'OpenClaw has no groups (one sample per prompt); the session as its group is not complete when a turn is decided',
  group_reward_mean: 'no groups; the session is not complete when a turn is decided',
  group_reward_std: 'no groups; the session is not complete when a turn is decided',
  staleness: 'the server does not know the trainer\'s version',
  rollout_logp_gap: 'the trainer\'s log-probs are computed after submission',
  votes: 'the OPD / Combine servers keep only the majority of the eval votes (eval_score, in eval mode): _opd_evaluate logs the votes and drops them (the hint judge\'s votes are hint_votes_pos)',
  votes_pos: 'the OPD / Combine servers keep only the majority of the eval votes (eval_score), not the votes',
  votes_neg: 'the OPD / Combine servers keep only the majority of the eval votes (eval_score), not the votes',
  votes_zero: 'the OPD / Combine servers keep only the majority of the eval votes (eval_score), not the votes',
} as const;

export const openclawOpd: Adapter = {
  target: 'openclaw-opd',
  title: 'OpenClaw-RL OPD / Combine: the server\'s judged turns',
  unavailable,
  python: COMMON_PYTHON + OPENCLAW_SHARED_PYTHON + PYTHON,
  docs: `OpenClaw-RL's OPD and Combine servers (${SOURCES.openclaw}), patched where they decide what a judged turn becomes. Put gate_openclaw_opd.py beside the server and, in openclaw-opd/openclaw_opd_rollout.py (or openclaw-combine/openclaw_combine_rollout.py), build the server as \`openclaw_gated_opd_server(OpenClawOPDAPIServer)(...)\` (or \`openclaw_gated_opd_server(OpenClawCombineAPIServer)(...)\`). Leave OPENCLAW_COMBINE_W_OPD and OPENCLAW_COMBINE_W_RL at 1: the gate's weights are in each sample.
Followed: openclaw-opd/openclaw_opd_api_server.py _maybe_submit_ready_samples, _submit_turn_sample, _opd_evaluate, _select_best_hint; openclaw-combine/openclaw_combine_api_server.py _maybe_submit_ready_samples, _submit_rl_turn_sample; openclaw-combine/combine_loss.py.
Each turn becomes a record when its judge finishes (the judging order), or when its session ends without a next state: turn, has_next_state, score = reward = eval_score (the eval votes' majority; 0 outside eval mode, where no eval votes are cast, and without a next state), response_len, hint_accepted (the server's _select_best_hint), hint_len (words of the accepted hint, 0 when none: the teacher reads only that one), hint_votes_pos (+1 hint votes), session_first_judged, session_effective_before = a per-session counter of mask-1 samples the patch keeps, cleared when the session ends as the RL server clears its own (turns judged after the end count afresh; the entry goes once the session has no turn left).
Decides as the lab: drop (never submitted), the loss mask, the RL term (reward), the teacher term's weight (teacher log-probs = rollout + opd_weight · (teacher − rollout); the rollout's own when the decision uses no hint). The built-in OPD gate submits what the unpatched OPD server submits (reward 0 where the server writes 1.0, which its advantage never reads), the built-in Combine gate exactly what the unpatched Combine server submits.
Cannot: the RL term under the OPD launcher (on_policy_distillation reads no reward: launch with Combine's grpo + combine_loss); the teacher term exactly unless the trainer's old log-probs are the rollout's (--use-rollout-logprobs), else each sample also carries rollout − old, as Combine's RL-only samples do; a weighted teacher term with top-k distillation (topk_distillation_loss.py: a KL to the teacher's top-k with no per-sample weight), so the server refuses such a gate when it is built; the fields ${Object.keys(unavailable).join(', ')}.`,
};
