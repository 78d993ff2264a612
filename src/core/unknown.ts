// Reading values whose type is not known yet (a caught error, parsed JSON), written once for the
// whole repository.

/** The message of a caught error; anything else thrown, as text. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A plain object (not null, not an array): what a parsed JSON object is. */
export function isObject(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}
