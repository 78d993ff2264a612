// The `gate` setting's check: its text must compile as a gate (src/core/gates). compileGate keeps
// the compiled gate, so the loop on this side of the boundary does not parse the text again.
import { gateCompiles } from '../gates/compile';

/** A gate's text: null when it compiles, else the parser's first error (rule, character, reason). */
export function checkGateText(t: string): string | null {
  return gateCompiles(t);
}
