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

/**
 * A frames-file line back as the import's frame (frameLine's inverse for the frames the import
 * writes: numbers are scalars, arrays of numbers are series, the version is the step); null for a
 * line that is not one. A resumed `npm run watch --port` serves the steps already written from it.
 */
export function frameOfLine(line: string): MetricsFrame | null {
  const step = frameLineStep(line);
  if (step === null) return null;
  const scalars: Record<string, number> = {};
  const series: Record<string, number[]> = {};
  for (const [k, v] of Object.entries(JSON.parse(line) as Record<string, unknown>)) {
    if (k === 'step') continue;
    if (typeof v === 'number') scalars[k] = v;
    else if (Array.isArray(v) && v.every((x) => typeof x === 'number')) series[k] = v;
    else return null;
  }
  return { step, version: step, scalars, series, ratioEdges: [], perf: {}, changes: {}, trace: [] };
}
