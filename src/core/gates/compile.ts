// The one way from a gate's text to a compiled gate. A gate travels as its text (configs, URLs,
// worker messages, bundles) and is parsed once per text on each side of a boundary: every reader
// on that side (the config check, the loop, the panels) gets the same compiled value from here.
import { GateError, parseGateText, type Gate } from './gate';

const compiled = new Map<string, Gate>();
const MAX_KEPT = 64;
let parses = 0;

/** The compiled gate of a text (one rule per line). Throws the text's first GateError. */
export function compileGate(text: string): Gate {
  const hit = compiled.get(text);
  if (hit) return hit;
  parses++;
  const gate = parseGateText(text);
  if (compiled.size >= MAX_KEPT) compiled.delete(compiled.keys().next().value!);
  compiled.set(text, gate);
  return gate;
}

/** null when the text compiles to a gate, else its first error (rule, character, reason). */
export function gateCompiles(text: string): string | null {
  try {
    compileGate(text);
    return null;
  } catch (e) {
    if (e instanceof GateError) return e.message;
    throw e;
  }
}

/** How many times a gate text was parsed on this side so far (tests of the walk from editor to loop). */
export function gateParses(): number {
  return parses;
}
