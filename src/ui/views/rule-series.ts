/**
 * "Samples by gate rule" (pure): one series per rule identity (label + text, rule-names.ts), summed
 * over the indices it had, in the order the rules first decided a sample. A gate applied mid-run
 * adds series after the existing ones, so no rule changes colour or name; the compare run's series
 * use the same colour for the same rule.
 */
import type { MetricsFrame } from '../../core/metrics';
import { PALETTE, type Point, type Series } from '../charts/series';
import type { RuleIdentity, RuleNamer } from '../gates/rule-names';

/**
 * The gate's rule names by rule index, as the traced samples report them (latest frame first: a
 * gate applied mid-run renames its rules from that step on).
 */
export function tracedRuleNames(frames: readonly MetricsFrame[]): Map<number, string> {
  const names = new Map<number, string>();
  for (let i = frames.length - 1; i >= 0; i--) for (const t of frames[i].trace ?? []) if (!names.has(t.rule)) names.set(t.rule, t.ruleName);
  return names;
}

/** Without the run's timeline (an import, a hidden gate) a rule is known by its traced name. */
function tracedNamer(frames: readonly MetricsFrame[]): RuleNamer {
  const latest = tracedRuleNames(frames);
  const byStep = new Map(frames.map((f) => [f.step, new Map((f.trace ?? []).map((t) => [t.rule, t.ruleName]))]));
  return (step, rule) => {
    const name = byStep.get(step)?.get(rule) ?? latest.get(rule) ?? `rule ${rule + 1}`;
    return { key: name, name, text: '' };
  };
}

/** Counts per step by rule identity; identities in order of first decision. */
function tally(frames: readonly MetricsFrame[], nameAt: RuleNamer, seen: Map<string, RuleIdentity>): Map<number, Map<string, number>> {
  const steps = new Map<number, Map<string, number>>();
  for (const f of frames) {
    const counts = f.series['gate/rule_counts'];
    if (!counts) continue;
    const here = new Map<string, number>();
    counts.forEach((c, i) => {
      if (!(c > 0)) return;
      const id = nameAt(f.step, i) ?? { key: `rule ${i + 1}`, name: `rule ${i + 1}`, text: '' };
      if (!seen.has(id.key)) seen.set(id.key, id);
      here.set(id.key, (here.get(id.key) ?? 0) + c);
    });
    steps.set(f.step, here);
  }
  return steps;
}

/** One series per rule that decided a sample in either run (compare dashed, same colour). */
export function ruleCountSeries(frames: readonly MetricsFrame[], compare: readonly MetricsFrame[] = [], nameAt?: RuleNamer, compareNameAt?: RuleNamer): Series[] {
  const seen = new Map<string, RuleIdentity>();
  const own = tally(frames, nameAt ?? tracedNamer(frames), seen);
  const other = tally(compare, compareNameAt ?? tracedNamer(compare), seen);
  const ids = [...seen.values()];
  // two rules with one label (different text) are told apart by their text
  const clash = (id: RuleIdentity) => ids.some((o) => o.key !== id.key && o.name === id.name);
  const points = (tallied: Map<number, Map<string, number>>, key: string): Point[] => [...tallied].map(([step, m]) => ({ step, value: m.get(key) ?? 0 }));
  return ids.flatMap((id, i) => {
    const label = clash(id) && id.text ? `${id.name} (${id.text})` : id.name;
    const color = PALETTE[i % PALETTE.length];
    return [
      { key: `rule:${id.key}`, label, color, points: points(own, id.key) },
      ...(compare.length ? [{ key: `b:rule:${id.key}`, label: `${label} — compare`, color, points: points(other, id.key), dashed: true }] : []),
    ];
  });
}
