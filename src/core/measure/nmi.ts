// Normalized mutual information of two labelings, 2·I / (H(a) + H(b)): how well one labeling (a
// discovery's) agrees with another (a truth, or a run's own task label), 1 when both are constant.

import { entropyOf } from './entropy';

/** H of a histogram's counts, in nats. */
export function entropy(counts: Iterable<number>): number {
  const xs = [...counts];
  const n = xs.reduce((a, x) => a + x, 0);
  return n ? entropyOf(xs.map((x) => x / n)) : 0;
}

export function tally<K>(xs: readonly K[]): Map<K, number> {
  const m = new Map<K, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

/** Normalized mutual information of two labelings (1 when both are constant). */
export function nmi(a: readonly string[], b: readonly string[]): number {
  const ha = entropy(tally(a).values());
  const hb = entropy(tally(b).values());
  if (ha === 0 && hb === 0) return 1;
  const joint = entropy(tally(a.map((x, i) => `${x}\u0000${b[i]}`)).values());
  return (2 * (ha + hb - joint)) / (ha + hb);
}
