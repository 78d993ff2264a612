// Judged turns (what serving produced) and the gate's decision for each (../gates/ decides).
import type { HintChoice, HintVote, Vote } from '../tasks/judge';

export interface JudgedTurn {
  /** Session id, unique within a serve batch. */
  session: number;
  /** GRPO group (sessions that share a prompt); equals the session when not grouped. */
  group: number;
  /** Turn index within the session (step index for long horizon). */
  turn: number;
  state: number;
  /** CONTEXT tokens: prompt, response (EOS included), PAD. */
  tokens: Int32Array;
  /** Response tokens including EOS. */
  responseLength: number;
  /** Behavior index, or −1 for an invalid response. */
  behavior: number;
  /** Log-probs under the rollout weights, CONTEXT − 1. */
  rolloutLogp: Float32Array;
  /** Whether a next message / observation exists (the judge needs it). */
  hasNext: boolean;
  votes: Vote[];
  /** Majority of the votes, 0 when there is no next state. */
  score: Vote;
  /** The RL scalar: the score, or the credit-assigned turn score for long-horizon tasks. */
  reward: number;
  hintVotes: HintVote[];
  /** Terminal outcome of the episode (long horizon). */
  outcome?: 0 | 1;
}

export interface GateDecision {
  queued: boolean;
  lossMask: 0 | 1;
  /** Scalar added to every response token's advantage (RL term, already weighted). */
  reward: number;
  /** Weight of the per-token teacher term (logπ_T − logπ_old); 0 = no teacher needed. */
  opdWeight: number;
  /** The hint in the teacher's context, when the deciding rule has an OPD term. */
  hint: HintChoice | null;
  /** Index of the gate rule that decided (rules.length: none matched, dropped). */
  rule: number;
}
