// The reward flags of `npm run import` and `npm run watch`: --reward COL[+COL…] names the judge's
// score, --reward-threshold τ[,τ'] makes a scalar score a vote (src/core/import/rules/reward.ts).
import { parseRewardChoice, type RewardChoice } from '../core/import/index';
import { errorText } from '../core/unknown';

export const REWARD_OPTIONS = { reward: { type: 'string' }, 'reward-threshold': { type: 'string' } } as const;
export const REWARD_USAGE = "[--reward COL[+COL…]] [--reward-threshold τ[,τ']]";

/** The choice the flags make (undefined: the format's own reward); a bad one is pushed to `bad`. */
export function rewardFlags(v: { reward?: string; 'reward-threshold'?: string }, bad: string[]): RewardChoice | undefined {
  if (v.reward === undefined && v['reward-threshold'] === undefined) return undefined;
  try {
    return parseRewardChoice(v.reward ?? '', v['reward-threshold'] ?? '');
  } catch (e) {
    bad.push(`--${errorText(e)}`);
    return undefined;
  }
}
