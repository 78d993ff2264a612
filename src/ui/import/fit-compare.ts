// The fit beside the import (pure): per state of the fitted task, the imported behavior
// distribution over steps and the simulated run's, as series on one step axis. The import's steps
// are counted from 1 (a log may start at any step number), as the lab counts its training steps;
// the simulated run's curves are dashed (the charts' compare convention). Colours are the lab's per
// behavior (the fitted spec's order), so a behavior has one colour in both curves.
import type { MetricsFrame } from '../../core/metrics';
import type { FitResult } from '../../core/tasks/fit';
import { INVALID_NAME } from '../../core/tasks/spec';
import { PALETTE, type Point, type Series } from '../charts/series';

/** The grey of "no behavior" (darker than the stacked views' fill: here it is a 2.5 px line). */
const INVALID_GREY = '#8A8A8A';

export interface StateComparison {
  /** The fitted task's state name (the import's name, where it differed, in `importState`). */
  state: string;
  importState: string;
  series: Series[];
}

const dist = (frames: readonly MetricsFrame[], key: string, stepOf: (f: MetricsFrame, i: number) => number): Point[] =>
  frames.flatMap((f, i) => {
    const v = (f.scalars as Record<string, number | undefined>)[key];
    return typeof v === 'number' && Number.isFinite(v) ? [{ step: stepOf(f, i), value: v }] : [];
  });

/** Per fitted state: solid = imported π(behavior | state) per import step (from 1), dashed = the simulated run's. */
export function fitComparison(fit: FitResult, imported: readonly MetricsFrame[], simulated: readonly MetricsFrame[]): StateComparison[] {
  const { spec, importNames } = fit;
  return spec.states.map((st, s) => {
    const from = importNames.states[s];
    const series = spec.behaviors.flatMap((b, i): Series[] => {
      const color = PALETTE[i % PALETTE.length];
      const ib = importNames.behaviors[i];
      return [
        { key: `imported/${ib}`, label: ib === b.name ? b.name : `${b.name} (${ib})`, color, points: dist(imported, `support/behavior_dist/${from}/${ib}`, (_, k) => k + 1) },
        { key: `simulated/${b.name}`, label: `${b.name}, simulated`, color, dashed: true, points: dist(simulated, `support/behavior_dist/${st.name}/${b.name}`, (f) => f.step) },
      ];
    });
    // the share that is no behavior, in the views' grey: a base still learning its markers shows here
    const none = `support/behavior_dist/${from}/${INVALID_NAME}`;
    series.push(
      { key: 'imported/invalid', label: 'no behavior (invalid)', color: INVALID_GREY, points: dist(imported, none, (_, k) => k + 1) },
      { key: 'simulated/invalid', label: 'no behavior, simulated', color: INVALID_GREY, dashed: true, points: dist(simulated, `support/behavior_dist/${st.name}/${INVALID_NAME}`, (f) => f.step) },
    );
    return { state: st.name, importState: from, series };
  });
}

/** Steps of the import: what the simulated run trains for. */
export const importedSteps = (imported: readonly MetricsFrame[]): number => imported.length;
