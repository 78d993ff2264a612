/** Metric exports (pure): flat CSV rows and the JSON document. */
import type { Config } from '../../core/config';
import type { TimelineEntry } from '../../core/loop';
import type { MetricsFrame } from '../../core/metrics';
import type { MetricFrame } from '../../core/run/frames';

/** Flat row for CSV: step, version, every scalar and perf metric by its name (src/core/measure/names.ts). */
export function flatFrame(f: MetricsFrame): MetricFrame {
  return { step: f.step, version: f.version, ...f.scalars, ...f.perf };
}

/** The JSON export: config, timeline and frames; a frame's `trace` only when it holds samples. */
export function metricsJson(frames: readonly MetricsFrame[], config: Config, timeline: readonly TimelineEntry[]): string {
  const out = frames.map(({ trace, ...rest }) => (trace?.length ? { ...rest, trace } : rest));
  return JSON.stringify({ config, timeline, frames: out }, null, 1);
}
