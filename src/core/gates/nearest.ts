// "Did you mean …": the closest known name by edit distance (for unknown fields and functions).

export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

/** Names longer than this get no suggestion (the edit distance costs length × known names). */
export const MAX_SUGGEST_LENGTH = 64;

/** The known name nearest to `name`, or null when none is reasonably close (or `name` is too long to be a typo of one). */
export function nearestName(name: string, known: readonly string[]): string | null {
  if (name.length > MAX_SUGGEST_LENGTH) return null;
  let best: string | null = null;
  let bestD = Infinity;
  const lower = name.toLowerCase();
  for (const k of known) {
    const d = editDistance(lower, k.toLowerCase());
    if (d < bestD) {
      best = k;
      bestD = d;
    }
  }
  // close enough to be a typo, or else a longer name that contains it (vote → votes_pos)
  if (best !== null && bestD <= Math.max(2, Math.floor(name.length / 3))) return best;
  return lower.length >= 3 ? (known.find((k) => k.toLowerCase().includes(lower)) ?? null) : null;
}
