// Gates given on the command line: a gate file (rule lines, or JSON {"rules": [...]} as parseGateJson
// reads it) and single rules (--gate-rule 'EXPR => DECISION # label'). Each rule is parsed once,
// here, with the gate parser's errors (rule, character, reason) naming the file or the flag it came
// from; the gate is then kept compiled under its canonical text (keepGate), so the config's check
// and the loop take it without parsing it again.
import { UsageError } from './args';
import { readTextFile } from './files';
import { gateFromRules, keepGate, parseGateJson, parseGateText, parseRuleLine, type Gate, type Rule } from '../core/gates/index';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** A gate file's gate; every error names the file. */
function readGate(path: string, flag: string): Gate {
  const text = readTextFile(path, flag);
  try {
    return text.trimStart().startsWith('{') ? parseGateJson(JSON.parse(text)) : parseGateText(text);
  } catch (e) {
    throw new Error(`${flag} ${path}: ${message(e)}`);
  }
}

/** A gate file's canonical text (one rule per line), kept compiled. */
export function readGateFile(path: string, flag = '--gate'): string {
  return keepGate(readGate(path, flag));
}

/** The rules of --gate-rule values, in order (the Nth flag is "rule N" in errors). */
function flagRules(rules: readonly string[]): Rule[] {
  return rules.map((r, i) => {
    if (/[\n\r]/.test(r)) throw new Error(`--gate-rule ${JSON.stringify(r)}: a rule is one line`);
    try {
      return parseRuleLine(r, i);
    } catch (e) {
      throw new Error(`--gate-rule ${JSON.stringify(r)}: ${message(e)}`);
    }
  });
}

/**
 * The `gate` setting of --gate-rule flags and a --gate file (the flags' rules first, then the
 * file's; first match wins), kept compiled; undefined when neither is given. A bad flag is a bad
 * command line (UsageError naming the flag), a bad file an Error naming the file (exit 1).
 */
export function gateSetting(flags: readonly string[], file?: string): string | undefined {
  let rules: Rule[];
  try {
    rules = flagRules(flags);
  } catch (e) {
    throw new UsageError(message(e));
  }
  if (file !== undefined) rules.push(...readGate(file, '--gate').rules);
  return rules.length ? keepGate(gateFromRules(rules)) : undefined;
}
