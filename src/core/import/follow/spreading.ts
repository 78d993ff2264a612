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
  /** The states measured at its step (a phrasing joined to its kind's state earlier is not one). */
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

/** Whether a frame measured the state: it had samples of it (frames without counts: it has shares for it). */
function measured(s: Scalars, st: string, behaviors: readonly string[]): boolean {
  const n = s[`import/state_samples/${st}`];
  return n !== undefined ? n > 0 : behaviors.some((b) => s[`${DIST}${st}/${b}`] !== undefined);
}

/** I(S;B) of one frame over the states measured in it: each state's shares, the rest of its samples as the last ("invalid") outcome. */
function infoOf(s: Scalars, states: readonly string[], behaviors: readonly string[]): number {
  const rows = states
    .filter((st) => measured(s, st, behaviors))
    .map((st) => {
      const p = behaviors.map((b) => Math.max(0, s[`${DIST}${st}/${b}`] ?? 0));
      const row = [...p, Math.max(0, 1 - p.reduce((a, x) => a + x, 0))];
      const sum = row.reduce((a, x) => a + x, 0);
      return row.map((x) => x / sum);
    });
  return rows.length ? behaviorInfo(rows, rows.map(() => [])).mutualInfo : 0;
}

/** Windows of frames without a measurement after which a state's track no longer stands (a state merged into another, or joined to its kind, is measured no more). */
const STALE = 2;

/**
 * One state's "answers most" track, measured only at the steps that had its samples (a step
 * without them is no measurement, not a share of 0: a state seen every other step is not left
 * every other step), then read at every frame as the last track point at or before it, while the
 * state was measured within the last STALE windows of frames.
 */
function stateTrack(steps: readonly number[], frames: readonly Scalars[], st: string, behaviors: readonly string[], share: number, window: number): boolean[][] {
  const seen = frames.flatMap((s, i) => (measured(s, st, behaviors) ? [i] : []));
  const points = seen.map((i) => ({
    step: steps[i],
    p: behaviors.map((b) => frames[i][`${DIST}${st}/${b}`] ?? 0),
    se: behaviors.map((b) => frames[i][`support/behavior_dist_se/${st}/${b}`] ?? 0),
  }));
  const track = thresholdTrack(points, share, { samples: Math.max(1, mean(seen.map((i) => frames[i][`import/state_samples/${st}`] ?? 0))), window });
  const out: boolean[][] = [];
  let [j, last] = [-1, -1];
  for (let k = 0; k < frames.length; k++) {
    while (j + 1 < track.length && track[j + 1].step <= steps[k]) j++;
    while (last + 1 < seen.length && seen[last + 1] <= k) last++;
    out.push(j < 0 || k - seen[last] > STALE * window ? behaviors.map(() => false) : track[j].above);
  }
  return out;
}

/** A state the behavior answered less than this share of at its start, that it now answers most of, is one it entered. */
const ENTERED_FROM = 0.35;

/**
 * Each state's share of each behavior over its first BASE measurements from the step the behavior
 * first appears in the run on (a discovered behavior is named some steps in: its share before is no
 * measurement of it; a template spreads from a few samples, a default behavior answers many from its first step).
 */
function startShares(frames: readonly Scalars[], states: readonly string[], behaviors: readonly string[]): number[][] {
  const born = behaviors.map((b) => Math.max(0, frames.findIndex((s) => states.some((st) => (s[`${DIST}${st}/${b}`] ?? 0) > 0))));
  return states.map((st) =>
    behaviors.map((b, j) => {
      const seen = frames.slice(born[j]).filter((s) => measured(s, st, behaviors)).slice(0, BASE);
      return seen.length ? mean(seen.map((s) => s[`${DIST}${st}/${b}`] ?? 0)) : 0;
    }),
  );
}

/** Total-variation distance under which two states' first measured shares say they are one kind written two ways. */
const SAME_KIND = 0.2;

/**
 * Which states are one kind of request written two ways (a discovered state per phrasing): those
 * whose behavior shares over their first measurements are all within SAME_KIND of each other
 * (complete linkage: a chain of near neighbours is no kind — with single linkage, states a step apart
 * each chained every kind of an agent run into one, and a template over all of them never rang).
 * A behavior entering two phrasings of one kind has not spread over two kinds.
 */
function kindsOf(frames: readonly Scalars[], states: readonly string[], behaviors: readonly string[]): number[] {
  const start = states.map((st) => {
    const seen = frames.filter((s) => measured(s, st, behaviors)).slice(0, BASE);
    return behaviors.map((b) => (seen.length ? mean(seen.map((s) => s[`${DIST}${st}/${b}`] ?? 0)) : 0));
  });
  const tv = (a: number, b: number) => start[a].reduce((acc, x, k) => acc + Math.abs(x - start[b][k]), 0) / 2;
  const groups: number[][] = [];
  const kind = states.map((_, i) => {
    const g = groups.find((m) => m.every((j) => tv(i, j) < SAME_KIND));
    if (g) return g.push(i), g[0];
    groups.push([i]);
    return i;
  });
  return kind;
}

/** Every onset of template spreading over the frames (in step order), each latched until the behavior answers most of fewer than `minStates` states. */
export function templateSpreading(steps: readonly number[], frames: readonly Scalars[], opts: SpreadingOptions = {}): Spreading[] {
  const share = opts.share ?? 0.5;
  const minStates = opts.minStates ?? 2;
  const fall = opts.infoFall ?? 0.9;
  const window = opts.window ?? 5;
  const { states, behaviors } = distKeys(frames);
  if (states.length < minStates || behaviors.length === 0 || frames.length < BASE) return [];
  const tracks = states.map((st) => stateTrack(steps, frames, st, behaviors, share, window));
  const info = frames.map((s) => infoOf(s, states, behaviors));
  const infoStart = mean(info.slice(0, BASE));
  // a fall smaller than the plug-in estimate's bias, (K − 1)(S − 1) / 2n nats for K outcomes, S states
  // and n samples, is noise: with 16 samples a state, I(S;B) wobbles by more than it can fall
  const n = mean(frames.map((s) => states.reduce((a, st) => a + (s[`import/state_samples/${st}`] ?? 0), 0)));
  const bias = n > 0 ? (behaviors.length * (states.length - 1)) / (2 * n) : 0;
  const kindOf = kindsOf(frames, states, behaviors);
  const startShare = startShares(frames, states, behaviors);
  const latched = new Set<string>();
  const out: Spreading[] = [];
  for (let k = 1; k < frames.length; k++) {
    const infoNow = mean(info.slice(k, k + window));
    behaviors.forEach((b, j) => {
      const answered = states.filter((_, s) => tracks[s][k][j]);
      if (latched.has(b)) {
        if (answered.length < minStates) latched.delete(b);
        return;
      }
      // it spread: it came to answer most of states where it answered few at its start, of two kinds or more
      const entered = states.flatMap((_, s) => (tracks[s][k][j] && startShare[s][j] < ENTERED_FROM ? [s] : []));
      const kinds = new Set(entered.map((s) => kindOf[s])).size;
      const spread = kinds >= minStates || (answered.length >= minStates && infoNow < Math.min(fall * infoStart, infoStart - bias));
      if (answered.length < minStates || !spread) return;
      latched.add(b);
      out.push({ step: steps[k], behavior: b, states: answered, of: states.filter((st) => measured(frames[k], st, behaviors)).length, infoStart, infoNow });
    });
  }
  return out;
}

export function describeSpreading(s: Spreading): string {
  const [from, to] = [s.infoStart.toFixed(2), s.infoNow.toFixed(2)];
  // the alarm rings on the kinds a behavior answers; I(S;B) may not have moved yet (then it is said as it is)
  const info = from === to ? `I(S;B) still ${to} nats` : `I(S;B) ${s.infoNow < s.infoStart ? 'fell' : 'rose'} from ${from} to ${to} nats`;
  return `template spreading: behavior ${s.behavior} answers ${s.states.length} of ${s.of} states (${s.states.join(', ')}); ${info}`;
}
