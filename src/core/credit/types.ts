// Judged turns (what serving produced); the gate's decision for each is ../gates/decision.ts.
import type { HintVote, Vote } from '../tasks/judge';

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
