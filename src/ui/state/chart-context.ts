/**
 * What every time chart shows besides its own series: the run's setting changes as labelled rules
 * (App provides them once through Svelte context, so the views need no extra prop), and the names it
 * reads the run's states and behaviors by.
 */
import { getContext, setContext } from 'svelte';
import type { LabelTitles } from '../../core/import/index';
import { KEY_NAMES, chartNames, type ChartNames } from '../charts/names';
import type { RunRuleNamers } from '../gates/rule-names';
import type { ChangeRule } from './timeline';

const KEY = Symbol('invariant-lab/change-rules');

export function provideChangeRules(get: () => ChangeRule[]): void {
  setContext(KEY, get);
}

export function useChangeRules(): () => ChangeRule[] {
  return getContext<(() => ChangeRule[]) | undefined>(KEY) ?? (() => []);
}

const NAMES = Symbol('invariant-lab/rule-names');

/** The gate rules in use at each step of run A and of the compare run (from their timelines), for the per-rule counts. */
export function provideRuleNames(get: () => RunRuleNamers): void {
  setContext(NAMES, get);
}

export function useRuleNames(): () => RunRuleNamers {
  return getContext<(() => RunRuleNamers) | undefined>(NAMES) ?? (() => ({}));
}

/** What a followed run adds to every time chart under it: its alarms as markers, and a step axis that grows in steps. */
export interface LiveCharts {
  /** Alarm markers (drawn before the chart's own, so the notes under it list them first); `alarm` is its kind. */
  markers: { step: number; label: string; color: string; alarm: string }[];
  /** The drawn step domain for the data's [first, last] step. */
  extent(data: [number, number]): [number, number];
}

const LIVE = Symbol('invariant-lab/live-charts');
const NOT_LIVE: LiveCharts = { markers: [], extent: (d) => d };

/** The import view, while it shows a live run (ImportPanel provides it once). */
export function provideLiveCharts(get: () => LiveCharts | null): void {
  setContext(LIVE, get);
}

export function useLiveCharts(): () => LiveCharts {
  const get = getContext<(() => LiveCharts | null) | undefined>(LIVE);
  return () => get?.() ?? NOT_LIVE;
}

const NAMES_READ = Symbol('invariant-lab/chart-names');

/** The titles of the shown run's discovered states and behaviors (ImportPanel provides them once for every chart of an imported or followed run). */
export function provideLabelTitles(get: () => LabelTitles | null): void {
  setContext(NAMES_READ, get);
}

/** How the charts name states and behaviors: by their titles under an imported run, else by their names (the lab's own runs). */
export function useChartNames(): () => ChartNames {
  const get = getContext<(() => LabelTitles | null) | undefined>(NAMES_READ);
  if (!get) return () => KEY_NAMES;
  // one ChartNames a set of titles (it keeps the cuts it made)
  let titles: LabelTitles | null | undefined;
  let names = KEY_NAMES;
  return () => {
    const now = get();
    if (now !== titles) [titles, names] = [now, chartNames(now)];
    return names;
  };
}
