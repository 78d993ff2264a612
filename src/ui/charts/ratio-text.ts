/**
 * The ratio histogram's words (pure): the x axis's caption, which names its open end bins only when
 * there are bins, and the count of updates whose tokens it holds, in the singular for one.
 */

/** The x axis caption: `ratio ρ`, with the open end bins when there are any (`ρ < 0.5 and ρ ≥ 2 in the end bins`). */
export function ratioAxisCaption(bins: readonly { lo: number; hi: number }[]): string {
  if (bins.length < 2) return 'ratio ρ';
  return `ratio ρ (end bins open: ρ < ${bins[0].hi} and ρ ≥ ${bins[bins.length - 1].lo})`;
}

/** Whose tokens the histogram holds: "Tokens of the step's one update", "Tokens of all 4 updates of the step". */
export function updatesText(k: number | undefined, hidden: boolean): string {
  if (hidden || k === undefined || !Number.isFinite(k)) return 'Tokens of every update of the step.';
  return k === 1 ? 'Tokens of the step\'s one update.' : `Tokens of all ${k} updates of the step.`;
}

/**
 * The note under the ratio histogram when no token lies outside the clip band: it says what the bars
 * show. "All ratios are ≈ 1" only when every token is in the bin around 1; otherwise the share that
 * moved away from 1 while the band still holds them all. Null when some token is outside the band (the
 * shares say it) or there are no tokens.
 */
export function ratioNote(bins: readonly { lo: number; hi: number; count: number }[], outside: number, oneUpdateRecomputed: boolean): string | null {
  const total = bins.reduce((a, b) => a + b.count, 0);
  if (total === 0 || outside > 0) return null;
  const one = bins.find((b) => b.lo <= 1 && 1 < b.hi);
  const moved = total - (one?.count ?? 0);
  if (moved === 0) {
    return `All ratios are ≈ 1 (${one?.lo}–${one?.hi}): ${oneUpdateRecomputed ? 'with one update per rollout and π_old recomputed, π_θ = π_old at the update, so the clip cannot bind (raise updates per rollout K).' : 'the policy has not moved away from π_old within this step.'}`;
  }
  const pct = Math.round((moved / total) * 1000) / 10;
  return `${pct} % of the tokens moved outside ${one ? `${one.lo}–${one.hi}` : 'the bin around 1'}, but none left the clip band: the clip did not bind this step.`;
}
