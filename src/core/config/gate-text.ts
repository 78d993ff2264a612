// The `gate` setting's check: its text must parse as a gate (src/core/gates).
import { GateError, parseGateText } from '../gates/gate';

/** A gate's text: null when it parses, else the parser's first error (rule, character, reason). */
export function checkGateText(t: string): string | null {
  try {
    parseGateText(t);
    return null;
  } catch (e) {
    if (e instanceof GateError) return e.message;
    throw e;
  }
}
