/**
 * What a population session (population.ts) says: a group of experiment cells (one variant's
 * seeds) trained in lockstep. Plain, structured-clone data (the experiment worker's contract too).
 */
import type { Config } from '../config';
import type { TimelineEntry } from '../loop';
import type { MetricsFrame } from '../metrics';

export interface CellInit {
  /** The experiment's cell index (variant * seeds + seedIndex). */
  index: number;
  config: Config;
  /** Continue from stored weights at `step` (fresh optimizer moments and random streams from there). */
  resume?: { step: number; weights: Float32Array };
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
