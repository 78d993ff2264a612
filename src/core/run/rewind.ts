/**
 * Step back: the run exactly as it stood before its last step — continued from the latest snapshot
 * the session kept at or before that step (else from the run's start), its timeline replayed up to
 * it (replay.ts, deterministic: the same frames again), and the setting changes given before the
 * last step pending again. The session (session.ts) carries it out.
 */
import type { Config } from '../config';
import type { TimelineEntry } from '../loop';
import type { LabSnapshot, ResumeFrom } from './types';

/** Snapshots a session keeps for stepping back (the page asks for one every SNAPSHOT_EVERY steps and at every stop). */
export const KEPT_SNAPSHOTS = 3;

/** `kept` with `snap` added (in step order, at most KEPT_SNAPSHOTS, none of a later step than `snap`'s). */
export function keepSnapshot(kept: readonly LabSnapshot[], snap: LabSnapshot): LabSnapshot[] {
  return [...kept.filter((s) => s.step < snap.step), snap].slice(-KEPT_SNAPSHOTS);
}

export interface Rewind {
  /** The snapshot to continue (null: the run starts again from its step-0 config). */
  snapshot: LabSnapshot | null;
  /** The replay up to the target step (absolute steps, as the session's status gives them). */
  resume: ResumeFrom;
  /** The changes given after the target step and before the next one, pending again (null: none). */
  pending: Partial<Config> | null;
}

/**
 * How to take a run back to absolute step `target`: `timeline` as the session's status gives it
 * (entry 0: the run's config at its start; an entry at step t took effect at step t + 1).
 */
export function rewindTo(kept: readonly LabSnapshot[], timeline: readonly TimelineEntry[], target: number): Rewind {
  const snapshot = kept.filter((s) => s.step <= target).at(-1) ?? null;
  const later = timeline.slice(1);
  const given = later.filter((e) => e.step === target).map((e) => e.patch);
  return {
    snapshot,
    resume: { ...(snapshot ? { snapshot } : {}), step: target, timeline: [...timeline.slice(0, 1), ...later.filter((e) => e.step < target)] },
    pending: given.length ? Object.assign({}, ...given) as Partial<Config> : null,
  };
}
