/**
 * Contract of the experiment worker (`experiment.worker.ts`): a group of experiment cells (one
 * variant's seeds) trained in lockstep, every cell from step 0 (or continued from stored weights).
 * The UI passes a listener (wrapped in `Comlink.proxy`) that receives coalesced frames per cell.
 */
import type { SampleTrace } from '../src/core/metrics';
import type { CellInit, ExperimentListener, GroupStatus } from '../src/core/run/population-types';
import type { BackendPreference } from './lab.api';

// The population session's own types (src/core/run/population-types.ts) are the worker's contract too.
export type { CellFrames, CellInit, CellPhase, CellStatus, ExperimentListener, GroupStatus } from '../src/core/run/population-types';

export interface ExperimentInit {
  cells: CellInit[];
  prefer: BackendPreference;
  baseUrl: string;
  pretrainSteps?: number;
  /** WASM threads at most (the worker's share of the cores); never more than defaultWasmThreads(). */
  numThreads?: number;
}

export interface ExperimentApi {
  init(init: ExperimentInit, listener: ExperimentListener): Promise<GroupStatus>;
  play(): Promise<void>;
  /** Stop at the next round boundary (the round in flight completes and is kept); resolves when idle. */
  pause(): Promise<GroupStatus>;
  /** n lockstep rounds (paused afterwards). */
  step(n: number): Promise<GroupStatus>;
  /** Current trainer weights of a cell and the step they belong to. */
  weights(index: number): Promise<{ step: number; data: Float32Array }>;
  /** The latest step's sample traces of a cell. */
  traces(index: number): Promise<{ step: number; traces: SampleTrace[] }>;
  status(): Promise<GroupStatus>;
  dispose(): Promise<void>;
}
