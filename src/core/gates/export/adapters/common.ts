// Python shared by every trainer adapter (one implementation of each rule): the fields the lab
// derives from others (vote counts and the majority score from `votes`; the group statistics from
// each sample's group, reward and next state, as `sampleRecords` in gates/sample.ts computes them),
// and the call of `decide` that names a field the trainer's objects did not carry. Each adapter's
// `python` starts with this text; it runs after the module's `decide`.

/** The pinned commits of the trainers' sources the adapters follow (the docs cite them). */
export const SOURCES = {
  slime: 'THUDM/slime@624b824a898ab0ec1fcb4d373004c7f3852bf515',
  openclaw: 'Gen-Verse/OpenClaw-RL@0d034dd5e65399fc1cc7c266feb9eddbb4c8c3a5',
  verl: 'volcengine/verl@b178a3cd56f58b2d502255daba591e92833930a7',
  trl: 'huggingface/trl@f2cd57710ae345ea6428ae95363267fcf38a3dc8',
} as const;

export const COMMON_PYTHON = String.raw`
# ---------------------------------------------------------------------------------------------
# Adapter helpers (Invariant Lab): map a trainer's objects to the lab's fields, call decide().
# ---------------------------------------------------------------------------------------------


def _lab_majority(votes):
    """The lab's score of m votes: the most common vote, a tie for the most common -> 0."""
    counts = {}
    for v in votes:
        counts[v] = counts.get(v, 0) + 1
    if not counts:
        return 0
    top = max(counts.values())
    winners = [v for v, c in counts.items() if c == top]
    return winners[0] if len(winners) == 1 else 0


def _lab_fill_votes(rec):
    """votes_pos / votes_neg / votes_zero and score from votes, where only votes were given."""
    votes = rec.get("votes")
    if votes is None:
        return rec
    rec.setdefault("votes_pos", sum(1 for v in votes if v == 1))
    rec.setdefault("votes_neg", sum(1 for v in votes if v == -1))
    rec.setdefault("votes_zero", sum(1 for v in votes if v == 0))
    rec.setdefault("score", _lab_majority(votes))
    return rec


def _lab_fill_groups(records, group_keys):
    """group_size, group_reward_mean, group_reward_std (population) over each group's samples that
    have a next state, summed in sample order, where a record does not carry them already."""
    members = {}
    for rec, key in zip(records, group_keys):
        if rec.get("has_next_state", True):
            members.setdefault(key, []).append(float(rec["reward"]))
    for rec, key in zip(records, group_keys):
        rs = members.get(key, [])
        mean, var = 0.0, 0.0
        if rs:
            total = 0.0
            for r in rs:  # one addition at a time, as the lab (Python's sum() compensates)
                total += r
            mean = total / len(rs)
            sq = 0.0
            for r in rs:
                sq += (r - mean) ** 2
            var = sq / len(rs)
        rec.setdefault("group_size", len(rs))
        rec.setdefault("group_reward_mean", mean)
        rec.setdefault("group_reward_std", var ** 0.5)
    return records


def _lab_decide(records, session_keys, judged, trainer, where):
    """decide() over the mapped records; a field the gate reads that a record lacks is named with
    where the trainer's objects would carry it (decide's GateError names the rule and the field)."""
    try:
        return decide(records, session_keys=session_keys, judged=judged)
    except GateError as e:
        raise ValueError("gate for %s: %s (%s)" % (trainer, e, where)) from None
`;
