// The sample fields a gate may read: what a real online RL system can see of a served turn (the
// judge's votes, the hint judge, the turn's place in its session and group, staleness). Designed
// from what OpenClaw-RL's gates and the GRPO/DAPO filters read. The task's hidden ground truth (the
// behavior label) is deliberately NOT a field: a real gate cannot see it.
import type { FieldTable } from './types';

export const SAMPLE_FIELDS = {
  state: { type: 'string', doc: 'The prompt\'s state (the task state the turn answers), e.g. "math"', range: 'a state name of the task' },
  turn: { type: 'number', doc: 'Turn index within the session (step index for toolchain episodes)', range: '0 … 7' },
  is_last_turn: { type: 'boolean', doc: 'The turn is the last of its session', range: 'true / false' },
  session_len: { type: 'number', doc: 'Turns in the session', range: '1 … 8' },
  has_next_state: { type: 'boolean', doc: 'A next message / observation exists, so the judge could score the turn (OpenClaw judges turn t from turn t + 1)', range: 'true / false' },
  response_len: { type: 'number', doc: 'Response tokens, EOS included', range: '1 … 13' },
  votes: { type: 'number[]', doc: 'The judge\'s m votes (empty without a next state)', range: 'each −1, 0 or +1' },
  votes_pos: { type: 'number', doc: 'Judge votes of +1', range: '0 … m' },
  votes_neg: { type: 'number', doc: 'Judge votes of −1', range: '0 … m' },
  votes_zero: { type: 'number', doc: 'Judge votes of 0', range: '0 … m' },
  score: { type: 'number', doc: 'Majority of the votes, tie → 0; 0 without a next state', range: '−1, 0 or +1' },
  reward: { type: 'number', doc: 'The RL scalar: the score, or on long-horizon tasks the credit-assigned turn score (γ, PRM shaping, step-wise z)', range: 'score: −1 … 1; toolchain: about −3 … 3' },
  hint_len: { type: 'number', doc: 'Length in words of the longest hint proposed with a +1 hint vote; 0 when none', range: '0 … 12' },
  hint_votes_pos: { type: 'number', doc: 'Hint-judge votes of +1 (each proposes a hint)', range: '0 … hint votes' },
  hint_accepted: { type: 'boolean', doc: 'OpenClaw\'s rule: a +1 hint at least hintMinLength words long exists (the longest is the OPD teacher\'s hint)', range: 'true / false' },
  session_has_effective: { type: 'boolean', doc: 'Some turn of this session has a next state and a nonzero reward (at-least-one looks for such a turn)', range: 'true / false' },
  session_first_judged: { type: 'boolean', doc: 'This is the first turn (in turn order) of its session that has a next state (the turn the whole-session at-least-one variant promotes)', range: 'true / false' },
  session_effective_before: { type: 'number', doc: 'Turns of this session decided before this one, in judging order, that this gate queued with loss mask 1: OpenClaw-RL\'s per-session counter (_session_effective, read by _submit_turn_sample). Judging order: in the lab, turn order within a session; on an import, PRM file order', range: '0 … turns − 1' },
  group_size: { type: 'number', doc: 'Turns with a next state in the group (sessions sharing a prompt under a grouped gate; the session itself otherwise)', range: '0 … group size × turns' },
  group_reward_mean: { type: 'number', doc: 'Mean reward over the group\'s turns with a next state (0 when there are none)', range: 'within the reward range' },
  group_reward_std: { type: 'number', doc: 'Population std of those rewards; 0 = the group carries no learning signal', range: '≥ 0' },
  staleness: { type: 'number', doc: 'Trainer versions between the rollout weights that produced the turn and the trainer at this step (every turn of a step shares it here)', range: '0 … staleness setting' },
  rollout_logp_gap: { type: 'number', doc: 'Mean |logπ_rollout − logπ_trainer| over the response tokens before the update (computed only when a gate reads it)', range: '≥ 0 nats' },
} as const satisfies FieldTable;

export type SampleFieldName = keyof typeof SAMPLE_FIELDS;

/** Fields that need the whole group served together (a gate reading them serves in groups). */
export const GROUP_FIELDS: readonly SampleFieldName[] = ['group_size', 'group_reward_mean', 'group_reward_std'];
