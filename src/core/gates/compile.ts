// The one way from a gate's text to a compiled gate. A gate travels as its text (configs, URLs,
// worker messages, bundles) and is parsed once per text on each side of a boundary: every reader
// on that side (the editor's check, the config check, the loop, the panels) gets the same
// compiled value from here.
import { checkGateText, GateError, gateText, type Gate } from './gate';

const compiled = new Map<string, Gate>();
const MAX_KEPT = 64;
let parses = 0;

function keep(text: string, gate: Gate): void {
  if (compiled.size >= MAX_KEPT) compiled.delete(compiled.keys().next().value!);
  compiled.set(text, gate);
}

/** Every error of a gate's text (the editor shows all); a text without errors is kept compiled for compileGate. */
export function checkGate(text: string): ReturnType<typeof checkGateText> {
  const hit = compiled.get(text);
  if (hit) return { gate: hit, errors: [], lines: linesOf(text) };
  parses++;
  const r = checkGateText(text);
  if (r.gate) keep(text, r.gate);
  return r;
}

/** The compiled gate of a text (one rule per line). Throws the text's first GateError. */
export function compileGate(text: string): Gate {
  const r = checkGate(text);
  if (r.errors.length) throw r.errors[0];
  return r.gate!;
}

/**
 * A gate compiled from parts parsed elsewhere (a CLI's --gate-rule flags and gate file): its
 * canonical text, kept with it, so that the config's check and the loop find it without parsing.
 */
export function keepGate(gate: Gate): string {
  const text = gateText(gate);
  if (!compiled.has(text)) keep(text, gate);
  return text;
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

/** Editor lines of the rules (blank lines skipped), as checkGateText gives them. */
function linesOf(text: string): number[] {
  const out: number[] = [];
  text.split('\n').forEach((l, n) => l.trim() !== '' && out.push(n));
  return out;
}

/** How many times a gate text was parsed on this side so far (tests of the walk from editor to loop). */
export function gateParses(): number {
  return parses;
}
