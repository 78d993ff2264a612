/**
 * How an interrupted run comes back — after its worker died, its WebGPU device was lost, or the page
 * was reloaded: from the last snapshot kept (weights, optimizer moments, RNG stream positions,
 * timeline: it then continues exactly as the uninterrupted run), else from its start, replaying its
 * timeline up to the step it had reached (deterministic: the same frames again). One plan for every
 * case; pure: the worker's init and the words the status line shows.
 */
import { makeConfig } from '../../core/config';
import type { TimelineEntry } from '../../core/loop';
import type { MetricsFrame } from '../../core/metrics';
import type { BackendPreference, LabInit, LabSnapshot } from '../../../workers/lab.api';

/** Steps between snapshots kept while playing (a readback of the trainer's state each); also at every pause. */
export const SNAPSHOT_EVERY = 25;

export interface RecoveryPlan {
  init: LabInit;
  /** Frames up to this step are kept; later ones are dropped (they are re-run). */
  keepTo: number;
  message: string;
}

interface Interrupted {
  /** How the run was first started (a fork's init carries its fork point). */
  original: LabInit;
  /** The latest snapshot kept (null: none). */
  snapshot: LabSnapshot | null;
  /** The step the run had reached (its frames up to here are known). */
  step: number;
  /** The run's timeline (entry 0: its full config at its start). */
  timeline: TimelineEntry[];
  /** The known frame at `step`: a replay is checked against it. */
  expect?: MetricsFrame;
}

/** The resume part of a plan: the latest snapshot at or before `step`, else the run's start; then a silent replay up to `step`. */
function resumeOf(r: Interrupted, prefer: BackendPreference): { init: LabInit; keepTo: number; how: string } {
  const { original, step, timeline } = r;
  const snapshot = r.snapshot && r.snapshot.step <= step ? r.snapshot : null;
  const from = snapshot?.step ?? original.fork?.step ?? 0;
  const replayed = step > from ? `, then replayed steps ${from + 1}–${step} with the same seed and settings` : '';
  const first = timeline[0];
  const resume = { ...(snapshot ? { snapshot } : {}), step, timeline, ...(r.expect ? { expect: r.expect } : {}) };
  return {
    // without a snapshot the run starts again from its own step-0 config (later settings come from the timeline)
    init: { ...original, prefer, ...(!snapshot && first && !original.fork ? { config: makeConfig(first.patch) } : {}), resume },
    keepTo: step,
    how: snapshot
      ? `from the weights, optimizer state and random streams saved at step ${from}${replayed}`
      : `from ${from ? `its start at step ${from}` : 'step 0'} (no state was saved)${replayed}: a deterministic restart`,
  };
}

/** A worker that failed (error, no answer) or whose WebGPU device was lost (it resumes on WASM). */
export function recoveryPlan(opts: Interrupted & { why: string; deviceLost: boolean; failedAt: number }): RecoveryPlan {
  const { why, deviceLost, failedAt } = opts;
  const what = deviceLost ? `The WebGPU device was lost (${why}) at step ${failedAt}` : `The training worker failed (${why}) at step ${failedAt}`;
  const r = resumeOf(opts, deviceLost ? 'wasm' : opts.original.prefer);
  if (deviceLost) r.init.backendReason = `WebGPU device lost at step ${failedAt} (${why}): WASM`;
  const exact = deviceLost ? ' (WASM rounds differently from WebGPU in the last bits)' : opts.snapshot ? ': it continues exactly as it would have' : '';
  return { ...r, message: `${what}: resumed${deviceLost ? ' on WASM' : ''} ${r.how}${exact}. Press Play to continue.` };
}

/** The lab's run stored in this browser, picked up after a reload. */
export function reloadPlan(opts: Interrupted): RecoveryPlan {
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
