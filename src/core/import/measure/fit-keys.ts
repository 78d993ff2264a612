// The keys of the per-state counts a task fit reads from an import's frames, in one typed module:
// the import writes them (measure.ts, fit-counts.ts) and the fit reads them (src/core/tasks/fit.ts)
// through these functions, so a key is spelled once and never parsed back. State and behavior names
// are the rules' safe names (rules/rules.ts safeName: no "/"), so each key is unambiguous.
import type { ImportScalarName } from '../../measure/names';

export type RewardSign = 'pos' | 'zero' | 'neg';
export const REWARD_SIGNS: readonly RewardSign[] = ['pos', 'zero', 'neg'];

/** The ternary vote of a scalar reward: its sign (r > 0 → +1, r = 0 → 0, r < 0 → −1). */
export function rewardSign(r: number): RewardSign {
  return r > 0 ? 'pos' : r < 0 ? 'neg' : 'zero';
}

/** Samples of a state in a step. */
export const stateSamplesKey = (state: string) => `import/state_samples/${state}` as const satisfies ImportScalarName;
/** Samples of a state × behavior in a step (0 for a behavior no sample had). */
export const behaviorCountKey = (state: string, behavior: string) => `support/behavior_count/${state}/${behavior}` as const satisfies ImportScalarName;
/** Judged samples of a state × behavior by the sign of the reward. */
export const rewardCountKey = (state: string, behavior: string, sign: RewardSign) => `import/reward_count/${state}/${behavior}/${sign}` as const satisfies ImportScalarName;
/** Of those, rewards not exactly −1, 0 or +1. */
export const rewardNonternaryKey = (state: string, behavior: string) => `import/reward_nonternary/${state}/${behavior}` as const satisfies ImportScalarName;
/** OpenClaw sessions: the session's next turn (within the step) was in state `next`. */
export const nextCountKey = (state: string, behavior: string, next: string) => `import/next_count/${state}/${behavior}/${next}` as const satisfies ImportScalarName;
/** OpenClaw sessions: the session had no later turn in the step. */
export const endCountKey = (state: string, behavior: string) => `import/end_count/${state}/${behavior}` as const satisfies ImportScalarName;
/** OpenClaw sessions: the record had no next_state (no next message to judge from). */
export const noNextCountKey = (state: string, behavior: string) => `import/no_next_count/${state}/${behavior}` as const satisfies ImportScalarName;

/** Every key a fit count is written under. */
export type FitCountKey = ReturnType<typeof rewardCountKey | typeof rewardNonternaryKey | typeof nextCountKey | typeof endCountKey | typeof noNextCountKey>;

/** A frame of an import with sessions carries end counts (every session ends in its step). */
export const isEndCountKey = (key: string): boolean => key.startsWith('import/end_count/');

// The token level of a state × behavior (fit-tokens.ts): response lengths and how often its filler
// words repeat, so a fit can give the task's responses the log's lengths and word diversity.
/** Responses of a state × behavior with `length` tokens (capped at the import's TOKEN_CAP). */
export const lengthCountKey = (state: string, behavior: string, length: number) => `import/length_count/${state}/${behavior}/${length}` as const satisfies ImportScalarName;
/** Ordered pairs of filler-token positions holding the same token, Σ c(c − 1) over the step's filler tokens. */
export const fillerRepeatsKey = (state: string, behavior: string) => `import/filler_repeats/${state}/${behavior}` as const satisfies ImportScalarName;
/** Ordered pairs of filler-token positions, N(N − 1) for the step's N filler tokens. */
export const fillerPairsKey = (state: string, behavior: string) => `import/filler_pairs/${state}/${behavior}` as const satisfies ImportScalarName;

/** Every key the token level is written under. */
export type FitTokenKey = ReturnType<typeof lengthCountKey | typeof fillerRepeatsKey | typeof fillerPairsKey>;
