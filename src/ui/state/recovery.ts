/**
 * The page's side of bringing an interrupted run back (src/core/run/recovery.ts plans it): the
 * worker's init for the plan, on WASM after a lost WebGPU device, and the words the status line
 * shows; and how a failed action is reported while a dead worker is replaced.
 */
import { planResume, type Interrupted } from '../../core/run/recovery';
import type { BackendPreference, LabInit } from '../../../workers/lab.api';

export interface RecoveryPlan {
  init: LabInit;
  /** Frames up to this step are kept; later ones are dropped (they are re-run). */
  keepTo: number;
  message: string;
}

type InterruptedInit = Omit<Interrupted, 'fork'> & {
  /** How the run was first started (a fork's init carries its fork point). */
  original: LabInit;
};

function resumeOf(r: InterruptedInit, prefer: BackendPreference): { init: LabInit; keepTo: number; how: string } {
  const { original } = r;
  const plan = planResume({ ...r, ...(original.fork ? { fork: original.fork } : {}) });
  return { init: { ...original, prefer, ...(plan.restartConfig ? { config: plan.restartConfig } : {}), resume: plan.resume }, keepTo: plan.keepTo, how: plan.how };
}

/** A worker that failed (error, no answer) or whose WebGPU device was lost (it resumes on WASM). */
export function recoveryPlan(opts: InterruptedInit & { why: string; deviceLost: boolean; failedAt: number }): RecoveryPlan {
  const { why, deviceLost, failedAt } = opts;
  const what = deviceLost ? `The WebGPU device was lost (${why}) at step ${failedAt}` : `The training worker failed (${why}) at step ${failedAt}`;
  const r = resumeOf(opts, deviceLost ? 'wasm' : opts.original.prefer);
  if (deviceLost) r.init.backendReason = `WebGPU device lost at step ${failedAt} (${why}): WASM`;
  const exact = deviceLost ? ' (WASM rounds differently from WebGPU in the last bits)' : opts.snapshot ? ': it continues exactly as it would have' : '';
  return { ...r, message: `${what}: resumed${deviceLost ? ' on WASM' : ''} ${r.how}${exact}. Press Play to continue.` };
}

/** The lab's run stored in this browser, picked up after a reload. */
export function reloadPlan(opts: InterruptedInit): RecoveryPlan {
  const r = resumeOf(opts, opts.original.prefer);
  const exact = r.init.resume?.snapshot ? ': it continues exactly as it would have' : '';
  return { ...r, message: `Restored the run stored in this browser at step ${opts.step}: resumed ${r.how}${exact}. Press Play to continue, or Start fresh.` };
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
