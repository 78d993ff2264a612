// The names of the gate rules in use at each step of a run, from its timeline (the first entry is the
// start config; a change recorded after step s takes effect at step s + 1): the per-rule counts over
// time are labelled with the rules that really decided, also across a gate applied mid-run. Pure.
import { makeConfig, type Config } from '../../core/config';
import { gateOf } from '../../core/gates/builtin';
import { ruleName, type Gate } from '../../core/gates/index';
import type { TimelineEntry } from '../../core/loop';

export type RuleNamer = (step: number, rule: number) => string | undefined;

export function ruleNamerOf(timeline: readonly TimelineEntry[]): RuleNamer {
  const segments: { from: number; gate: Gate }[] = [];
  let cur: Partial<Config> = {};
  for (const [i, e] of timeline.entries()) {
    cur = { ...cur, ...e.patch };
    let gate: Gate;
    try {
      gate = gateOf(makeConfig(cur));
    } catch {
      continue; // an entry the core refuses names nothing (the run kept its gate)
    }
    const from = i === 0 ? -Infinity : e.step + 1;
    const prev = segments[segments.length - 1];
    if (!prev || prev.gate !== gate) segments.push({ from, gate });
  }
  return (step, rule) => {
    let seg: Gate | undefined;
    for (const s of segments) if (s.from <= step) seg = s.gate;
    return seg ? ruleName(seg, rule) : undefined;
  };
}
