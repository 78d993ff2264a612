/** Metric exports (pure): flat CSV rows and the JSON document. */
import type { Config } from '../../core/config';
import type { TimelineEntry } from '../../core/loop';
import type { MetricsFrame } from '../../core/metrics';
import type { MetricFrame } from '../../core/run/frames';

/** Flat row for CSV: step, version, every scalar and perf metric by its name (src/core/measure/names.ts). */
export function flatFrame(f: MetricsFrame): MetricFrame {
  return { step: f.step, version: f.version, ...f.scalars, ...f.perf };
}

/**
 * The JSON export: config, timeline, `start` (step 0: the base before SFT and RL, behavior metrics
 * only — the point the plots draw at step 0; absent for a fork, which starts at its fork step) and
 * the trained steps' frames; a frame's `trace` only when it holds samples.
 */
export function metricsJson(frames: readonly MetricsFrame[], config: Config, timeline: readonly TimelineEntry[], start: MetricsFrame | null = null): string {
  const out = frames.map(({ trace, ...rest }) => (trace?.length ? { ...rest, trace } : rest));
  return JSON.stringify({ config, timeline, ...(start ? { start: { step: 0, scalars: start.scalars } } : {}), frames: out }, null, 1);
}

/** The CSV export's rows: step 0 (the base, when known) first, then one row per trained step. */
export function csvRows(frames: readonly MetricsFrame[], start: MetricsFrame | null = null): MetricFrame[] {
  return [...(start ? [{ step: 0, ...start.scalars }] : []), ...frames.map(flatFrame)];
}
