// How deep a JSON value nests, measured without recursion. Every reader of a file or link value
// (task specs, presets, experiment specs, bundles, cell logs) checks it first: JSON.parse takes any
// depth, but showing or copying a value (JSON.stringify, structuredClone, a recursive copy) throws
// "Maximum call stack size exceeded" at a few thousand levels — 8 kB of "[" is enough. The lab's own
// formats nest under ten levels; the limit leaves room for any hand-written file.

/** Most levels of objects / arrays a value read from outside may nest. */
export const MAX_JSON_DEPTH = 64;

/**
 * Levels of nesting of a value (a number or string: 0; `{}` or `[]`: 1; `[[1]]`: 2), counted up to
 * `stopAt + 1` at most (so a cyclic in-memory value ends too).
 */
export function nestingDepth(value: unknown, stopAt = MAX_JSON_DEPTH): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, above] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const depth = above + 1;
    if (depth > deepest) deepest = depth;
    if (deepest > stopAt) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth]);
  }
  return deepest;
}

/** The error for a value nested deeper than MAX_JSON_DEPTH, naming what it is; null when it is not. */
export function depthError(value: unknown, what: string): string | null {
  return nestingDepth(value) > MAX_JSON_DEPTH ? `${what} nests objects or arrays more than ${MAX_JSON_DEPTH} levels deep, the limit` : null;
}
