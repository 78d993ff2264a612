/**
 * Contract of the experiment worker (`experiment.worker.ts`): a group of experiment cells (one
 * variant's seeds) trained in lockstep, every cell from step 0 (or continued from stored weights).
 * The UI passes a listener (wrapped in `Comlink.proxy`) that receives coalesced frames per cell.
 */
import type { Config } from '../src/core/config';
import type { TimelineEntry } from '../src/core/loop';
import type { MetricsFrame, SampleTrace } from '../src/core/metrics';
import type { BackendPreference } from './lab.api';

export interface CellInit {
  /** The experiment's cell index (variant * seeds + seedIndex). */
  index: number;
  config: Config;
  /** Continue from stored weights at `step` (fresh optimizer moments and random streams from there). */
  resume?: { step: number; weights: Float32Array };
}

export interface ExperimentInit {
  cells: CellInit[];
  prefer: BackendPreference;
  baseUrl: string;
  pretrainSteps?: number;
  numThreads?: number;
}

export type CellPhase = 'loading' | 'ready' | 'running' | 'paused' | 'done' | 'stopped' | 'error';

export interface CellStatus {
  index: number;
  phase: CellPhase;
  step: number;
  /** Why a cell stopped early (non-finite metric, error), or how it started (resumed at step t). */
  message: string;
}

export interface GroupStatus {
  phase: CellPhase;
  message: string;
  backend: string;
  backendNote: string;
  baseSource: string;
  /** Lockstep rounds per second (each round steps every live cell once). */
  roundsPerSecond: number;
  cells: CellStatus[];
}

export interface CellFrames {
  index: number;
  frames: MetricsFrame[];
  timeline: TimelineEntry[];
}

export interface ExperimentListener {
  frames(batch: CellFrames[]): void;
  status(status: GroupStatus): void;
}

export interface ExperimentApi {
  init(init: ExperimentInit, listener: ExperimentListener): Promise<GroupStatus>;
  play(): Promise<void>;
  pause(): Promise<void>;
  /** n lockstep rounds (paused afterwards). */
  step(n: number): Promise<GroupStatus>;
  /** Current trainer weights of a cell and the step they belong to. */
  weights(index: number): Promise<{ step: number; data: Float32Array }>;
  /** The latest step's sample traces of a cell. */
  traces(index: number): Promise<{ step: number; traces: SampleTrace[] }>;
  status(): Promise<GroupStatus>;
  dispose(): Promise<void>;
}
