// What one training step's frame means for the session (session.ts): the frame as streamed (steps
// counted from where the run starts), and whether the run stops after it. A non-finite metric stops
// it for good until a reset (the weights that produced it are not trusted); the presenter's
// checkpoint (setPauseAt) pauses it.
import { nonFinite, type MetricsFrame } from '../metrics';
import { streamed } from './frames';

export interface StepOutcome {
  /** The frame as the listener gets it. */
  shown: MetricsFrame;
  /** Set: the run is stopped for good (until a reset), saying this. */
  poisoned?: string;
  /** Set: the run pauses after this step, saying this. */
  checkpoint?: string;
}

export function stepOutcome(frame: MetricsFrame, origin: number, pauseAt: number | null): StepOutcome {
  const shown = streamed(frame, origin);
  const bad = nonFinite(frame);
  if (bad) return { shown, poisoned: `non-finite metric ${bad} at step ${shown.step}: run stopped. Press Reset (r) to start again (try a lower learning rate)` };
  if (pauseAt !== null && shown.step === pauseAt) return { shown, checkpoint: `checkpoint at step ${shown.step}: predict what happens next, then press play` };
  return { shown };
}
