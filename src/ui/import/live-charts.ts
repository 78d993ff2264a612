// How a followed run shows on the import view's charts and banner: the step axis that grows in
// steps (1, 2, 3, 5, 7.5 × 10^k, so a new step extends the curves instead of rescaling the axis
// every step), the alarms as chart markers, and what each alarm kind means in one sentence
// (the alarms themselves: src/core/import/follow/alarms.ts; docs/watch.md has the table).
import type { Alarm, AlarmKind } from '../../core/import/follow/alarms';
import type { LiveCharts } from '../state/chart-context';
import { KEY_NAMES, type ChartNames } from '../charts/names';

const NICE = [1, 2, 3, 5, 7.5, 10];

/** The drawn end of the step axis for a last step: the next nice number past it (room to grow). */
export function growingEnd(last: number): number {
  const x = Math.max(1, last + 1);
  const k = 10 ** Math.floor(Math.log10(x));
  return NICE.map((n) => n * k).find((n) => n >= x)!;
}

export function growingExtent([lo, hi]: [number, number]): [number, number] {
  return [lo, Math.max(lo + 1, growingEnd(hi))];
}

/** Vermillion (Okabe–Ito): apart from the divergence plot's pink and grey markers. */
export const ALARM_COLOUR = '#D55E00';

export const ALARM_MEANING: Record<AlarmKind, string> = {
  divergence: 'Exploration collapsed in this state while token entropy still looks healthy: the policy has settled on fewer ways of acting.',
  collapse: 'Exploration collapsed in this state, and token entropy fell with it.',
  'entropy-gap': 'Behavior entropy has halved while token entropy holds: varied words, fewer ways of acting.',
  'esr-fall': 'Under the gate, fewer queued samples carry a learning signal: compute is spent on samples that teach nothing.',
  'template-spreading': 'One way of answering has taken over several states: the behavior no longer depends on what was asked, even where token entropy looks healthy.',
  'zero-variance': 'More groups have all-equal rewards, and such a group gives GRPO no gradient.',
};

/** `names`: the run's discovered states and behaviors by their titles (by default their names). */
export function alarmTitle(a: Alarm, names: ChartNames = KEY_NAMES): string {
  return `step ${a.step} · ${a.kind}${a.state !== null ? ` · state ${names.short('state', a.state)}` : ''}${a.behavior ? ` · behavior ${names.short('behavior', a.behavior)}` : ''}`;
}

/**
 * The state the import view's plots show: the one the user picked on the plot; else, on a followed
 * run, the state the latest alarm names (the plots switch to where the alarm rang); else the
 * average over all states. `states`: the run's states (an alarm about a state the plots cannot
 * show changes nothing).
 */
export function shownState(picked: string | null, alarms: readonly Alarm[], states: readonly string[]): string {
  if (picked === 'mean' || (picked !== null && states.includes(picked))) return picked;
  const named = [...alarms].reverse().find((a) => a.state !== null && states.includes(a.state));
  return named?.state ?? 'mean';
}

/** The charts' view of a run's alarms while it is followed (growing axis) or after (its own extent). */
export function liveCharts(alarms: readonly Alarm[], following: boolean): LiveCharts {
  return {
    markers: alarms.map((a) => ({ step: a.step, label: `ALARM ${a.kind}: ${a.message}`, color: ALARM_COLOUR, alarm: a.kind })),
    extent: following ? growingExtent : (d) => d,
  };
}
