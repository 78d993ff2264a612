// The regexes of import rules (a state captured from the prompt, a behavior's response regex) run
// on an injected linear-time engine, so no pattern can hang an import (`(a+)+$` on 41 characters
// ran past 240 s on JavaScript's backtracking RegExp). The core imports no package: the shells
// (CLI, import worker, page) pass src/io/re2.ts; without an engine a regex rule is refused by name.
import { errorText } from '../../unknown';

/** What a rule reads of a match: the whole match, the first group, the named groups. */
export interface RuleMatch {
  text: string;
  first: string | null;
  named: Readonly<Record<string, string | null>>;
}

export interface RuleRegex {
  find(text: string): RuleMatch | null;
}

export interface RegexEngine {
  /** Engine name for messages. */
  readonly name: string;
  /** Compile with JavaScript-style flags (i, m, s, u); throws an Error saying why a pattern is refused. */
  compile(pattern: string, flags: string): RuleRegex;
}

/** Compile a rule's regex, or throw an Error naming the rule (`where`) and the reason. */
export function compileRuleRegex(engine: RegexEngine | undefined, pattern: string, flags: string, where: string): RuleRegex {
  if (!engine) throw new Error(`${where}: regex rules need a linear-time regex engine, and the importer was given none`);
  try {
    return engine.compile(pattern, flags);
  } catch (e) {
    throw new Error(`${where}: ${engine.name} refuses the regex ${JSON.stringify(pattern)} (${errorText(e)}); it runs in linear time, so backreferences and lookarounds are not supported`);
  }
}
