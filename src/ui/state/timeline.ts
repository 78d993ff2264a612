/**
 * A run's setting changes as text (pure), for the timeline list and the labelled rules on every
 * time chart. Hidden settings (presenter mode) say that they changed, not to what.
 */
import { fieldLabel, type Config, type ConfigKey } from '../../core/config';
import type { TimelineEntry } from '../../core/loop';
import { formatSetting } from './labels';

export interface ChangeRule {
  /** The step after which the change took effect (the rule sits there). */
  step: number;
  /** e.g. "ε_high 0.28 → 0.35". */
  label: string;
}

/** Every change after the first entry (the run's start), with the value it replaced. */
export function changeRules(timeline: readonly TimelineEntry[], hidden: readonly ConfigKey[] = []): ChangeRule[] {
  let cur: Partial<Config> = {};
  return timeline.flatMap((e, i) => {
    const before = cur;
    cur = { ...cur, ...e.patch };
    if (i === 0) return [];
    const parts = (Object.keys(e.patch) as ConfigKey[]).map((k) =>
      hidden.includes(k) ? `${fieldLabel(k)} changed` : `${fieldLabel(k)} ${formatSetting(before[k])} → ${formatSetting(e.patch[k])}`,
    );
    return [{ step: e.step, label: parts.join(', ') }];
  });
}
