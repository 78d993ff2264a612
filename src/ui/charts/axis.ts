/**
 * A chart panel's y axis (pure): its domain and ticks from the data, and whether the data is
 * constant. A range that is rounding noise — float arithmetic on equal values (a z-scored reward
 * of ±1e-15, a float32 log-prob gap of 1e-7) — is drawn as the constant it is and says so, instead
 * of a ±1e-15 axis that shows noise as swings. Ticks are unique (d3 repeats values when the range
 * is below a double's resolution; a keyed list of them threw Svelte's each_key_duplicate).
 */
import { scaleLinear, type ScaleLinear } from 'd3';
import { valueExtent, type Series } from './series';

/**
 * Variation below this share of the values' magnitude (at least 1) is rounding: a float32 ulp at 1
 * is 1.2e-7, and every metric of the lab is measured through float32 (the engine) or is an average
 * of such values.
 */
export const ROUNDING = 1e-6;

export interface Axis {
  y: ScaleLinear<number, number>;
  ticks: number[];
  /** The data's value when its whole range is rounding noise (drawn flat, labelled "constant"). */
  constant: number | null;
}

/** The finite values' [min, max], or null when there are none. */
function rangeOf(series: readonly Series[]): [number, number] | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of series) for (const p of s.points) {
    if (!Number.isFinite(p.value)) continue;
    lo = Math.min(lo, p.value);
    hi = Math.max(hi, p.value);
  }
  return lo <= hi ? [lo, hi] : null;
}

/** The constant the data is, when its range is rounding noise (exactly equal values count too). */
export function constantOf(series: readonly Series[]): number | null {
  const r = rangeOf(series);
  if (!r) return null;
  const [lo, hi] = r;
  const scale = Math.max(1, Math.abs(lo), Math.abs(hi));
  if (hi - lo > ROUNDING * scale) return null;
  const mid = (lo + hi) / 2;
  // noise around 0 is 0 (±1e-15 is "constant 0", not "constant 3e-17")
  return Math.abs(mid) <= ROUNDING ? 0 : mid;
}

/** The panel's axis over `height` px: a fixed domain if given, else the data's (nice), ticks unique. */
export function axisOf(series: readonly Series[], height: number, opts: { yDomain?: [number, number]; integerTicks?: boolean } = {}): Axis {
  const constant = constantOf(series);
  const domain = opts.yDomain ?? (constant !== null ? valueExtent([{ key: '', label: '', color: '', points: [{ step: 0, value: constant }] }]) : valueExtent(series));
  const y = scaleLinear().domain(domain).range([height, 0]);
  if (!opts.yDomain) y.nice();
  const raw = y.ticks(Math.max(2, Math.floor(height / 36))).filter((t) => !opts.integerTicks || Number.isInteger(t));
  return { y, ticks: [...new Set(raw)], constant };
}

/**
 * What a chart says about data its axis draws flat (`constantOf`): a single point is one value, not
 * a constant; values all exactly equal are constant; only values that differ by float rounding are
 * "constant up to rounding noise". Null when the data varies.
 */
export function constantNote(series: readonly Series[], format: (v: number) => string): string | null {
  const c = constantOf(series);
  if (c === null) return null;
  const values = series.flatMap((s) => s.points.map((p) => p.value)).filter(Number.isFinite);
  if (values.length === 1) return `one value so far: ${format(values[0])}`;
  if (values.every((v) => v === values[0])) return `constant ${format(c)}`;
  return `constant ${format(c)} (varies by rounding noise only)`;
}

/**
 * Share ticks (0..max as percent) whose labels are all different: the digits grow with a small max
 * (0.5 %, 1 %, 1.5 %), and an empty chart (max 0) gets the plain 0–100 % axis, not six "0 %".
 */
export function shareTicks(max: number, count = 4): { value: number; label: string }[] {
  const top = max > 0 && Number.isFinite(max) ? max : 1;
  const y = scaleLinear().domain([0, top]).nice();
  const ticks = y.ticks(count);
  for (let digits = 0; digits <= 6; digits++) {
    const labels = ticks.map((t) => `${(t * 100).toFixed(digits)} %`);
    if (new Set(labels).size === labels.length) return ticks.map((value, i) => ({ value, label: labels[i] }));
  }
  return ticks.map((value) => ({ value, label: `${(value * 100).toPrecision(3)} %` }));
}
