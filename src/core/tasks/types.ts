// What a task is: states (each a prompt token), behaviors (each a marker sequence), the reference
// (base) distribution used for pretraining, and an environment that reacts to behaviors.
import type { Rng } from '../rng';
import type { ResponseModel } from './grammar';
import type { Vote } from './judge';
import type { TaskKind } from './spec';
import type { TokenNames } from './vocab';

export interface StateDef {
  /** Short name used in metric keys (`support/behavior_support/<name>`). */
  name: string;
  token: number;
}

export interface BehaviorDef {
  name: string;
  markers: readonly number[];
  /** Hint token that points the (base) policy to this behavior. */
  hint: number;
}

export interface Transition {
  /** What an honest judge would vote for this turn (PRM truth; per-step truth for long horizon). */
  truth: Vote;
  /** Whether a next message / observation exists to judge this turn from. */
  hasNext: boolean;
  /** Next policy state (index into task.states) when the session continues. */
  next: number | null;
  /** Behavior a hint in the next message would point to, or null when the feedback has no hint. */
  hintTarget: number | null;
  done: boolean;
  /** Terminal success (long-horizon tasks only, on the last step). */
  outcome?: 0 | 1;
}

export interface Env {
  readonly state: number;
  readonly turn: number;
  act(behavior: number, rng: Rng): Transition;
}

export interface Task {
  name: string;
  kind: TaskKind;
  /** Names of the token slots, for traces. */
  tokenNames: TokenNames;
  states: readonly StateDef[];
  behaviors: readonly BehaviorDef[];
  /** Reference behavior mix per state (rows sum to 1). */
  baseMix: readonly (readonly number[])[];
  /** Behavior of the "gold" SFT data per state. */
  gold: readonly number[];
  /** Behaviors counted as a pass for pass@k, per state. */
  good: readonly (readonly number[])[];
  /**
   * The token level of a behavior's responses per state ([state][behavior]; null = the lab's
   * grammar, renderBehavior); absent on a task without any (every built-in task).
   */
  responses?: readonly (readonly (ResponseModel | null)[])[];
  /** Long-horizon tasks use terminal outcomes and the credit module. */
  longHorizon: boolean;
  /**
   * A new session of `turns` turns (steps per episode for long horizon). `initial` ≥ 0 fixes the
   * first state (the draw from `rng` still happens, so streams stay aligned); −1 draws it.
   */
  newEnv(rng: Rng, turns: number, initial?: number): Env;
}
