// The props every view takes (the views' shared contract with App and the lab worker's frames).
import type { Config, ConfigKey } from '../../core/config';
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import type { LogSource } from './invariants';

export interface ViewProps {
  history: MetricsFrame[];
  latest?: MetricsFrame;
  traces?: SampleTrace[];
  config: Config;
  /** A second run overlaid (dashed). */
  compare?: MetricsFrame[];
  /** Selected state, or 'mean'. */
  state?: string;
  /** Settings hidden in presenter mode: their values must not show (state/presenter.ts). */
  hidden?: readonly ConfigKey[];
  /** An imported log (not a run the lab trains): the views say what it lacks, and show no lab setting as its. */
  log?: LogSource;
}
