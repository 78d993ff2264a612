/**
 * What the views read of one lab run (RunMirror) and how its host (run-host.ts) and the host's
 * frame feed (run-feed.ts) hand it to the page's rune state (run.svelte.ts, which holds these
 * fields as they are documented here).
 */
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import type { LabSnapshot, LabStatus } from '../../core/run/types';
import type { TracedStep } from '../gates/traced';

export interface RunMirror {
  status: LabStatus | null;
  /** Pause was pressed and the worker has not reported idle yet: the page shows paused at once. */
  pausing: boolean;
  /** The latest snapshot kept in the page (published for storage). */
  snapshot: LabSnapshot | null;
  /** Recoveries so far (worker failures and device losses). */
  recoveries: number;
  /** The base before SFT and RL as a step-0 frame (behavior metrics only); null for a fork. */
  baseFrame: MetricsFrame | null;
  /** The gate fields of the traced samples of recent steps (the gate editor replays drafts on them). */
  traced: TracedStep[];
  /** The traced samples of the same recent steps (the rollout viewer of the lab's run). */
  tracedSamples: TracedStep<SampleTrace>[];
  /** The latest batch's traces (views pair them with the latest frame). */
  traces: SampleTrace[];
  /** The frames to draw: at most ~MAX_DRAWN spread over the run (history.ts), paced (redraw-pacer.ts). Replaced, never mutated. */
  frames: MetricsFrame[];
  /** Every frame of the current run, in step order (export); republished with `frames`. */
  allFrames: MetricsFrame[];
  /** The run id `frames` belong to (published with them: the status may be a run ahead). */
  framesRun: number;
}

export interface RunView {
  /** Mirror the fields that changed. */
  set(changed: Partial<RunMirror>): void;
  /** A paced redraw's fields: set synchronously, so that the pacer measures what the redraw cost. */
  draw(changed: Pick<RunMirror, 'frames' | 'allFrames' | 'framesRun' | 'traces'>): void;
  /** A plain copy of a value that may hold the page's reactive proxies (only plain data crosses to the worker). */
  plain<T>(value: T): T;
}
