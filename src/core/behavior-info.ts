// What tells premature collapse from healthy convergence: per-state entropy falls in both, but a
// policy that answers every state with one template carries no information about the state, while
// one that converges to a different behavior per state does. Written once for the loop, the CLI
// and the lessons' measurements.
import { entropyOf } from './metrics';

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
    // ties: the first behavior with the top probability (the invalid outcome never matches)
    let top = 0;
    for (let i = 1; i < width; i++) if (row[i] > row[top]) top = i;
    if (top < width - 1 && good[s].includes(top)) match++;
  });
  const marginalEntropy = entropyOf(marginal);
  // concavity makes I ≥ 0; clamp the float rounding of identical rows
  return { condEntropy: cond, marginalEntropy, mutualInfo: Math.max(0, marginalEntropy - cond), bestMatch: match / S };
}
