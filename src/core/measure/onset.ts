// When did a change begin? One rule for every onset the lessons quote (the cascade's order), so
// that "support collapsed at step 12, reward variance fell from step 18" means the same thing for
// every metric, seed and run.

export interface OnsetRule {
  /** Steps averaged for the baseline (the first ones), the end level (the last ones) and the trailing mean. */
  window: number;
  /** The onset is where the trailing mean has covered this share of the way from baseline to end level. */
  fraction: number;
}

export const ONSET_RULE: OnsetRule = { window: 5, fraction: 0.25 };

export interface Point {
  step: number;
  value: number;
}

/**
 * First step at which a series has moved `fraction` of the way from its baseline (mean of the first
 * `window` values) toward its end level (mean of the last `window` values), judged on the trailing
 * `window`-step mean, which must stay past that point for `window` consecutive steps (one noisy
 * step does not trigger it; a change still under way at the end of the run does not count). null when the series is too short,
 * or when it ends on the wrong side of its baseline for `direction` (no such change happened) or
 * moves by less than `minChange` in total.
 */
export function onsetStep(points: readonly Point[], direction: 'fall' | 'rise', minChange = 0, rule: OnsetRule = ONSET_RULE): number | null {
  const { window: w, fraction } = rule;
  if (!(w >= 1 && Number.isInteger(w))) throw new Error(`onset rule: window must be a positive integer, got ${w}`);
  if (!(fraction > 0 && fraction <= 1)) throw new Error(`onset rule: fraction must be in (0, 1], got ${fraction}`);
  if (points.some((p) => !Number.isFinite(p.value))) throw new Error('onsetStep: non-finite value in the series');
  if (points.length < 2 * w) return null;
  const mean = (from: number, to: number) => {
    let s = 0;
    for (let i = from; i < to; i++) s += points[i].value;
    return s / (to - from);
  };
  const base = mean(0, w);
  const end = mean(points.length - w, points.length);
  const change = direction === 'fall' ? base - end : end - base;
  if (!(change > 0) || change < minChange) return null;
  const threshold = direction === 'fall' ? base - fraction * change : base + fraction * change;
  // the first step of `window` consecutive trailing means past the threshold
  let run = 0;
  for (let i = w - 1; i < points.length; i++) {
    const m = mean(i - w + 1, i + 1);
    run = (direction === 'fall' ? m <= threshold : m >= threshold) ? run + 1 : 0;
    if (run === w) return points[i - w + 1].step;
  }
  return null;
}
