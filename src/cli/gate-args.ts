// Gates given on the command line: a gate file (rule lines, or JSON {"rules": [...]} as parseGateJson
// reads it) and single rules (--gate-rule 'EXPR => DECISION # label'). Checked here with the gate
// parser's errors (rule, character, reason), each naming the file or the rule it came from.
import { readFileSync } from 'node:fs';
import { withoutBom } from './files';
import { gateText, parseGateJson, parseGateText, parseRuleLine, ruleLine } from '../core/gates/index';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** A gate file's canonical text (one rule per line). */
export function readGateFile(path: string, flag = '--gate'): string {
  try {
    const text = withoutBom(readFileSync(path, 'utf8'));
    return text.trimStart().startsWith('{') ? gateText(parseGateJson(JSON.parse(text))) : gateText(parseGateText(text));
  } catch (e) {
    throw new Error(`${flag} ${path}: ${message(e)}`);
  }
}

/** The canonical lines of --gate-rule values, in order (the Nth flag is "rule N" in errors). */
export function gateRuleLines(rules: readonly string[]): string[] {
  return rules.map((r, i) => {
    if (/[\n\r]/.test(r)) throw new Error(`--gate-rule ${JSON.stringify(r)}: a rule is one line`);
    try {
      return ruleLine(parseRuleLine(r, i));
    } catch (e) {
      throw new Error(`--gate-rule ${JSON.stringify(r)}: ${message(e)}`);
    }
  });
}
