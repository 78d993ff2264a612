/**
 * Where a Fork starts run B (pure; the lab controller does the starting). Mid-run, from run A's
 * current step (A restarts there beside it). Before A's first step, or once A has taken its whole
 * step budget, there is nothing left to continue: B trains A's seed from step 0 instead, so that a
 * lesson's "press Fork, change a setting, press Play" gives run B a whole run at any speed.
 */

/** True when a fork at `step` of a run of `steps` steps starts B from step 0. */
export function forksFromStart(step: number, steps: number): boolean {
  return step === 0 || step >= steps;
}

/** What run B's status says when it starts from step 0 (A at `step`). */
export function forkNote(step: number): string {
  const why = step === 0 ? '' : ' (run A had finished)';
  return `from step 0 with run A's seed${why}: change a setting, then press Play`;
}
