// What tells premature collapse from healthy convergence: per-state entropy falls in both, but a
// policy that answers every state with one template carries no information about the state, while
// one that converges to a different behavior per state does. Written once for the loop, the CLI
// and the lessons' measurements.
import { entropyOf } from './entropy';

export interface BehaviorInfo {
  /** H(B|S) in nats: mean over states (uniform prior, as measured) of the per-state entropy. */
  condEntropy: number;
  /** H(B) in nats of the state-averaged behavior distribution. */
  marginalEntropy: number;
  /** I(S;B) = H(B) − H(B|S) in nats: 0 when every state gets the same distribution. */
  mutualInfo: number;
  /** Share of states whose most likely behavior is one the judge rewards there (task.good). */
  bestMatch: number;
}

/**
 * Whether a state's most likely outcome is a behavior its judge rewards: `row` = p(outcome | state)
 * over the task's behaviors and a last "invalid" outcome, `good` = the rewarded behavior indices.
 * Ties: the first behavior with the top probability; the invalid outcome never matches.
 */
export function topIsRewarded(row: readonly number[], good: readonly number[]): boolean {
  let top = 0;
  for (let i = 1; i < row.length; i++) if (row[i] > row[top]) top = i;
  return top < row.length - 1 && good.includes(top);
}

/**
 * `dists[s]` = p(outcome | state s) over the task's behaviors and a last "invalid" outcome (rows
 * sum to 1); `good[s]` = behavior indices rewarded in state s. Throws on a malformed row.
 */
export function behaviorInfo(dists: readonly (readonly number[])[], good: readonly (readonly number[])[]): BehaviorInfo {
  const S = dists.length;
  if (S === 0) throw new Error('behaviorInfo: no states');
  if (good.length !== S) throw new Error(`behaviorInfo: ${S} distributions but ${good.length} good-behavior lists`);
  const width = dists[0].length;
  const marginal = new Array<number>(width).fill(0);
  let cond = 0;
  let match = 0;
  dists.forEach((row, s) => {
    if (row.length !== width) throw new Error(`behaviorInfo: state ${s} has ${row.length} outcomes, expected ${width}`);
    const sum = row.reduce((a, x) => a + x, 0);
    if (row.some((x) => !(x >= 0)) || Math.abs(sum - 1) > 1e-6) throw new Error(`behaviorInfo: state ${s} is not a distribution (sum ${sum})`);
    cond += entropyOf(row) / S;
    row.forEach((x, i) => (marginal[i] += x / S));
    if (topIsRewarded(row, good[s])) match++;
  });
  const marginalEntropy = entropyOf(marginal);
  // concavity makes I ≥ 0; clamp the float rounding of identical rows
  return { condEntropy: cond, marginalEntropy, mutualInfo: Math.max(0, marginalEntropy - cond), bestMatch: match / S };
}

/**
 * The gap between what users ask for and what the policy produces, per state: KL(want ‖ π) in nats,
 * where `want` is uniform over the behaviors the state's judge rewards (`good[s]`) and π is the
 * sampled behavior distribution from `counts` (last entry: invalid), smoothed by adding ½ to every
 * count (Krichevsky–Trofimov) so that a behavior never sampled gives a large but finite gap. It
 * widens when a state the policy has locked onto the wrong template asks for another behavior
 * ("the user asks for A, the policy only produces B"); it shrinks as the policy learns what each
 * state wants. Mean over states.
 */
export function requestGap(counts: readonly (readonly number[])[], good: readonly (readonly number[])[]): number {
  if (counts.length === 0 || counts.length !== good.length) throw new Error(`requestGap: ${counts.length} count rows for ${good.length} states`);
  let sum = 0;
  counts.forEach((row, s) => {
    const n = row.reduce((a, c) => a + c, 0);
    if (!good[s].length) throw new Error(`requestGap: state ${s} rewards no behavior`);
    const want = 1 / good[s].length;
    for (const b of good[s]) {
      if (!(b >= 0 && b < row.length - 1)) throw new Error(`requestGap: state ${s}: behavior ${b} out of range`);
      sum += want * Math.log(want / ((row[b] + 0.5) / (n + row.length / 2)));
    }
  });
  return sum / counts.length;
}
