// One line of a frames file (the `--out` of `npm run import` and `npm run watch`): the step and
// every scalar and series of its frame, flat. The follower's checkpoint is this file: the steps it
// holds are the steps already written.
import type { MetricsFrame } from '../../metrics';

export function frameLine(f: MetricsFrame): string {
  return JSON.stringify({ step: f.step, ...f.scalars, ...f.series });
}

/** The step of a frames-file line; null for a line that is not one (a line cut by a kill, say). */
export function frameLineStep(line: string): number | null {
  try {
    const v: unknown = JSON.parse(line);
    const step = v && typeof v === 'object' ? (v as { step?: unknown }).step : undefined;
    return typeof step === 'number' && Number.isInteger(step) ? step : null;
  } catch {
    return null;
  }
}
