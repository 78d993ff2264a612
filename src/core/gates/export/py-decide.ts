// The Python of the gate's decision, mirroring gate.ts: matchRule (first rule whose condition is
// true; a field the record lacks is a GateError with the lab's message), outcomeOf (the decision of
// that rule, with JavaScript's coercions where the lab reads reward, the group statistics and
// hint_len unchecked) and decideInOrder (session_effective_before counted per session in judging
// order, filled in only when the gate reads it and an order is given). It reads the module's _RULES:
// (condition function, decision, RL source or None, RL weight, OPD weight or None, …) per rule.

/** Python source of _match, _outcome, decide, json_decision and the module's command line. */
export const PY_DECIDE = String.raw`def _match(r):
    for i, rule in enumerate(_RULES):
        try:
            hit = rule[0](r)
        except _FieldError as e:
            raise GateError("rule %d (when), character %d: %s" % (i + 1, e.pos + 1, e.reason))
        if hit is True:
            return i
    return len(_RULES)


def _rl_term(source, r):
    reward = _read(r, "reward")
    if source == "rl":
        return reward
    mean = _read(r, "group_reward_mean")
    if source == "rl_centered":
        return reward - mean
    std = r["group_reward_std"] if "group_reward_std" in r else _MISSING
    # the lab adds STD_EPS with JavaScript's +, which joins a string instead of adding
    spread = _js_number(std + _STD_EPS_TEXT, "group_reward_std") if isinstance(std, str) else _js_number(std, "group_reward_std") + _STD_EPS
    return _div(reward - mean, spread)


def _decision(rule, queued, loss_mask, reward, opd_weight, uses_hint):
    return {"rule": rule, "queued": queued, "loss_mask": loss_mask, "reward": reward, "opd_weight": opd_weight, "uses_hint": uses_hint}


def _outcome(i, r):
    if i >= len(_RULES) or _RULES[i][1] == "drop":
        return _decision(i, False, 0, 0.0, 0.0, False)
    if _RULES[i][1] == "mask0":
        return _decision(i, True, 0, 0.0, 0.0, False)
    _, _, source, weight, opd = _RULES[i][:5]
    has_hint = _read(r, "hint_len") > 0
    reward = weight * _rl_term(source, r) if source is not None else 0.0
    uses_hint = opd is not None and has_hint
    return _decision(i, True, 1, reward, opd if uses_hint else 0.0, uses_hint)


def decide(samples, session_keys=None, judged=None):
    """One decision per sample, in sample order: the lab's decideInOrder.

    samples: dicts with the rule language's field names (FIELDS). session_keys: one key per
    sample (its session); judged: sample indices in judging order (default: sample order). With
    session_keys, session_effective_before is counted per session in judging order: the samples of
    the session decided before, in that order, that this gate queued with loss mask 1 (when the
    gate reads it). Without, each sample's own session_effective_before is read.
    Each decision: rule (index of the deciding rule; len(RULES) when none matched and the sample
    is dropped), queued, loss_mask (0 or 1), reward (the weighted RL term), opd_weight, uses_hint.
    Raises GateError where the lab does (a field a reached condition reads is missing or of the
    wrong type), ValueError for a judging order that does not list every sample once.
    """
    samples = list(samples)
    if judged is not None and session_keys is None:
        raise ValueError("decide: a judging order needs session_keys (one key per sample)")
    if session_keys is None or "session_effective_before" not in READS:
        return [_outcome(_match(r), r) for r in samples]
    keys = list(session_keys)
    order = list(range(len(samples))) if judged is None else list(judged)
    if len(order) != len(samples) or len(keys) != len(samples):
        raise ValueError("decide: the judging order must list every record once")
    out = [None] * len(samples)
    counts = {}
    for i in order:
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(samples):
            raise ValueError("decide: the judging order holds %r, not a sample index" % (i,))
        if out[i] is not None:
            raise ValueError("decide: record %d is twice in the judging order" % i)
        r = dict(samples[i])
        r["session_effective_before"] = counts.get(keys[i], 0)
        d = _outcome(_match(r), r)
        if d["queued"] and d["loss_mask"] == 1:
            counts[keys[i]] = counts.get(keys[i], 0) + 1
        out[i] = d
    return out


def json_decision(d):
    """A decision as the lab writes it in JSON (JSON.stringify: NaN and Infinity become null, -0 becomes 0)."""
    def value(v):
        if isinstance(v, float):
            if v != v or v in (_INF, -_INF):
                return None
            if v == 0.0:
                return 0
            if v == int(v) and abs(v) < 1e21:
                return int(v)
        return v
    return {k: value(v) for k, v in d.items()}


if __name__ == "__main__":
    # python3 THIS_FILE < input.json: input {"samples": [...], "session_keys": [...], "judged": [...]}
    # (or a bare list of samples); prints one JSON decision per line, as the lab writes them
    _input = json.load(sys.stdin)
    if isinstance(_input, list):
        _input = {"samples": _input}
    for _d in decide(_input["samples"], _input.get("session_keys"), _input.get("judged")):
        print(json.dumps(json_decision(_d), allow_nan=False))
`;
