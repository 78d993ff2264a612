/**
 * How a failed action is reported while a dead worker is replaced (the plan for bringing the run
 * back is the core's: src/core/run/recovery-plan.ts).
 */
import { errorText } from '../../core/unknown';

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
  return errorText(e);
}
