// What a readable name of a discovered behavior looks like (issue 45: "a behavior is named by its
// typical opening, quoted in its own language, and its shape in words; never a pair of content
// words"): each part of a title (parts joined by " · ") a quoted opening or the words of a shape
// (src/core/import/discover/naming.ts).
import { LENGTH_TITLE, SHAPE_TITLES } from '../../src/core/import/discover/naming';

const escaped = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export const READABLE_PART = new RegExp(`^".+…"$|^"… .+"$|^calls \\S+( first)?$|^(no )?(${[...SHAPE_TITLES, 'plain'].map(escaped).join('|')})$|${LENGTH_TITLE.source}`);

/** The parts of a title that are neither a quoted opening nor shape words (none: readable). */
export function unreadableParts(title: string): string[] {
  return title.split(' · ').filter((p) => !READABLE_PART.test(p));
}
