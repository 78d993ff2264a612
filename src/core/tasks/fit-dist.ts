// The distributions of a fitted task are shares of counts (fit.ts): each is c / total with total
// the sum of the same counts, so every share lies in [0, 1] (c ≤ total, and rounding a quotient
// never crosses 1 = total / total) and the shares sum to 1 within a few ulps, far inside the
// validator's tolerance (validate.ts). Summing fractions instead (1/10 + 2/10 + 7/10) can exceed 1.
/** Shares of non-negative counts (total > 0), clamped to [0, 1]. */
export function sharesOf(counts: readonly number[]): number[] {
  const total = counts.reduce((a, c) => a + Math.max(0, c), 0);
  if (!(total > 0) || !Number.isFinite(total)) throw new Error(`fit: shares of counts that sum to ${total}`);
  return counts.map((c) => Math.min(1, Math.max(0, c) / total));
}
