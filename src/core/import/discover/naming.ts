// A readable name for a discovered group, made from what sets it apart from the step's other
// samples: its most distinctive words (share among its members minus share among the others) and
// its most distinctive shape (a list, a code block, a tool call, a question back…).

const SHAPE_WORDS: Record<string, string> = {
  code: 'code',
  numbered: 'numbered-list',
  bullets: 'bullets',
  enumerated: 'enumerated',
  heading: 'headings',
  'ends-question': 'asks-back',
  asks: 'question',
  exclaims: 'exclaims',
  tool: 'tool-call',
};

/** Shape terms in words ('tool:search' → 'calls search'); length and line buckets are not shown. */
export function shapeText(term: string): string | null {
  if (term.startsWith('tool:')) return `calls ${term.slice(5)}`;
  const w = SHAPE_WORDS[term];
  return w ? w.replace(/-/g, ' ') : null;
}

function shares(docs: readonly (readonly string[])[], prefix: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) if (t.startsWith(prefix)) m.set(t, (m.get(t) ?? 0) + 1);
  for (const [t, k] of m) m.set(t, k / Math.max(1, docs.length));
  return m;
}

/** The terms of `prefix` most typical of the members against the others, best first. */
export function distinctive(members: readonly (readonly string[])[], others: readonly (readonly string[])[], prefix: string, minShare: number): string[] {
  const pm = shares(members, prefix);
  const po = shares(others, prefix);
  return [...pm]
    .filter(([, s]) => s >= minShare)
    .map(([t, s]) => ({ t, score: s - (po.get(t) ?? 0) }))
    .filter((x) => x.score > 0.1)
    .sort((a, b) => b.score - a.score || (a.t < b.t ? -1 : 1))
    .map((x) => x.t.slice(prefix.length));
}

/** Up to two distinctive words and the distinctive shape, joined by '-' ('summary-analyze-numbered-list'). */
export function groupName(members: readonly (readonly string[])[], others: readonly (readonly string[])[]): string {
  const ws = distinctive(members, others, 'w:', 0.3).slice(0, 2);
  const shape = distinctive(members, others, 's:', 0.5).map((t) => (t.startsWith('tool:') ? `${t.slice(5)}-call` : SHAPE_WORDS[t])).find(Boolean);
  const parts = [...ws, ...(shape ? [shape] : [])];
  return (parts.join('-') || 'plain').replace(/[^\p{L}\p{N}_~.-]+/gu, '_').slice(0, 40);
}
