/**
 * The page's plan for bringing an interrupted lab run back (planResume in recovery.ts decides how):
 * the worker's init for it — on WASM after a lost WebGPU device —, which frames stay, and the words
 * the status line shows while and after it happens. Pure: the page's run host (src/ui/state/
 * run-host.ts) only carries it out.
 */
import type { MetricsFrame } from '../metrics';
import { planResume, type Interrupted } from './recovery';
import type { BackendPreference, LabInit, LabSnapshot, LabStatus } from './types';

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

/** What the page knows of a run whose worker failed, as the host holds it. */
export interface FailedRun {
  /** How the run was started (the fork point included). */
  original: LabInit;
  snapshot: LabSnapshot | null;
  /** Every frame the page received, in step order. */
  known: readonly MetricsFrame[];
  /** The last status the worker sent (null: none yet). */
  status: LabStatus | null;
  why: string;
  deviceLost: boolean;
}

/**
 * The plan for a failed worker: the run comes back at its last known frame (else its start), that
 * frame checks the replay, and the status line names the furthest step the run had reached.
 */
export function failurePlan(f: FailedRun): RecoveryPlan {
  const last = f.known[f.known.length - 1];
  const start = f.original.fork?.step ?? 0;
  return recoveryPlan({
    original: f.original, snapshot: f.snapshot, step: last?.step ?? start, timeline: f.status?.timeline ?? [],
    ...(last ? { expect: last } : {}), why: f.why, deviceLost: f.deviceLost, failedAt: Math.max(f.status?.step ?? 0, last?.step ?? 0),
  });
}

/** The status shown while a failed worker is replaced ("The training worker failed (…) at step 12: restarting the worker…"). */
export function restartingStatus(status: LabStatus, plan: RecoveryPlan): LabStatus {
  return { ...status, phase: 'loading', message: `${plan.message.split(':')[0]}: restarting the worker…` };
}

/** Why a worker's status means its run must move to another worker (a lost WebGPU device), else null. */
export function deviceLostWhy(s: LabStatus): string | null {
  return s.fault === 'device-lost' ? s.message.replace(/^WebGPU device lost: /, '') : null;
}
