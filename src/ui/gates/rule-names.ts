// The gate rules in use at each step of a run, from its timeline (the first entry is the start
// config; a change recorded after step s takes effect at step s + 1). The per-rule counts are kept
// by rule index; a gate applied mid-run reorders the indices, so the counts are tracked by rule
// identity instead (label and text: the same rule under a new gate keeps its series and colour). Pure.
import { defaultConfig, type Config } from '../../core/config';
import { gateOf } from '../../core/gates/builtin';
import { ruleName, type Gate } from '../../core/gates/index';
import type { TimelineEntry } from '../../core/loop';

/** A gate rule as the counts track it across gate changes. */
export interface RuleIdentity {
  /** Label and rule text: equal keys are the same rule. */
  key: string;
  /** Its label, or its text when it has none. */
  name: string;
  /** "when => then" ('' for the no-rule-matched row). */
  text: string;
}

export type RuleNamer = (step: number, rule: number) => RuleIdentity | undefined;

/** The rule namers of run A and of the compare run B (each from its own timeline). */
export interface RunRuleNamers {
  a?: RuleNamer;
  b?: RuleNamer;
}

/** Rule `i` of a gate as an identity (i = rules.length: no rule matched). */
export function ruleIdentity(gate: Gate, i: number): RuleIdentity {
  if (i >= gate.rules.length) return { key: 'no rule matched', name: ruleName(gate, i), text: '' };
  const r = gate.rules[i];
  const text = `${r.when} => ${r.then}`;
  return { key: `${r.label}\n${text}`, name: r.label || text, text };
}

export function ruleNamerOf(timeline: readonly TimelineEntry[]): RuleNamer {
  const segments: { from: number; gate: Gate }[] = [];
  let cur: Partial<Config> = {};
  for (const [i, e] of timeline.entries()) {
    cur = { ...cur, ...e.patch };
    let gate: Gate;
    try {
      // the timeline is the worker's (its patches were checked there): a typed value, not checked again
      gate = gateOf({ ...defaultConfig(), ...cur } as Config);
    } catch {
      continue; // a gate that does not compile names nothing (the run kept its gate)
    }
    const from = i === 0 ? -Infinity : e.step + 1;
    const prev = segments[segments.length - 1];
    if (!prev || prev.gate !== gate) segments.push({ from, gate });
  }
  return (step, rule) => {
    let seg: Gate | undefined;
    for (const s of segments) if (s.from <= step) seg = s.gate;
    return seg ? ruleIdentity(seg, rule) : undefined;
  };
}
