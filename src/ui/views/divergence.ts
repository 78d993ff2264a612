/**
 * The divergence plot's marker rule (pure): where does behavior support drop while token entropy
 * stays high? Unit-tested on hand-made series in divergence.test.ts.
 *
 * Rule. The support level starts at the first point. A drop is a point whose support is below the
 * level and stays below it for `persist` consecutive points (so one noisy Monte Carlo dip is not a
 * collapse); the marker sits at the first point of the drop, and the new level is the highest
 * support seen in that window. Support that rises above the level for `recover` consecutive points
 * (default 5: longer than a drop, so a 1↔2 flicker of the Monte Carlo estimate is not re-marked)
 * raises the level again (recovery, no marker). Each marker records token entropy at that step as a share of
 * its starting value (mean of the first `baseline` points): at or above `highShare` the marker is a
 * *divergence* (the behaviors collapsed, the token surface did not); below it a plain *collapse*
 * (both narrowed, which token entropy alone would also have shown). Only drops from a level of at
 * least `minFrom` (default 2) behaviors are marked: 1→0 is not a loss of diversity but a policy
 * that produces no valid behavior at all (e.g. an untrained one).
 */

export interface DivergencePoint {
  step: number;
  /** Behavior support (# behaviors with π > ε) of one state or the mean over states. */
  support: number;
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
}

export interface MarkerOptions {
  /** Token entropy share of its start that still counts as "high" (default 0.8). */
  highShare?: number;
  /** Points a drop must last (default 2). */
  persist?: number;
  /** Points averaged for the token entropy start (default 3). */
  baseline?: number;
  /** Points support must stay above the level to count as a recovery (default 5). */
  recover?: number;
  /** Smallest support level a marked drop may start from (default 2). */
  minFrom?: number;
}

export function divergenceMarkers(points: readonly DivergencePoint[], opts: MarkerOptions = {}): DivergenceMarker[] {
  const highShare = opts.highShare ?? 0.8;
  const persist = Math.max(1, opts.persist ?? 2);
  const recover = Math.max(1, opts.recover ?? 5);
  const minFrom = opts.minFrom ?? 2;
  const pts = points.filter((p) => Number.isFinite(p.support) && Number.isFinite(p.tokenEntropy));
  if (pts.length === 0) return [];
  const base = pts.slice(0, Math.max(1, opts.baseline ?? 3));
  const h0 = base.reduce((a, p) => a + p.tokenEntropy, 0) / base.length;
  const out: DivergenceMarker[] = [];
  let level = pts[0].support;
  for (let i = 1; i + persist <= pts.length; i++) {
    const win = pts.slice(i, i + persist);
    const up = pts.slice(i, i + recover);
    if (win.every((p) => p.support < level)) {
      const to = Math.max(...win.map((p) => p.support));
      const tokenShare = h0 > 0 ? pts[i].tokenEntropy / h0 : 0;
      if (level >= minFrom) out.push({ step: pts[i].step, from: level, to, tokenShare, kind: tokenShare >= highShare ? 'divergence' : 'collapse' });
      level = to;
    } else if (up.length === recover && up.every((p) => p.support > level)) {
      level = Math.min(...up.map((p) => p.support));
    }
  }
  return out;
}

/** One-line annotation of a marker, for the plot and its screen-reader list. */
export function describeMarker(m: DivergenceMarker, state: string): string {
  const who = state === 'mean' ? 'mean support' : state;
  const pct = `${Math.round(m.tokenShare * 100)} %`;
  const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(2));
  return m.kind === 'divergence'
    ? `${who}: ${fmt(m.from)}→${fmt(m.to)} behaviors, token entropy still ${pct} of start`
    : `${who}: ${fmt(m.from)}→${fmt(m.to)} behaviors, token entropy fell too (${pct} of start)`;
}
