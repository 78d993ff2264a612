// The samples a run has traced so far (their gate fields, per step) and the counterfactual replay
// on them: the core's funnelOf for the gate in use and for a draft, on the same records. The worker
// sends every step's traces (up to 64 samples per step); the page keeps those of recent steps, so
// the replay says over which steps it was computed. Pure (no DOM, no runes).
import { funnelOf, replayCaveats, type FieldRecord, type Gate, type GateFunnel } from '../../core/gates/index';

export interface TracedStep<R = FieldRecord> {
  step: number;
  records: readonly R[];
}

/** Steps whose samples are kept for replay (≤ 64 records each). */
export const TRACED_STEPS_MAX = 50;

/** Steps whose traced samples the page keeps for the export and the rollout viewer (the latest ones: a long run's memory stays bounded). */
export const TRACED_SAMPLES_MAX = 500;

/** The buffer with one more step's records (a repeated step replaces its entry); oldest dropped beyond `max`. */
export function keepTraced<R = FieldRecord>(buf: readonly TracedStep<R>[], step: number, records: readonly R[], max = TRACED_STEPS_MAX): TracedStep<R>[] {
  if (!records.length) return buf.slice();
  const out = buf.filter((t) => t.step < step);
  out.push({ step, records });
  return out.slice(Math.max(0, out.length - max));
}

export interface Replay {
  /** Steps whose samples were replayed, in order. */
  steps: number[];
  samples: number;
  inUse: GateFunnel;
  /** null while the draft does not parse. */
  draft: GateFunnel | null;
  /** What the replay cannot know about the draft (fields that depended on the gate in use). */
  caveats: string[];
}

export function replayOn(buf: readonly TracedStep[], inUse: Gate, draft: Gate | null): Replay {
  const records = buf.flatMap((t) => t.records);
  return {
    steps: buf.map((t) => t.step),
    samples: records.length,
    inUse: funnelOf(inUse, records),
    draft: draft ? funnelOf(draft, records) : null,
    caveats: draft ? replayCaveats(draft, inUse) : [],
  };
}

/** "step 7", "steps 3–41 (12 of them)", "steps 3, 5 and 9". */
export function stepsText(steps: readonly number[]): string {
  if (!steps.length) return 'no step yet';
  if (steps.length === 1) return `step ${steps[0]}`;
  const first = steps[0];
  const last = steps[steps.length - 1];
  if (last - first + 1 === steps.length) return `steps ${first}–${last}`;
  if (steps.length <= 4) return `steps ${steps.slice(0, -1).join(', ')} and ${last}`;
  return `${steps.length} steps between ${first} and ${last}`;
}
