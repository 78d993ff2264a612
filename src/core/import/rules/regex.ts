// The regexes of import rules (a state captured from the prompt, a behavior's response regex). A
// pattern means what it means in JavaScript (with Python's `(?P<name>…)` and a leading `(?i)`
// accepted); the shells run it on RE2 (linear time) when RE2 can say the same, and otherwise on
// JavaScript's backtracking RegExp under a budget per file that stops the import when spent,
// naming the rule, the file and the line (src/io/regex/). The core imports no package: the shells
// pass the engine; without one a regex rule is refused by name.
import { errorText } from '../../unknown';

/** What a rule reads of a match: the whole match, the first group, the named groups. */
export interface RuleMatch {
  text: string;
  first: string | null;
  named: Readonly<Record<string, string | null>>;
}

/** Where a match runs: the sample's file and 1-based line (for the budget and its message). */
export interface MatchSite {
  file: string;
  line: number;
}

export interface RuleRegex {
  /** Which engine runs this pattern, and why when it is the backtracking one. */
  readonly runsOn: 're2' | 'backtracking';
  readonly why: string | null;
  find(text: string, at?: MatchSite): RuleMatch | null;
}

export interface RegexEngine {
  /** Engine name for messages. */
  readonly name: string;
  /** Compile with JavaScript flags (i, m, s, u); `rule` names the rule in budget messages. Throws an Error saying why a pattern is refused. */
  compile(pattern: string, flags: string, rule: string): RuleRegex;
}

/** Backtracking time a file may spend in rule regexes before the import stops. */
export const REGEX_BUDGET_MS = 2000;

/** The one message of a spent budget, in the CLI and the page alike. */
export function regexBudgetMessage(rule: string, at: MatchSite, budgetMs: number): string {
  return `${rule}: the regex ran past its budget (${budgetMs / 1000} s of backtracking per file) on ${at.file} line ${at.line}, so the import stopped. The pattern needs JavaScript's backtracking engine and backtracks badly on this text (nested repeats like (a+)+ do): rewrite it without nested repeats, or drop the lookaround or backreference so it runs in linear time.`;
}

/** Compile a rule's regex, or throw an Error naming the rule (`where`) and the reason. */
export function compileRuleRegex(engine: RegexEngine | undefined, pattern: string, flags: string, where: string): RuleRegex {
  if (!engine) throw new Error(`${where}: regex rules need a regex engine, and the importer was given none`);
  try {
    return engine.compile(pattern, flags, where);
  } catch (e) {
    throw new Error(`${where}: invalid regex ${JSON.stringify(pattern)} (${errorText(e)})`);
  }
}
