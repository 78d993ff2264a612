/**
 * Pure helpers that turn metric frames (src/core/metrics.ts MetricsFrame) into what the views draw.
 * No DOM, no Svelte: unit-tested in Node (data.test.ts).
 */
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import type { ScalarName } from '../../core/measure/names';
import { taskOf, type TaskChoice } from '../../core/tasks/registry';
import type { Point } from '../charts/series';
import { DIST, behaviorsOf } from '../../core/measure/state-markers';

/** Points of one scalar metric over steps (frames without a finite value are skipped). */
export function scalarSeries(frames: readonly MetricsFrame[], key: ScalarName): Point[] {
  const out: Point[] = [];
  for (const f of frames) {
    const v = f.scalars[key];
    if (typeof v === 'number' && Number.isFinite(v)) out.push({ step: f.step, value: v });
  }
  return out;
}

/** States seen in `support/behavior_entropy/<state>` metrics, in the order the frame lists them. */
export function statesOf(frames: readonly MetricsFrame[]): string[] {
  const f = frames[frames.length - 1];
  if (!f) return [];
  const p = 'support/behavior_entropy/';
  return Object.keys(f.scalars).filter((k) => k.startsWith(p)).map((k) => k.slice(p.length));
}

/** The task's states by name: what the state pickers offer before the first frame arrives. */
export function taskStates(task: TaskChoice): string[] {
  return taskOf(task).states.map((s) => s.name);
}

/** How many behaviors the task has (the `invalid` outcome not counted): the headline's scales before the first frame. */
export function taskBehaviorCount(task: TaskChoice): number {
  return taskOf(task).behaviors.length;
}

/**
 * How the behavior shares were measured, for a caption: an imported run counts its log's samples
 * (`import/state_samples/<state>` per step: "32 samples per state per step", or a range), a trained
 * run draws `samples` Monte Carlo samples per state at each measurement. `samples` is the text to
 * show for the lab's setting (it may be hidden in presenter mode).
 */
export function behaviorSampling(frames: readonly MetricsFrame[], states: readonly string[], samples: string): string {
  let lo = Infinity;
  let hi = -Infinity;
  for (const f of frames)
    for (const s of states) {
      const n = f.scalars[`import/state_samples/${s}`];
      if (typeof n !== 'number') continue;
      lo = Math.min(lo, n);
      hi = Math.max(hi, n);
    }
  if (lo > hi) return `Monte Carlo, ${samples} samples per state`;
  return `counted from the imported log: ${lo === hi ? lo : `${lo}–${hi}`} samples per state per step`;
}

/** Behavior support of one frame for `state` recomputed at threshold `eps`: #{b valid : π(b|s) > eps}. */
export function supportAt(frame: MetricsFrame, state: string, behaviors: readonly string[], eps: number): number {
  let n = 0;
  for (const b of behaviors) {
    if (b === 'invalid') continue;
    const p = frame.scalars[`${DIST}${state}/${b}`];
    if (typeof p === 'number' && p > eps) n++;
  }
  return n;
}

/** Behavior support over steps at `eps`, for one state or the mean over all states ('mean'). */
export function supportSeries(frames: readonly MetricsFrame[], state: string, eps: number): Point[] {
  const states = state === 'mean' ? statesOf(frames) : [state];
  const beh = new Map(states.map((s) => [s, behaviorsOf(frames, s)]));
  return frames.flatMap((f) => {
    const vals = states.filter((s) => `${DIST}${s}/${beh.get(s)![0]}` in f.scalars).map((s) => supportAt(f, s, beh.get(s)!, eps));
    return vals.length ? [{ step: f.step, value: vals.reduce((a, x) => a + x, 0) / vals.length }] : [];
  });
}

/** Metrics with one scalar per state (`<prefix>/<state>`). */
export type StatePrefix = 'support/behavior_entropy' | 'support/behavior_support';

/** A per-state scalar (`<prefix>/<state>`) over steps, or its mean over states for 'mean'. */
export function stateSeries(frames: readonly MetricsFrame[], prefix: StatePrefix, state: string): Point[] {
  if (state !== 'mean') return scalarSeries(frames, `${prefix}/${state}`);
  const states = statesOf(frames);
  return frames.flatMap((f) => {
    const vals = states.map((s) => f.scalars[`${prefix}/${s}`]).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    return vals.length ? [{ step: f.step, value: vals.reduce((a, x) => a + x, 0) / vals.length }] : [];
  });
}

/** Ratio histogram bins with their [lo, hi) ranges; the open ends get the neighbour bin's width. */
export interface RatioBin {
  lo: number;
  hi: number;
  count: number;
  /** Open-ended bin (below the first edge or above the last). */
  open: boolean;
}

export function ratioBins(counts: readonly number[], edges: readonly number[]): RatioBin[] {
  if (edges.length === 0 || counts.length !== edges.length + 1) return [];
  const first = edges[0];
  const last = edges[edges.length - 1];
  const w0 = edges.length > 1 ? edges[1] - edges[0] : 0.1;
  const w1 = edges.length > 1 ? last - edges[edges.length - 2] : 0.1;
  return counts.map((count, i) => {
    if (i === 0) return { lo: first - w0, hi: first, count, open: true };
    if (i === edges.length) return { lo: last, hi: last + w1, count, open: true };
    return { lo: edges[i - 1], hi: edges[i], count, open: false };
  });
}

/**
 * Share of histogram mass outside the clip band [1 − εlow, 1 + εhigh]. A bin counts as clipped
 * when it lies wholly outside the band; bins that straddle a band edge are reported separately
 * (the histogram cannot split them), so the exact per-token clipfrac stays the trainer's metric.
 */
export function clipShares(bins: readonly RatioBin[], epsLow: number, epsHigh: number): { low: number; high: number; straddle: number; total: number } {
  const a = 1 - epsLow;
  const b = 1 + epsHigh;
  let low = 0;
  let high = 0;
  let straddle = 0;
  let total = 0;
  for (const bin of bins) {
    total += bin.count;
    if (bin.hi <= a + 1e-12) low += bin.count;
    else if (bin.lo >= b - 1e-12) high += bin.count;
    else if (bin.lo < a || bin.hi > b) straddle += bin.count;
  }
  const d = total || 1;
  return { low: low / d, high: high / d, straddle: straddle / d, total };
}

/** A gate rule as the funnel labels it. */
export interface RuleInfo {
  name: string;
  decision: 'drop' | 'mask0' | 'mask1';
}

/** One stage of the sample funnel of a step. */
export interface FunnelStage {
  key: 'served' | 'judged' | 'gated' | 'queued' | 'effective';
  label: string;
  count: number;
  /** Breakdown, e.g. samples per deciding gate rule (with its decision), or masked / overflow. */
  parts: { label: string; count: number; kind?: RuleInfo['decision'] }[];
  /** Scaled up from the traced subset of the step's samples (the loop traces at most 64). */
  estimated: boolean;
}

/**
 * Funnel of one step: served turns → judged (a next state exists) → gated (by deciding rule) →
 * queued (the trained batch) → effective (mask 1 and a non-zero advantage). Served, queued, masked,
 * dropped and overflow come from the frame's scalars, the rule counts from its series; judged and effective from the
 * traces, scaled to the served count when only a subset was traced.
 */
export function funnelStages(frame: MetricsFrame, traces: readonly SampleTrace[] = frame.trace, rules: readonly RuleInfo[] = []): FunnelStage[] {
  const s = frame.scalars;
  const n = (k: ScalarName) => (typeof s[k] === 'number' && Number.isFinite(s[k]) ? s[k] : 0);
  const served = n('esr/served');
  const queued = n('esr/queued');
  const scale = traces.length ? served / traces.length : 0;
  const estimated = traces.length > 0 && traces.length !== served;
  // each sample once, by the gate rule that decided it (exact counts from the frame)
  const seen = new Map(traces.map((t): [number, RuleInfo] => [t.rule, { name: t.ruleName, decision: !t.queued ? 'drop' : t.lossMask ? 'mask1' : 'mask0' }]));
  const counts = frame.series['gate/rule_counts'] ?? [];
  const reasons = new Map<string, { count: number; kind: RuleInfo['decision'] }>();
  counts.forEach((c, i) => {
    const info = rules[i] ?? seen.get(i) ?? { name: `rule ${i + 1}`, decision: 'mask1' };
    if (c > 0) reasons.set(info.name, { count: (reasons.get(info.name)?.count ?? 0) + c, kind: info.decision });
  });
  const judged = traces.filter((t) => t.votes.length > 0).length;
  const effective = traces.filter((t) => t.queued && t.lossMask === 1 && (t.advMin !== 0 || t.advMax !== 0)).length;
  const lost = n('gap/lost_503');
  return [
    { key: 'served', label: 'served', count: served, parts: lost ? [{ label: 'sessions lost to 503', count: lost }] : [], estimated: false },
    { key: 'judged', label: 'judged', count: traces.length ? Math.round(judged * scale) : NaN, parts: [], estimated },
    {
      key: 'gated',
      label: 'gated',
      count: served,
      parts: [...reasons.entries()].map(([label, r]) => ({ label, count: r.count, kind: r.kind })),
      estimated: false,
    },
    {
      key: 'queued',
      label: 'queued (trained)',
      count: queued,
      parts: [
        { label: 'masked (no signal)', count: n('esr/masked') },
        { label: 'over the batch', count: n('esr/overflow') },
      ].filter((p) => p.count > 0),
      estimated: false,
    },
    { key: 'effective', label: 'effective', count: traces.length ? Math.min(queued, Math.round(effective * scale)) : Math.round(n('esr/effective_rate') * queued), parts: [], estimated: estimated || !traces.length },
  ];
}
