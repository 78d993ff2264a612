// A task as data: the versioned JSON format (format "invariant-lab-task", version 1) that the
// built-in tasks ship in and a user writes, pastes or fits. `validateTaskSpec` checks one;
// `taskFromSpec` turns a valid one into the runtime Task the loop uses.
//
// Sizes follow from the model, not from taste: the policy's vocabulary is 64 tokens in a fixed
// layout (4 special, 10 state tokens, 12 marker tokens, 12 hint tokens, 20 fillers; vocab.ts), so a
// task has at most 10 states, 12 behaviors (one hint token each) and 12 distinct markers; the
// context is 16 tokens (3 prompt + 12 response + EOS), so a behavior has at most 12 markers.

export const TASK_FORMAT = 'invariant-lab-task';
export const TASK_VERSION = 1;

export type TaskKind = 'single-turn' | 'multi-turn' | 'long-horizon';

/** P(+1), P(0), P(−1) of the judge's truth for one state × behavior. */
export type TruthRow = [number, number, number];

/** The expected vote E = P(+1) − P(−1) of a truth row: what training pushes a behavior by. */
export const expectedVote = (t: Readonly<TruthRow>): number => t[0] - t[2];

export interface HintSpec {
  /** Behavior the hint in the next message points to. */
  to: string;
  /** Probability that the next message carries the hint (default 1). */
  p?: number;
  /** 'not-positive': only after a turn whose truth is 0 or −1 (default 'always'). */
  when?: 'always' | 'not-positive';
}

/**
 * What the environment does after one behavior in one state. `next`: 'end' ends the session;
 * 'uniform' draws the next state uniformly; a state name goes there; an object is a distribution
 * over state names. Long-horizon tasks give `outcome` = P(success) where `next` is 'end'.
 */
export interface TransitionSpec {
  truth: TruthRow;
  hint: HintSpec | null;
  next: 'end' | 'uniform' | string | Record<string, number>;
  outcome?: number;
  /** false: no next message exists to judge this turn from (default true). */
  nextMessage?: boolean;
}

/**
 * The token level of one behavior's responses in a state (optional; without it a response is the
 * lab's grammar: 0–3 fillers after each marker, drawn from all 20 filler tokens). A response is the
 * behavior's markers and k filler tokens (spread over the markers, the first ones getting one more),
 * then EOS.
 */
export interface ResponseSpec {
  /** P(k fillers) for k = 0, 1, …: at most RESPONSE_MAX − markers + 1 entries, summing to 1. */
  fillers: number[];
  /** How many of the 20 filler tokens the fillers are drawn from, uniformly (w0 … w{n−1}): 1..20. */
  fillerTokens: number;
}

export interface StateSpec {
  name: string;
  /** Prompt token (a name of vocabulary.states). */
  token: string;
  /** Base (pretraining) behavior mix, per behavior name; sums to 1. */
  baseMix: Record<string, number>;
  /** Behavior of the gold SFT data. */
  gold: string;
  /** Behaviors that count as a pass for pass@k. */
  good: string[];
  /** Per behavior name, and 'invalid' for a response that is no behavior. */
  act: Record<string, TransitionSpec>;
  /** Per behavior name (some or all): its responses' length and filler diversity (ResponseSpec). */
  responses?: Record<string, ResponseSpec>;
}

export interface BehaviorSpec {
  name: string;
  /** Marker token names (of vocabulary.markers), in order. */
  markers: string[];
  /** Hint token name (of vocabulary.hints). */
  hint: string;
}

export interface VocabularySpec {
  states: string[];
  markers: string[];
  hints: string[];
}

export interface TaskSpec {
  format: typeof TASK_FORMAT;
  version: typeof TASK_VERSION;
  name: string;
  description?: string;
  kind: TaskKind;
  /** First state of a session: 'uniform' or a state name. */
  start: string;
  /** Names of the model's token slots; omitted = the lab vocabulary (vocab.ts). */
  vocabulary?: VocabularySpec;
  behaviors: BehaviorSpec[];
  states: StateSpec[];
}

export const INVALID_NAME = 'invalid';

/** A state's or behavior's name: letters, digits, space and _.:- (at most 40; it appears in metric keys). */
export const SPEC_NAME = /^[A-Za-z0-9][A-Za-z0-9 _.:-]{0,39}$/;
/** A token slot's name: as SPEC_NAME without the space. */
export const TOKEN_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,39}$/;
