// Template spreading: one behavior comes to answer most samples of several states while the
// information the behavior carries about the state, I(S;B), falls — a template taking over
// states whose token entropy may still look healthy. Each state's "answers most samples" is the
// marker rule's hysteresis (src/core/measure/divergence.ts, thresholdTrack) with the majority
// share as its threshold, so a behavior enters a state only when its share is significantly above
// it over a window of steps and leaves only when significantly below: a one-step blip changes
// nothing. I(S;B) is behaviorInfo's (src/core/measure/behavior-info.ts) over the per-state shares
// `support/behavior_dist/<state>/<behavior>`. Pure; the run alarms (alarms.ts) ring what this finds.
import type { MetricsFrame } from '../../metrics';
import { behaviorInfo } from '../../measure/behavior-info';
import { thresholdTrack } from '../../measure/divergence';

type Scalars = MetricsFrame['scalars'];

export interface SpreadingOptions {
  /** Share of a state's samples that counts as "answers most" (default 0.5). */
  share?: number;
  /** States a behavior must answer most of (default 2). */
  minStates?: number;
  /** I(S;B) over the window must be below this share of its start (mean of the first 3 steps; default 0.9), and below it by more than the estimate's bias. */
  infoFall?: number;
  /** Measurements pooled per test (default 5, as the markers). */
  window?: number;
}

export interface Spreading {
  /** First step of the window in which the behavior came to answer most samples of `states`. */
  step: number;
  behavior: string;
  states: string[];
  /** All states measured. */
  of: number;
  infoStart: number;
  infoNow: number;
}

const DIST = 'support/behavior_dist/';
const BASE = 3;
const mean = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;

/** The behaviors measured in each state (the `invalid` outcome is no template). */
function distKeys(frames: readonly Scalars[]): { states: string[]; behaviors: string[] } {
  const states = new Set<string>();
  const behaviors = new Set<string>();
  for (const s of frames)
    for (const k of Object.keys(s)) {
      if (!k.startsWith(DIST)) continue;
      const rest = k.slice(DIST.length);
      const cut = rest.lastIndexOf('/');
      if (cut <= 0) continue;
      states.add(rest.slice(0, cut));
      if (rest.slice(cut + 1) !== 'invalid') behaviors.add(rest.slice(cut + 1));
    }
  return { states: [...states].sort(), behaviors: [...behaviors].sort() };
}

/** I(S;B) of one frame: each state's shares, the rest of its samples as the last ("invalid") outcome. */
function infoOf(s: Scalars, states: readonly string[], behaviors: readonly string[]): number {
  const rows = states.map((st) => {
    const p = behaviors.map((b) => Math.max(0, s[`${DIST}${st}/${b}`] ?? 0));
    const row = [...p, Math.max(0, 1 - p.reduce((a, x) => a + x, 0))];
    const sum = row.reduce((a, x) => a + x, 0);
    return row.map((x) => x / sum);
  });
  return behaviorInfo(rows, states.map(() => [])).mutualInfo;
}

/** Every onset of template spreading over the frames (in step order), each latched until the behavior answers most of fewer than `minStates` states. */
export function templateSpreading(steps: readonly number[], frames: readonly Scalars[], opts: SpreadingOptions = {}): Spreading[] {
  const share = opts.share ?? 0.5;
  const minStates = opts.minStates ?? 2;
  const fall = opts.infoFall ?? 0.9;
  const window = opts.window ?? 5;
  const { states, behaviors } = distKeys(frames);
  if (states.length < minStates || behaviors.length === 0 || frames.length < BASE) return [];
  const tracks = states.map((st) => {
    const points = frames.map((s, i) => ({
      step: steps[i],
      p: behaviors.map((b) => s[`${DIST}${st}/${b}`] ?? 0),
      se: behaviors.map((b) => s[`support/behavior_dist_se/${st}/${b}`] ?? 0),
    }));
    return thresholdTrack(points, share, { samples: Math.max(1, mean(frames.map((s) => s[`import/state_samples/${st}`] ?? 0))), window });
  });
  const info = frames.map((s) => infoOf(s, states, behaviors));
  const infoStart = mean(info.slice(0, BASE));
  // a fall smaller than the plug-in estimate's bias, (K − 1)(S − 1) / 2n nats for K outcomes, S states
  // and n samples, is noise: with 16 samples a state, I(S;B) wobbles by more than it can fall
  const n = mean(frames.map((s) => states.reduce((a, st) => a + (s[`import/state_samples/${st}`] ?? 0), 0)));
  const bias = n > 0 ? (behaviors.length * (states.length - 1)) / (2 * n) : 0;
  const latched = new Set<string>();
  const out: Spreading[] = [];
  for (let k = 1; k < tracks[0].length; k++) {
    const at = tracks[0][k];
    const infoNow = mean(info.slice(at.index, at.index + window));
    behaviors.forEach((b, j) => {
      const answered = states.filter((_, s) => tracks[s][k].above[j]);
      if (latched.has(b)) {
        if (answered.length < minStates) latched.delete(b);
        return;
      }
      if (answered.length < minStates || !(infoNow < Math.min(fall * infoStart, infoStart - bias))) return;
      latched.add(b);
      out.push({ step: at.step, behavior: b, states: answered, of: states.length, infoStart, infoNow });
    });
  }
  return out;
}

export function describeSpreading(s: Spreading): string {
  return `template spreading: behavior ${s.behavior} answers ${s.states.length} of ${s.of} states (${s.states.join(', ')}); I(S;B) fell from ${s.infoStart.toFixed(2)} to ${s.infoNow.toFixed(2)} nats`;
}
