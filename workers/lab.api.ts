/**
 * Contract of the lab worker (`lab.worker.ts`): one training run per worker, exposed with comlink.
 * The run's controls are the run session's public methods (src/core/run/session.ts, where each is
 * documented), taken as they are: a control added there is a control of the worker. The UI passes a
 * listener (wrapped in `Comlink.proxy`) that receives coalesced metric frames (≤ ~30 batches/s,
 * never dropped) and status updates. Everything else is structured-clone data.
 */
import type { RunSession } from '../src/core/run/session';
import type { LabInit, LabListener, LabStatus } from '../src/core/run/types';

// The session's own types (src/core/run/types.ts) are the worker's contract too.
export type { BackendPreference, ForkPoint, LabInit, LabListener, LabPhase, LabSnapshot, LabStatus, ResumeFrom } from '../src/core/run/types';

/** The session's controls as the worker answers them: every public method but its init and dispose, each promised. */
export type LabControls = {
  [K in Exclude<keyof RunSession, 'init' | 'dispose'>]: RunSession[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

export type LabControl = keyof LabControls;

export interface LabApi extends LabControls {
  /** Build the engine (WebGPU first, WASM fallback), load or pretrain the base, create the run. */
  init(init: LabInit, listener: LabListener): Promise<LabStatus>;
  dispose(): Promise<void>;
}
