// A readable name for a discovered group, made from what sets it apart from the step's other
// samples: its most distinctive words (share among its members minus share among the others) and
// its most distinctive shape (a list, a code block, a tool call, a question back…).
import type { StepTerms } from './clusters';
import type { Doc } from './vectors';

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

/** The share of `members` holding each term, and that of the step's other samples (`all` counts them with the members). */
function shares(members: readonly (readonly string[])[], all: ReadonlyMap<string, number>, n: number): Map<string, [number, number]> {
  const m = new Map<string, number>();
  for (const d of members) for (const t of d) m.set(t, (m.get(t) ?? 0) + 1);
  const out = new Map<string, [number, number]>();
  const others = Math.max(1, n - members.length);
  for (const [t, k] of m) out.set(t, [k / Math.max(1, members.length), ((all.get(t) ?? k) - k) / others]);
  return out;
}

/**
 * The terms most typical of the members against the step's other samples, best first: `members`
 * lists each member's distinct terms, `all` how many of the step's `n` samples (members included) hold each.
 */
export function distinctive(members: readonly (readonly string[])[], all: ReadonlyMap<string, number>, n: number, minShare: number): string[] {
  return [...shares(members, all, n)]
    .filter(([, [s]]) => s >= minShare)
    .map(([t, [s, o]]) => ({ t, score: s - o }))
    .filter((x) => x.score > 0.1)
    .sort((a, b) => b.score - a.score || (a.t < b.t ? -1 : 1))
    .map((x) => x.t);
}

/** Up to two distinctive words and the distinctive shape, joined by '-' ('summary-analyze-numbered-list'). */
export function groupName(members: readonly Doc[], step: StepTerms): string {
  const ws = distinctive(members.map((d) => d.words), step.words, step.n, 0.3).slice(0, 2);
  const shape = distinctive(members.map((d) => d.shape), step.shape, step.n, 0.5).map((t) => (t.startsWith('tool:') ? `${t.slice(5)}-call` : SHAPE_WORDS[t])).find(Boolean);
  const parts = [...ws, ...(shape ? [shape] : [])];
  return (parts.join('-') || 'plain').replace(/[^\p{L}\p{N}_~.-]+/gu, '_').slice(0, 40);
}
