// A behavior rule written into a `--behaviors` rule file's text (the CLI's --rules-out, the page's
// download): the rules with the same label are replaced by it where the first of them stood, or it
// is added after the others (first match wins: the rules already there keep their samples); the
// rest of the file — other rules, `fallback`, `useLogLabel` — is kept. The result is parsed by the
// same parser the import and watch use, so a file this writes is one they accept.
import { errorText } from '../../unknown';
import { parseBehaviorRuleSet, type BehaviorRule, type BehaviorRuleSet } from './rules';

/** The rule set with `rule` in it; `text` '' or null: a new file whose other behaviors are discovered. */
export function withBehaviorRule(text: string | null, rule: BehaviorRule): { set: BehaviorRuleSet; text: string; replaced: number } {
  let parsed: unknown = { rules: [] };
  if (text !== null && text.trim()) {
    try {
      parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch (e) {
      throw new Error(`the rule file is not JSON (${errorText(e)})`);
    }
  }
  const set = parseBehaviorRuleSet(parsed);
  parseBehaviorRuleSet({ rules: [rule] }); // the new rule alone, so its own errors are named as such
  const at = set.rules.findIndex((r) => r.label === rule.label);
  const kept = set.rules.filter((r) => r.label !== rule.label);
  const rules = at < 0 ? [...kept, rule] : [...kept.slice(0, at), rule, ...kept.slice(at)];
  const out: BehaviorRuleSet = { ...set, rules };
  const json = `${JSON.stringify(out, null, 2)}\n`;
  return { set: parseBehaviorRuleSet(JSON.parse(json)), text: json, replaced: set.rules.length - kept.length };
}
