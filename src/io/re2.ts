// re2js (a pure-JavaScript port of RE2: matching in time linear in the input, no backtracking)
// behind the core's RegexEngine interface (src/core/import/rules/regex.ts), for the CLI, the import
// worker and the page. Chosen over a time limit on RegExp: a time limit still spends the time, and
// a worker per rule to stop it is heavier than an engine that cannot blow up.
import { RE2JS } from 're2js';
import type { RegexEngine } from '../core/import/rules/regex';

const FLAGS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL, u: 0 };

export const re2Engine: RegexEngine = {
  name: 're2js',
  compile(pattern, flags) {
    let f = 0;
    for (const c of flags) {
      if (!Object.hasOwn(FLAGS, c)) throw new Error(`unsupported flag "${c}"`);
      f |= FLAGS[c];
    }
    const re = RE2JS.compile(pattern, f);
    return {
      find(text) {
        const m = re.matcher(text);
        if (!m.find()) return null;
        return { text: m.group(0) ?? '', first: re.groupCount() > 0 ? m.group(1) : null, named: m.getNamedGroups() };
      },
    };
  },
};
