/**
 * What a run session says and keeps (src/core/run/session.ts): its status, the weights handed to a
 * fork, a snapshot exactly between two steps, and how an interrupted run is picked up. Plain,
 * structured-clone data: the lab worker passes it to the page as it is (workers/lab.api.ts).
 */
import type { Config } from '../config';
import type { Resume } from '../experiment/bundle';
import type { RunSnapshot, TimelineEntry } from '../loop';
import type { MetricsFrame, SampleTrace } from '../metrics';
import type { ScalarsWith } from '../measure/names';

/** Weights handed from one run to a fork (Compare): the frozen base and the trainer at `step`. */
export interface ForkPoint {
  step: number;
  base: Float32Array;
  weights: Float32Array;
  config: Config;
}

/**
 * A lab run exactly between two steps (core RunSnapshot) with the lab's step offset (a fork counts
 * from its parent's step): resuming it continues the run as if it had never stopped.
 */
export interface LabSnapshot {
  /** Absolute step (origin + the run's steps). */
  step: number;
  /** Step the run started from (a fork's fork point, else 0). */
  origin: number;
  /** Where the run's frozen base came from (shown again after the resume). */
  baseSource: string;
  /** The frozen base as flat weights (a fork of the resumed run starts from it). */
  base: Float32Array;
  run: RunSnapshot;
}

/**
 * How a session picks up a run that was interrupted (a reload, a failed worker): continue a kept
 * snapshot exactly (none: start the run from its beginning), then take the steps up to `step` again
 * without streaming them, the timeline's setting changes at their steps (deterministic: the same
 * frames again). `expect`: the known frame at `step`, checked against the replayed one.
 */
export interface ResumeFrom {
  snapshot?: LabSnapshot;
  step: number;
  timeline: TimelineEntry[];
  expect?: MetricsFrame;
}

export type LabPhase = 'loading' | 'pretraining' | 'ready' | 'running' | 'paused' | 'done' | 'error';

export interface LabStatus {
  /** Increments on every reset/reseed: frames of an older run carry an older id. */
  runId: number;
  phase: LabPhase;
  /** Human-readable state: warm-up progress, checkpoint pause, non-finite metric, error. */
  message: string;
  /** Steps taken (a fork counts from its parent's fork step). */
  step: number;
  backend: string;
  backendNote: string;
  /** Where the base weights came from (shipped checkpoint, in-worker pretraining, fork). */
  baseSource: string;
  /** Measured while playing (wall clock, including the worker's overhead). */
  stepsPerSecond: number;
  /** Config changes with the step after which they took effect (step 0: the initial config). */
  timeline: TimelineEntry[];
  /** The config the next step runs with (pending patches included). */
  config: Config;
  /**
   * The earlier frames this run continues: those up to this step (a reset: the run's start; a
   * refork: the fork point; a step back: the step it went back to; a resume: the step it came back
   * at); later ones belong to the run before it. null: no run yet.
   */
  continues: number | null;
  /** A non-finite metric stopped the run: play and step refuse until a reset. */
  needsReset: boolean;
  /** Behavior metrics of the base before SFT and RL (step 0 of the plots); null for a fork. */
  baseScalars: ScalarsWith | null;
  /** Set when the run cannot go on in this worker: its WebGPU device was lost (the page resumes it on WASM). */
  fault?: 'device-lost';
  /** How this run came back after an interruption (a reload, a failed worker, a lost device); absent: it did not. */
  resumed?: Resume;
}

export interface LabListener {
  /**
   * A batch of frames in step order; `traces[i]` = frames[i]'s sample traces (every step's, also when
   * several steps come in one batch: an export or a sample viewer misses none).
   */
  frames(runId: number, frames: MetricsFrame[], traces: SampleTrace[][]): void;
  status(status: LabStatus): void;
}

/** Which engine the lab worker tries first (src/engine/browser.ts). */
export type BackendPreference = 'auto' | 'webgpu' | 'wasm';

/** How the page starts a run in a lab worker (workers/lab.api.ts init). */
export interface LabInit {
  config: Config;
  prefer: BackendPreference;
  /** The page's base URL; shipped checkpoints are fetched from `<baseUrl>checkpoints/<task>.bin`. */
  baseUrl: string;
  /** SFT steps to pretrain the base in the worker when no checkpoint fits (default 400). */
  pretrainSteps?: number;
  /** WASM threads (default: ORT's choice). */
  numThreads?: number;
  /** Why `prefer` is what it is when the lab forced it (a WebGPU device loss): the badge says so. */
  backendReason?: string;
  /** Start from another run's weights at a step (Compare, or a recovery) instead of the task's base. */
  fork?: ForkPoint;
  /** Status message once ready (e.g. why this worker replaced one that failed). */
  note?: string;
  /** Pick up an interrupted run instead of starting at its beginning (recovery-plan.ts plans it). */
  resume?: ResumeFrom;
}
