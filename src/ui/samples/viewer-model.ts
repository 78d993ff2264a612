/**
 * The rollout viewer's pure parts: what a plot point asks for (step × state × behavior, a marker, an
 * alarm) as a query, the heading that says it, the pager's words, the keys it answers, and the
 * marking of searched and explaining words in a text. No DOM, no runes.
 */
import type { SampleFilter, SamplePage } from '../../core/import/browse/index';

/** What a click on a plot asks for; unset = any. */
export interface SamplePick extends SampleFilter {
  text?: string;
}

/** "step 7 · state math · behavior list" ("all samples" for none). */
export function pickText(p: SamplePick): string {
  const parts: string[] = [];
  if (p.step != null) parts.push(`step ${p.step}`);
  if (p.state) parts.push(`state ${p.state}`);
  if (p.behavior) parts.push(`behavior ${p.behavior}`);
  if (p.rule) parts.push(`rule ${p.rule}`);
  if (p.decision) parts.push(p.decision);
  if (p.text) parts.push(`"${p.text}"`);
  return parts.length ? parts.join(' · ') : 'all samples';
}

/** A pick from a chart: the lab's "mean" view and "invalid" are no filter values. */
export function chartPick(step: number, state?: string | null, behavior?: string | null): SamplePick {
  const p: SamplePick = { step };
  if (state && state !== 'mean') p.state = state;
  if (behavior) p.behavior = behavior;
  return p;
}

/** "21–40 of 133" ("none" for an empty page). */
export function pageText(p: Pick<SamplePage, 'total' | 'page' | 'pageSize'>): string {
  if (!p.total) return 'none';
  const first = p.page * p.pageSize + 1;
  return `${first}–${Math.min(p.total, first + p.pageSize - 1)} of ${p.total}`;
}

export function pageCount(p: Pick<SamplePage, 'total' | 'pageSize'>): number {
  return Math.max(1, Math.ceil(p.total / Math.max(1, p.pageSize)));
}

export type ViewerKey = 'close' | 'next-page' | 'prev-page' | 'next-row' | 'prev-row' | null;

/** Escape closes; → / PageDown the next page, ← / PageUp the previous; ↓ / ↑ move between rows. Keys typed in a field stay there. */
export function viewerKey(e: Pick<KeyboardEvent, 'key' | 'altKey' | 'ctrlKey' | 'metaKey'>, inField: boolean): ViewerKey {
  if (e.altKey || e.ctrlKey || e.metaKey) return null;
  if (e.key === 'Escape') return 'close';
  if (inField) return null;
  if (e.key === 'ArrowRight' || e.key === 'PageDown') return 'next-page';
  if (e.key === 'ArrowLeft' || e.key === 'PageUp') return 'prev-page';
  if (e.key === 'ArrowDown') return 'next-row';
  if (e.key === 'ArrowUp') return 'prev-row';
  return null;
}

export interface Segment {
  text: string;
  /** 'search': a searched word; 'explain': a word that put the sample in its behavior. */
  mark: 'search' | 'explain' | null;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `text` cut into segments, the searched and explaining words marked (case-insensitive; a searched word wins). */
export function markWords(text: string, search: readonly string[], explain: readonly string[]): Segment[] {
  const words = [...new Set([...search, ...explain].map((w) => w.toLowerCase()).filter((w) => w.trim()))].sort((a, b) => b.length - a.length);
  if (!words.length || !text) return [{ text, mark: null }];
  const searched = new Set(search.map((w) => w.toLowerCase()));
  const re = new RegExp(words.map(escapeRegex).join('|'), 'gi');
  const out: Segment[] = [];
  let at = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > at) out.push({ text: text.slice(at, m.index), mark: null });
    out.push({ text: m[0], mark: searched.has(m[0].toLowerCase()) ? 'search' : 'explain' });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at), mark: null });
  return out;
}

/** Which stacked band holds value `p` at one step (bands bottom up, each [lo, hi)); -1 for none. */
export function bandAt(bands: readonly ({ lo: number; hi: number } | undefined)[], p: number): number {
  return bands.findIndex((b) => !!b && b.hi > b.lo && p >= b.lo && p < b.hi);
}

/**
 * The phrases of discovery's evidence that can be found in a text: those in quotes ('opens "check
 * w16"' → 'check w16'), else the evidence itself unless it names a shape; a phrase with no letter or
 * digit (closes ".") is left out: marked, it would mark every full stop.
 */
export function evidencePhrases(evidence: readonly string[]): string[] {
  return evidence
    .flatMap((e) => {
      const quoted = [...e.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
      return quoted.length ? quoted : e.startsWith('shape:') ? [] : [e];
    })
    .filter((p) => /[\p{L}\p{N}]/u.test(p));
}
