/**
 * The divergence plot's marker rule (pure): where does behavior support drop while token entropy
 * stays high? Unit-tested in divergence.test.ts. Shared by the divergence plot (src/ui/views/DivergencePlot.svelte)
 * and the run follower's alarms (src/core/import/follow/alarms.ts): one rule.
 *
 * Rule. Support is measured by Monte Carlo (n samples per state), so a behavior near ε flickers in
 * and out of the count from step to step; counting those flickers as drops put 17 markers on a run
 * whose support only wobbled between 3 and 5. Instead each behavior is tested against ε with the
 * standard error the loop records (`support/behavior_dist_se/...`), pooled over a window of
 * `window` consecutive measurements: it leaves the supported set only when its mean probability is
 * significantly below ε (p̄ + z·SE < ε) and comes back only when significantly above (p̄ − z·SE > ε):
 * hysteresis, so a behavior sitting at ε changes nothing. The recorded SE √(p(1 − p)/n) is 0 at
 * p = 0 (no sample ⇒ no spread), so each point's SE is at least the SE at the threshold, √(ε(1 − ε)/n).
 * A marker sits at the first step of a window in which the supported set shrank. Each marker
 * records token entropy at that step as a share of its starting value — at step 0 (the base, where
 * the plot starts) when `tokenStart` gives it, else the mean of the first `baseline` points: at or
 * above `highShare` the marker is a *divergence* (the behaviors collapsed, the token surface did
 * not); below it a plain *collapse*. The text rounds the share down, so that the same share never
 * reads "still 80 %" on one marker and "fell too (80 %)" on another. Only drops from at least `minFrom` (default 2)
 * behaviors are marked: 1→0 is not a loss of diversity but a policy with no valid behavior at all.
 */

export interface BehaviorPoint {
  step: number;
  /** π(behavior | state) of each valid behavior (Monte Carlo estimate). */
  p: readonly number[];
  /** Its recorded standard error (same order); missing entries count as 0. */
  se: readonly number[];
  /** Token entropy (nats) at the same step. */
  tokenEntropy: number;
}

export interface DivergenceMarker {
  step: number;
  from: number;
  to: number;
  /** Token entropy at the marker / its starting value. */
  tokenShare: number;
  kind: 'divergence' | 'collapse';
  /** What the share is of: "step 0", or "steps 1–3" when the base's token entropy is not known. */
  startAt: string;
}

export interface MarkerOptions {
  /** Feasibility threshold ε. */
  eps: number;
  /** Monte Carlo samples per state behind each estimate (floors the SE at the threshold). */
  samples: number;
  /** z of the one-sided test (default 1.96). */
  z?: number;
  /** Measurements pooled per test (default 5). */
  window?: number;
  /** Token entropy share of its start that still counts as "high" (default 0.8). */
  highShare?: number;
  /** Points averaged for the token entropy start when `tokenStart` is not given (default 3). */
  baseline?: number;
  /** Token entropy at step 0 (the base before training): the start the share is of. */
  tokenStart?: number;
  /** Smallest support a marked drop may start from (default 2). */
  minFrom?: number;
}

export function divergenceMarkers(points: readonly BehaviorPoint[], opts: MarkerOptions): DivergenceMarker[] {
  const highShare = opts.highShare ?? 0.8;
  const minFrom = opts.minFrom ?? 2;
  const pts = points.filter((p) => Number.isFinite(p.tokenEntropy) && p.p.length > 0 && p.p.every(Number.isFinite));
  if (pts.length === 0) return [];
  const base = pts.slice(0, Math.max(1, opts.baseline ?? 3));
  const known = opts.tokenStart !== undefined && Number.isFinite(opts.tokenStart);
  const h0 = known ? opts.tokenStart! : base.reduce((a, p) => a + p.tokenEntropy, 0) / base.length;
  const startAt = known ? 'step 0' : base.length > 1 ? `steps ${base[0].step}–${base[base.length - 1].step}` : `step ${base[0].step}`;
  const track = thresholdTrack(pts, opts.eps, opts);
  const out: DivergenceMarker[] = [];
  for (let k = 1; k < track.length; k++) {
    const before = track[k - 1].above.filter(Boolean).length;
    const after = track[k].above.filter(Boolean).length;
    const i = track[k].index;
    if (after < before && before >= minFrom) {
      const tokenShare = h0 > 0 ? pts[i].tokenEntropy / h0 : 0;
      out.push({ step: pts[i].step, from: before, to: after, tokenShare, kind: percentOf(tokenShare) >= Math.round(highShare * 100) ? 'divergence' : 'collapse', startAt });
    }
  }
  return out;
}

export interface TrackPoint {
  step: number;
  index: number;
  /** Per entry of `p`: held above the threshold after this window. */
  above: boolean[];
}

/**
 * The marker rule's hysteresis, on its own: which entries of `p` are above `threshold`, the first
 * point as measured, then after each window of `window` points starting at point i ≥ 1 (the
 * entry `index` i, at its step): an entry leaves only when its window mean is significantly below
 * the threshold (p̄ + z·SE < t) and comes back only when significantly above (p̄ − z·SE > t), each
 * point's SE floored at the SE at the threshold, √(t(1 − t)/n). Used for support (t = ε) by the
 * markers above and for "answers most samples of a state" by the run alarms.
 */
export function thresholdTrack(points: readonly Pick<BehaviorPoint, 'step' | 'p' | 'se'>[], threshold: number, opts: { samples: number; z?: number; window?: number }): TrackPoint[] {
  if (points.length === 0) return [];
  const z = opts.z ?? 1.96;
  const w = Math.max(1, opts.window ?? 5);
  const seFloor = Math.sqrt((threshold * (1 - threshold)) / Math.max(1, opts.samples));
  const nb = points[0].p.length;
  const above = points[0].p.map((x) => x > threshold);
  const out: TrackPoint[] = [{ step: points[0].step, index: 0, above: [...above] }];
  for (let i = 1; i + w <= points.length; i++) {
    const win = points.slice(i, i + w);
    for (let b = 0; b < nb; b++) {
      const mean = win.reduce((a, q) => a + (q.p[b] ?? 0), 0) / w;
      const se = Math.sqrt(win.reduce((a, q) => a + Math.max(q.se[b] ?? 0, seFloor) ** 2, 0)) / w;
      if (above[b] && mean + z * se < threshold) above[b] = false;
      else if (!above[b] && mean - z * se > threshold) above[b] = true;
    }
    out.push({ step: points[i].step, index: i, above: [...above] });
  }
  return out;
}

/** A share as the whole percent the marker says (rounded down); the kind is decided on the same number. */
/** A share as the marker text writes it: a whole percent, rounded down. */
export const percentOf = (share: number): number => Math.floor(share * 100 + 1e-9);

/** One-line annotation of a marker, for the plot and its screen-reader list. */
export function describeMarker(m: DivergenceMarker, state: string): string {
  const who = state === 'mean' ? 'mean support' : state;
  const pct = `${percentOf(m.tokenShare)} %`;
  const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(2));
  return m.kind === 'divergence'
    ? `${who}: ${fmt(m.from)}→${fmt(m.to)} behaviors, token entropy still ${pct} of ${m.startAt}`
    : `${who}: ${fmt(m.from)}→${fmt(m.to)} behaviors, token entropy fell too (${pct} of ${m.startAt})`;
}
