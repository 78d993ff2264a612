// Shannon entropy, written once for the behavior measures (metrics.ts, behavior-info.ts) and imports.

/** H(p) in nats; zero entries contribute nothing. */
export function entropyOf(p: readonly number[]): number {
  let h = 0;
  for (const x of p) if (x > 0) h -= x * Math.log(x);
  return h;
}
