// The rule-regex engine the shells hand the core: RE2 (re2js, linear time) for every pattern it
// can run with JavaScript's meaning (translate.ts), JavaScript's RegExp under a budget guard for the
// rest. The guard is the shell's: node:vm's timeout in the CLI (guard-node.ts), a watchdog that ends
// the import worker in the page (guard-shared.ts). Without a guard such a pattern compiles (its
// rule can be checked) but cannot run.
import { RE2JS } from 're2js';
import type { MatchSite, RegexEngine, RuleMatch, RuleRegex } from '../../core/import/rules/regex';
import { normalizePattern } from '../../core/import/rules/regex-syntax';
import { translateForRe2 } from './translate';

/** Runs `f` (one backtracking match of `rule` at `at`) within what is left of its file's budget, or throws the budget message. */
export interface BacktrackGuard {
  run<T>(rule: string, at: MatchSite, f: () => T): T;
}

const SURROGATE = /[\uD800-\uDFFF]/;
const NOWHERE: MatchSite = { file: '(text)', line: 0 };

export function ruleRegexEngine(guard: BacktrackGuard | null): RegexEngine {
  return {
    name: 'rule regex',
    compile(pattern, flags, rule) {
      const n = normalizePattern(pattern, flags);
      const js = new RegExp(n.pattern, n.flags);
      const t = translateForRe2(n.pattern, n.flags);
      const re2 = t.re2 === null ? null : tryRe2(t.re2);
      const why = re2 ? null : (t.why ?? 'RE2 refuses its translation');
      const onJs = (text: string, at: MatchSite): RuleMatch | null => {
        if (!guard) throw new Error(`${rule}: this pattern needs JavaScript's backtracking engine (${why}), which runs only inside the import`);
        return guard.run(rule, at, () => jsFind(js, text));
      };
      const regex: RuleRegex = {
        runsOn: re2 ? 're2' : 'backtracking',
        why,
        find(text, at = NOWHERE) {
          if (re2 && !(t.unitsMatter && SURROGATE.test(text))) return re2Find(re2, text);
          return onJs(text, at);
        },
      };
      return regex;
    },
  };
}

function tryRe2(source: string): RE2JS | null {
  try {
    return RE2JS.compile(source);
  } catch {
    return null;
  }
}

function re2Find(re: RE2JS, text: string): RuleMatch | null {
  const m = re.matcher(text);
  if (!m.find()) return null;
  return { text: m.group(0) ?? '', first: re.groupCount() > 0 ? m.group(1) : null, named: m.getNamedGroups() };
}

function jsFind(re: RegExp, text: string): RuleMatch | null {
  re.lastIndex = 0;
  const m = re.exec(text);
  if (!m) return null;
  const named: Record<string, string | null> = Object.create(null);
  for (const [k, v] of Object.entries(m.groups ?? {})) named[k] = v ?? null;
  return { text: m[0], first: m.length > 1 ? (m[1] ?? null) : null, named };
}
