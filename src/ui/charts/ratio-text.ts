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
