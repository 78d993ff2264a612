// The rules of a live run's frames, kept out of the rune class (live-run.svelte.ts) so they can be
// tested in Node: frames held in step order with a rewritten step replacing its frame, and the
// steps so far as the import result the import view's run views, gate replay and task fit read.
import { NO_TITLES, type FormatId, type MeasureResult } from '../../core/import/index';
import type { MetricsFrame } from '../../core/metrics';

/** The frames with `f` in its place: a new step inserted in step order, a step already held replaced. */
export function placeFrame(frames: readonly MetricsFrame[], f: MetricsFrame): MetricsFrame[] {
  let i = frames.length;
  while (i > 0 && frames[i - 1].step > f.step) i--;
  const out = frames.slice();
  if (i > 0 && frames[i - 1].step === f.step) out[i - 1] = f;
  else out.splice(i, 0, f);
  return out;
}

const BEHAVIOR_DIST = 'support/behavior_dist/';

/** What a live run is, besides its frames: where it comes from and what it was measured with. */
export interface LiveRunInfo {
  /** The run's source in words, e.g. "folder rollouts (followed in this browser)". */
  source: string;
  format: FormatId;
  /** Feasibility threshold ε the frames were measured with (the alarms' and the plots'). */
  eps: number;
  /** The reward that was read, in words (describeReward of the follow's spec). */
  reward: string;
}

/**
 * The steps so far as an import result (what ImportedRun, GateReplay and FitPanel take). States and
 * behaviors are read off the frames (a behavior in the order the latest frame lists it, then any
 * seen only earlier; states in the order the frames first name them); token entropy is "logprob" when every frame has the log-prob entropy,
 * "empirical" when none has, else "mixed". Notices count as the result's issues.
 */
export function liveResult(info: LiveRunInfo, frames: readonly MetricsFrame[], notices: readonly string[], noticesTotal = notices.length): MeasureResult {
  const states = new Set<string>();
  const behaviors = new Set<string>();
  let samples = 0;
  let unclassified = 0;
  let withLogprob = 0;
  for (const f of frames) {
    for (const k of Object.keys(f.scalars)) if (k.startsWith('support/behavior_entropy/')) states.add(k.slice(25));
    samples += f.scalars['import/samples'] ?? 0;
    unclassified += f.scalars['import/unclassified'] ?? 0;
    if (f.scalars['support/token_entropy'] !== undefined) withLogprob++;
  }
  for (const f of [...frames].reverse())
    for (const k of Object.keys(f.scalars)) {
      const state = k.startsWith(BEHAVIOR_DIST) ? [...states].find((s) => k.startsWith(`${BEHAVIOR_DIST}${s}/`)) : undefined;
      const b = state === undefined ? 'invalid' : k.slice(BEHAVIOR_DIST.length + state.length + 1);
      if (b !== 'invalid') behaviors.add(b);
    }
  return {
    format: info.format,
    files: [],
    samples,
    issues: notices.map((message) => ({ file: '', line: 0, message })),
    issuesTotal: noticesTotal,
    frames: frames.slice(),
    states: [...states],
    behaviors: [...behaviors],
    unclassified,
    tokenEntropy: withLogprob === 0 ? 'empirical' : withLogprob === frames.length ? 'logprob' : 'mixed',
    stepOrder: 'ordered',
    reward: info.reward,
    // the live run's titles come with its samples' facets (the rollout viewer), not with its frames
    titles: NO_TITLES,
  };
}
