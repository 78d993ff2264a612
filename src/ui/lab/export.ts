/** Flat rows for CSV export: step, version, every scalar and perf metric by its DESIGN.md name. */
import type { MetricsFrame } from '../../core/metrics';
import type { MetricFrame } from '../../../workers/frames';

export function flatFrame(f: MetricsFrame): MetricFrame {
  return { step: f.step, version: f.version, ...f.scalars, ...f.perf };
}
