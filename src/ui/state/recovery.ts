/**
 * How a run comes back after its worker died or its WebGPU device was lost: from the last weights
 * snapshot the page kept (taken every SNAPSHOT_EVERY steps), else from step 0 with the same seed
 * and settings (a deterministic replay). Pure: the plan and the words the status line shows.
 */
import type { BackendPreference, ForkPoint, LabInit } from '../../../workers/lab.api';

/** Steps between weight snapshots kept in the page (a readback of the trainer's weights each). */
export const SNAPSHOT_EVERY = 25;

export interface RecoveryPlan {
  init: LabInit;
  /** Frames up to this step are kept; later ones are dropped (they are re-run). */
  keepTo: number;
  message: string;
}

/**
 * `original`: how the run was first started (a fork's init carries its fork point); `snapshot`: the
 * latest weights kept; `step`: where the run was when it failed; `backend`: force one (a lost GPU
 * device resumes on WASM).
 */
export function recoveryPlan(opts: { original: LabInit; snapshot: ForkPoint | null; step: number; why: string; deviceLost: boolean }): RecoveryPlan {
  const { original, snapshot, step, why, deviceLost } = opts;
  const prefer: BackendPreference = deviceLost ? 'wasm' : original.prefer;
  const what = deviceLost ? `The WebGPU device was lost (${why}) at step ${step}` : `The training worker failed (${why}) at step ${step}`;
  const on = deviceLost ? ' on WASM' : '';
  if (snapshot) {
    const dropped = step > snapshot.step ? `; steps ${snapshot.step + 1}–${step} will be re-run` : '';
    return {
      init: { ...original, prefer, fork: snapshot },
      keepTo: snapshot.step,
      message: `${what}: resumed${on} from the weights saved at step ${snapshot.step}${dropped} (fresh optimizer moments and random streams, so they differ from an uninterrupted run). Press Play to continue.`,
    };
  }
  const from = original.fork ? `its start at step ${original.fork.step}` : 'step 0';
  return {
    init: { ...original, prefer },
    keepTo: original.fork?.step ?? 0,
    message: `${what}: no weights were saved yet, so the run restarted${on} from ${from} with the same seed and settings (a deterministic replay). Press Play to continue.`,
  };
}

/** The error a call to a worker that died rejects with (lab-client.ts); the run's recovery reports it. */
export class WorkerStopped extends Error {
  override name = 'WorkerStopped';
}

/**
 * What the lab says about a failed user action: nothing when the worker died under it, since the
 * run's recovery already says so on the status line and replaces that worker (such a message would
 * otherwise stay after the run has recovered).
 */
export function actionMessage(e: unknown): string {
  if (e instanceof WorkerStopped) return '';
  return e instanceof Error ? e.message : String(e);
}
