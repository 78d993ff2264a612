// What a readable name of a discovered behavior looks like (issue 45: "a behavior is named by its
// typical opening, quoted in its own language, and its shape in words; never a pair of content
// words"): each part of a title (parts joined by " · ") a quoted opening or the words of a shape
// (src/core/import/discover/naming.ts).
export const READABLE_PART = /^".+…"$|^(calls \S+( first)?|code|numbered list|bullets|enumerated|headings|asks back|question|exclaims|tool call|reads tool results|thinks|backtracks( often)?|enumerates cases|many cases|verifies( often)?|gives up( often)?|boxed answer|<answer> tag|#### answer|states a final answer|plain)$/;

/** The parts of a title that are neither a quoted opening nor shape words (none: readable). */
export function unreadableParts(title: string): string[] {
  return title.split(' · ').filter((p) => !READABLE_PART.test(p));
}
