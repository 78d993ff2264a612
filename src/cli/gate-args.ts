// Gates given on the command line: a gate file (rule lines, or JSON {"rules": [...]} as
// compileGateJson reads it) and single rules (--gate-rule 'EXPR => DECISION # label'). Both go the
// one way from text to a gate (src/core/gates/compile.ts), so each rule is parsed once, here, with
// the gate parser's errors (rule, character, reason) naming the file or the flag it came from; the
// joined gate is kept compiled under its canonical text (joinedGateText), so the config's check and
// the loop take it without parsing it again.
import { UsageError } from './args';
import { readTextFile } from './files';
import { errorText } from '../core/unknown';
import { compileGate, compileGateJson, GateError, joinedGateText, type Gate } from '../core/gates/index';

/** A gate file's gate; every error names the file. */
function readGate(path: string, flag: string): Gate {
  const text = readTextFile(path, flag);
  try {
    return text.trimStart().startsWith('{') ? compileGateJson(JSON.parse(text)) : compileGate(text);
  } catch (e) {
    throw new Error(`${flag} ${path}: ${errorText(e)}`);
  }
}

/** A gate file's canonical text (one rule per line), kept compiled. */
export function readGateFile(path: string, flag = '--gate'): string {
  return joinedGateText([readGate(path, flag)]);
}

/** The gate of --gate-rule values, in order (the Nth flag is "rule N" in errors); a bad flag is a UsageError naming it. */
function flagGate(rules: readonly string[]): Gate {
  const multiline = rules.find((r) => /[\n\r]/.test(r));
  if (multiline !== undefined) throw new UsageError(`--gate-rule ${JSON.stringify(multiline)}: a rule is one line`);
  const blank = rules.find((r) => r.trim() === '');
  if (blank !== undefined) throw new UsageError(`--gate-rule ${JSON.stringify(blank)}: an empty rule`);
  try {
    return compileGate(rules.join('\n'));
  } catch (e) {
    if (e instanceof GateError) throw new UsageError(`--gate-rule ${JSON.stringify(rules[e.rule])}: ${e.message}`);
    throw e;
  }
}

/**
 * The `gate` setting of --gate-rule flags and a --gate file (the flags' rules first, then the
 * file's; first match wins), kept compiled; undefined when neither is given. A bad flag is a bad
 * command line (UsageError naming the flag), a bad file an Error naming the file (exit 1).
 */
export function gateSetting(flags: readonly string[], file?: string): string | undefined {
  const gates = flags.length ? [flagGate(flags)] : [];
  if (file !== undefined) gates.push(readGate(file, '--gate'));
  return gates.length ? joinedGateText(gates) : undefined;
}
