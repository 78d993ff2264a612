// Behavior shares of a fitted task's states, step by step, over its behaviors only: the responses
// that are a behavior, renormalized (the fitted spec has no invalid share, fit-states.ts), so a log
// and a run of its fitted task are compared on the same footing. What the seed band (fit-band.ts)
// and the forecast (fit-forecast.ts) compare.
//   the log        support/behavior_count/<s>/<b> of the import's frames (its names), with n = the
//                  state's samples that were one of the fitted behaviors at that step
//   a simulated    support/behavior_dist/<s>/<b> of a run of the fitted task (the spec's names): the
//   run            lab's measured π(b | s) after each training step (n unknown here: NaN)
import { behaviorCountKey } from '../import/measure/fit-keys';
import type { ScalarsWith } from '../measure/names';
import { scalarAt } from '../metrics';
import type { FitResult } from './fit';

/** What a share table reads of a frame. */
export interface StepFrame {
  step: number;
  scalars: ScalarsWith;
}

export interface ShareTable {
  /** The frames' step numbers, in order. */
  steps: number[];
  /** share[state][behavior][i] at steps[i]; NaN where the state had no behavior at that step. */
  share: number[][][];
  /** n[state][i]: the samples the shares are over (the log), NaN where unknown (a simulated run). */
  n: number[][];
}

/** The names a share table needs of a fit (spec names, and the import's for the log's keys). */
export type FitNames = Pick<FitResult, 'spec' | 'importNames'>;

const value = (f: StepFrame, key: string): number => {
  const v = scalarAt(f.scalars, key);
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
};

function table(frames: readonly StepFrame[], states: number, behaviors: number, weight: (f: StepFrame, s: number, b: number) => number, counted: boolean): ShareTable {
  const share = Array.from({ length: states }, () => Array.from({ length: behaviors }, () => new Array<number>(frames.length).fill(NaN)));
  const n = Array.from({ length: states }, () => new Array<number>(frames.length).fill(NaN));
  frames.forEach((f, i) => {
    for (let s = 0; s < states; s++) {
      const w = Array.from({ length: behaviors }, (_, b) => weight(f, s, b));
      const total = w.reduce((a, x) => a + x, 0);
      if (counted) n[s][i] = total;
      if (total > 0) w.forEach((x, b) => (share[s][b][i] = x / total));
    }
  });
  return { steps: frames.map((f) => f.step), share, n };
}

/** The log's shares per import frame, from its behavior counts. */
export function logShares(fit: FitNames, frames: readonly StepFrame[]): ShareTable {
  const { states, behaviors } = fit.importNames;
  return table(frames, states.length, behaviors.length, (f, s, b) => value(f, behaviorCountKey(states[s], behaviors[b])), true);
}

/** A simulated run's shares per frame, from the lab's measured behavior distribution. */
export function simShares(fit: FitNames, frames: readonly StepFrame[]): ShareTable {
  const states = fit.spec.states.map((s) => s.name);
  const behaviors = fit.spec.behaviors.map((b) => b.name);
  return table(frames, states.length, behaviors.length, (f, s, b) => value(f, `support/behavior_dist/${states[s]}/${behaviors[b]}`), false);
}
