/** Chart data helpers (pure). */

/** What every chart's legend calls the compare run (the fork, run B): one wording in every view. */
export const COMPARE_RUN = 'run B (fork)';
/** What the views append to a compare run's series label. */
export const COMPARE_SUFFIX = ' — compare';

export interface Point {
  step: number;
  value: number;
}

export interface Series {
  /** Metric name, e.g. "support/token_entropy". */
  key: string;
  label: string;
  /** The metric's name, shown as the label's tooltip (the label is in words: charts/metric-words.ts). */
  metric?: string;
  color: string;
  /** Sorted by step. */
  points: readonly Point[];
  dashed?: boolean;
}

/** Index of the point whose step is nearest to `step` (points sorted by step); -1 if empty. */
export function nearestIndex(points: readonly Point[], step: number): number {
  if (points.length === 0) return -1;
  let lo = 0;
  let hi = points.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid]!.step < step) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && step - points[lo - 1]!.step <= points[lo]!.step - step) return lo - 1;
  return lo;
}

/**
 * [min, max] over all finite values, padded; [0, 1] when there is no data or all values are 0 (a
 * counter that stayed 0 reads as "0 of something", not as a −0.5..0.5 band); a constant value gets
 * an axis from 0 to it.
 */
export function valueExtent(series: readonly Series[], pad = 0.05): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of series) {
    for (const p of s.points) {
      if (!Number.isFinite(p.value)) continue;
      if (p.value < lo) lo = p.value;
      if (p.value > hi) hi = p.value;
    }
  }
  if (lo > hi) return [0, 1];
  if (lo === hi) {
    if (lo === 0) return [0, 1];
    return lo > 0 ? [0, lo * (1 + pad)] : [lo * (1 + pad), 0];
  }
  const d = (hi - lo) * pad;
  return [lo - d, hi + d];
}

/** Step extent over all series; [0, 1] when there is no data. */
export function stepExtent(series: readonly Series[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of series) {
    const first = s.points[0];
    const last = s.points[s.points.length - 1];
    if (first && first.step < lo) lo = first.step;
    if (last && last.step > hi) hi = last.step;
  }
  if (lo > hi) return [0, 1];
  return lo === hi ? [lo, lo + 1] : [lo, hi];
}

/** Compact number for tooltips: exact enough to read, short enough to fit. */
export function formatValue(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (v !== 0 && (Math.abs(v) >= 1e5 || Math.abs(v) < 1e-3)) return v.toExponential(3);
  return Number(v.toPrecision(5)).toString();
}

/** Okabe–Ito palette (colour-blind safe). */
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];

/** WCAG relative luminance of a #rrggbb / #rgb colour. */
function luminance(hex: string): number {
  let h = hex.replace('#', '');
  if (h.length === 3) h = [...h].map((c) => c + c).join('');
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two colours (1 … 21). */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

/** Black or white text on a `bg` chip, whichever contrasts more (the palette's light colours need black). */
export function inkOn(bg: string): string {
  return contrast('#000000', bg) >= contrast('#ffffff', bg) ? '#000000' : '#ffffff';
}

/** `color` darkened until small text in it reaches WCAG AA (4.5:1) on white: coloured labels keep their hue. */
export function textColor(color: string): string {
  let h = color.replace('#', '');
  if (h.length === 3) h = [...h].map((c) => c + c).join('');
  let rgb = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
  const hex = () => '#' + rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
  while (contrast(hex(), '#ffffff') < 4.5) rgb = rgb.map((v) => v * 0.92);
  return hex();
}
