/**
 * How an interrupted run comes back — after its worker died, its WebGPU device was lost, or the page
 * was reloaded: from the last snapshot kept (weights, optimizer moments, RNG stream positions,
 * timeline: it then continues exactly as the uninterrupted run), else from its start, replaying its
 * timeline up to the step it had reached (deterministic: the same frames again). One plan for every
 * case, read by the session's init (ResumeFrom) and by the page (what to keep, what to say).
 */
import { errorText } from '../unknown';
import { makeConfig, type Config } from '../config';
import type { TimelineEntry } from '../loop';
import type { MetricsFrame } from '../metrics';
import type { ForkPoint, LabSnapshot, LabStatus, ResumeFrom } from './types';

/** Steps between snapshots kept while playing (a readback of the trainer's state each); also at every stop. */
export const SNAPSHOT_EVERY = 25;

export interface Interrupted {
  /** The fork point the run started from, if it was a fork. */
  fork?: ForkPoint;
  /** The latest snapshot kept (null: none). */
  snapshot: LabSnapshot | null;
  /** The step the run had reached (its frames up to here are known). */
  step: number;
  /** The run's timeline (entry 0: its full config at its start). */
  timeline: TimelineEntry[];
  /** The known frame at `step`: a replay is checked against it. */
  expect?: MetricsFrame;
}

export interface ResumePlan {
  resume: ResumeFrom;
  /** The config to start the run again with (no snapshot, not a fork: its own step-0 config), else null. */
  restartConfig: Config | null;
  /** Frames up to this step are kept; later ones are dropped (they are re-run). */
  keepTo: number;
  /** How it comes back, in words ("from the weights … saved at step 50, then replayed steps 51–61 …"). */
  how: string;
}

/** The latest snapshot at or before `step`, else the run's start; then a silent replay up to `step`. */
export function planResume(r: Interrupted): ResumePlan {
  const { step, timeline } = r;
  const snapshot = r.snapshot && r.snapshot.step <= step ? r.snapshot : null;
  const from = snapshot?.step ?? r.fork?.step ?? 0;
  const replayed = step > from ? `, then replayed steps ${from + 1}–${step} with the same seed and settings` : '';
  const first = timeline[0];
  return {
    resume: { ...(snapshot ? { snapshot } : {}), step, timeline, ...(r.expect ? { expect: r.expect } : {}) },
    // without a snapshot the run starts again from its own step-0 config (later settings come from the timeline)
    restartConfig: !snapshot && first && !r.fork ? makeConfig(first.patch) : null,
    keepTo: step,
    how: snapshot
      ? `from the weights, optimizer state and random streams saved at step ${from}${replayed}`
      : `from ${from ? `its start at step ${from}` : 'step 0'} (no state was saved)${replayed}: a deterministic restart`,
  };
}

/** Whether to keep a new snapshot of a run at `step` whose last kept one is at `kept` (0: none). */
export function snapshotDue(step: number, kept: number, stopped: boolean): boolean {
  return stopped ? step > kept : step - kept >= SNAPSHOT_EVERY;
}

/**
 * Whether a status calls for a snapshot: a run that stopped (pause, Step, done) is kept as it
 * stands, so that a reload resumes right there; one stopped by a non-finite metric is not.
 */
export function snapshotOnStatus(s: Pick<LabStatus, 'phase' | 'needsReset' | 'step'>, kept: number): boolean {
  return ['ready', 'paused', 'done'].includes(s.phase) && !s.needsReset && snapshotDue(s.step, kept, true);
}

/** The snapshot, unless it lies past `keptTo` (the frames were cut back there: it belongs to the run that ended). */
export function snapshotWithin(snapshot: LabSnapshot | null, keptTo: number): LabSnapshot | null {
  return snapshot && snapshot.step > keptTo ? null : snapshot;
}

/**
 * Why a snapshot failed for good — the engine cannot export its state (recovery then replays) —,
 * else '' (a failing worker: the watchdog's business, a later snapshot may work).
 */
export function snapshotRefusal(e: unknown): string {
  const why = errorText(e);
  return /cannot export/.test(why) ? why : '';
}

/** The settings a run has after its timeline (entry 0: its full config at its start). */
export function configAfter(timeline: readonly TimelineEntry[]): Config | null {
  if (!timeline.length) return null;
  return timeline.slice(1).reduce<Config>((c, e) => makeConfig({ ...c, ...e.patch }), makeConfig(timeline[0].patch));
}
