// Judged turns in, gate decisions out. A decision says whether the turn is queued, with which loss
// mask and advantage terms, and why (reason codes the UI shows per sample).
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

export type Reason =
  | 'effective'
  | 'no-next-state'
  | 'score-zero'
  | 'promoted-at-least-one'
  | 'mask-zero-dropped'
  | 'hint-accepted'
  | 'hint-rejected'
  | 'both'
  | 'hint-only'
  | 'eval-only'
  | 'dropped-neither'
  | 'group-advantage'
  | 'zero-variance-group'
  | 'dynamic-sampling-dropped';

export interface GateDecision {
  queued: boolean;
  lossMask: 0 | 1;
  /** Scalar added to every response token's advantage (RL term, already weighted). */
  reward: number;
  /** Weight of the per-token teacher term (logπ_T − logπ_old); 0 = no teacher needed. */
  opdWeight: number;
  /** The accepted hint (teacher context), when the method uses one. */
  hint: HintChoice | null;
  reasons: Reason[];
}

export interface GateOptions {
  atLeastOne: boolean;
  maskZeroMode: 'keep' | 'drop';
  hintMinLength: number;
  wOpd: number;
  wRl: number;
  normalizeStd: boolean;
  dynamicSampling: boolean;
}

export interface MethodResult {
  decisions: GateDecision[];
  /** Effective sample rate by the method's own formula: esrNum / esrDen. */
  esr: number;
  esrNum: number;
  esrDen: number;
  /** Extra counters (cases, promotions...), reported as esr/<name>. */
  counts: Record<string, number>;
}

export type Gate = (turns: readonly JudgedTurn[], opts: GateOptions) => MethodResult;

export const dropped = (reasons: Reason[], hint: HintChoice | null = null): GateDecision => ({ queued: false, lossMask: 0, reward: 0, opdWeight: 0, hint, reasons });
