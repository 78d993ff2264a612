/**
 * Contract of the lab worker (`lab.worker.ts`): one training run per worker, exposed with comlink.
 * The UI passes a listener (wrapped in `Comlink.proxy`) that receives coalesced metric frames
 * (≤ ~30 batches/s, never dropped) and status updates. Everything else is structured-clone data.
 */
import type { Config } from '../src/core/config';
import type { ForkPoint, LabInit, LabListener, LabSnapshot, LabStatus } from '../src/core/run/types';

// The session's own types (src/core/run/types.ts) are the worker's contract too.
export type { BackendPreference, ForkPoint, LabInit, LabListener, LabPhase, LabSnapshot, LabStatus, ResumeFrom } from '../src/core/run/types';

export interface LabApi {
  /** Build the engine (WebGPU first, WASM fallback), load or pretrain the base, create the run. */
  init(init: LabInit, listener: LabListener): Promise<LabStatus>;
  play(): Promise<void>;
  /** Stop at the next step boundary (a step in flight completes and is kept); resolves when idle. */
  pause(): Promise<LabStatus>;
  /** Take n steps (paused afterwards). */
  step(n: number): Promise<LabStatus>;
  /** Restart from the base with `config` (default: the current one, same seed). */
  reset(config?: Config): Promise<LabStatus>;
  /** Restart with another seed. */
  reseed(seed: number): Promise<LabStatus>;
  /** Steps per second while playing; 0 = as fast as possible. */
  setSpeed(stepsPerSecond: number): Promise<void>;
  /** Pause automatically after this step (presenter checkpoint); null = never. */
  setPauseAt(step: number | null): Promise<void>;
  /** Validate and queue a patch for the next step; returns an error message or null. */
  setConfig(patch: Partial<Config>): Promise<string | null>;
  /** The weights to fork a second run from, at the current step. */
  forkPoint(): Promise<ForkPoint>;
  /** The run exactly as it stands (for a resume); rejects where the engine cannot export its state. */
  snapshot(): Promise<LabSnapshot>;
  /**
   * Restart from a fork point so that this run and its fork continue from the same state and differ
   * only by the fork's settings (paired comparison); null: resets start from step 0 again.
   */
  refork(point: ForkPoint | null): Promise<LabStatus>;
  status(): Promise<LabStatus>;
  dispose(): Promise<void>;
}
