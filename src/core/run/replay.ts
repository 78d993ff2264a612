/**
 * Replay: take a run's steps again up to a step, its timeline's setting changes at their steps,
 * without streaming them (the page shows the stored frames), and check the last one against the
 * stored frame. Deterministic from the seed, so a run without a snapshot comes back exactly too.
 */
import { applyPatch } from '../config';
import type { Resume } from '../experiment/bundle';
import { firstFrameDifference } from '../experiment/frame-difference';
import type { Run } from '../loop';
import { nonFinite, type MetricsFrame } from '../metrics';
import type { ResumeFrom } from './types';

export interface Replayed {
  /** The last replayed frame (absolute step); null when nothing was replayed. */
  last: MetricsFrame | null;
  /** Why the replay stopped early (a non-finite metric), else ''. */
  poisoned: string;
  /** What the check of the last frame against `r.expect` said, else ''. */
  check: string;
  /** The last replayed frame equals `r.expect` bit for bit (false: it differs, or there was nothing to check). */
  same: boolean;
}

/** `run` started at absolute step `origin`; `progress` is called with the absolute step reached. */
export async function replayTo(run: Run, origin: number, r: ResumeFrom, progress: (step: number) => void): Promise<Replayed> {
  const target = r.step - origin;
  if (run.stepCount > target) throw new Error(`cannot replay to step ${r.step}: the run is at step ${origin + run.stepCount}`);
  const patches = r.timeline.slice(1).filter((e) => e.step >= origin);
  let last: MetricsFrame | null = null;
  let poisoned = '';
  while (run.stepCount < target) {
    for (const e of patches) {
      if (e.step - origin !== run.stepCount) continue;
      applyPatch(run.config, e.patch); // the timeline came with the init message: each patch is checked here, once
      run.setConfig(e.patch);
    }
    last = await run.step();
    const bad = nonFinite(last);
    if (bad) {
      poisoned = `non-finite metric ${bad} at step ${origin + last.step} while replaying: run stopped. Press Reset (r) to start again`;
      break;
    }
    progress(origin + run.stepCount);
  }
  if (!last) return { last, poisoned, check: '', same: false };
  const shown: MetricsFrame = { ...last, step: origin + last.step };
  if (!r.expect) return { last: shown, poisoned, check: '', same: false };
  const d = firstFrameDifference([r.expect], [{ ...shown, trace: [] }]);
  const check = d
    ? `The replayed step ${d.step} differs from the stored one in ${d.key} (stored ${String(d.expected)}, now ${String(d.got)}): another engine or backend than the one that trained it?`
    : `The replayed step ${shown.step} equals the stored one bit for bit.`;
  return { last: shown, poisoned, check, same: !d && !poisoned };
}

/**
 * A resume as bundles record it: the step it continued at, from what, and whether exactly (a
 * snapshot with nothing replayed, or a replay whose last step equals the stored one bit for bit).
 */
export function resumeOf(r: ResumeFrom, origin: number, replayedSame: boolean | null): Resume {
  const snap = r.snapshot;
  const from = snap ? `a snapshot at step ${snap.step}${r.step > snap.step ? `, replayed to step ${r.step}` : ''}` : `a replay from step ${origin}`;
  return { step: r.step, exact: replayedSame === null ? !!snap : replayedSame, from };
}
