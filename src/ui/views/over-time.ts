/**
 * "Metrics over time" (pure): the quantities the lessons talk about that the other views do not
 * plot — mean reward, pass@k against the base, the sample counters (turns served when a gate drops
 * some, dropped, masked), the mask-0 compute share and rates, 503 answers and lost sessions; and, in a chart of its own, the
 * samples each gate rule decided. A panel only appears when its metrics exist in the frames.
 */
import { scalarAt, type MetricsFrame } from '../../core/metrics';
import type { ScalarName } from '../../core/measure/names';
import { PASS_AT_COLOURS, colourOf } from '../charts/colours';
import type { Point, Series } from '../charts/series';
import type { RunRuleNamers } from '../gates/rule-names';
import { scalarSeries } from './data';
import { metricWords } from '../charts/metric-words';
import { ruleCountSeries } from './rule-series';

export interface OverTimePanel {
  /** Panel heading (y label). */
  yLabel: string;
  series: Series[];
  thresholds?: { value: number; label: string }[];
  /** Counts: integer ticks and a step curve. */
  counts?: boolean;
  yDomain?: [number, number];
}

/** pass@k over steps for one k (index k − 1 of `support/pass_at_k`). */
export function passAtSeries(frames: readonly MetricsFrame[], k: number): Point[] {
  return frames.flatMap((f) => {
    const v = f.series['support/pass_at_k']?.[k - 1];
    return typeof v === 'number' && Number.isFinite(v) ? [{ step: f.step, value: v }] : [];
  });
}

const has = (frames: readonly MetricsFrame[], key: string) => frames.some((f) => typeof scalarAt(f.scalars, key) === 'number');
const nonzero = (frames: readonly MetricsFrame[], key: string) => frames.some((f) => (scalarAt(f.scalars, key) ?? 0) !== 0);

/** The panels with data, each quantity in its colour (charts/colours.ts). */
export function overTimePanels(frames: readonly MetricsFrame[], compare: readonly MetricsFrame[] = []): OverTimePanel[] {
  const mk = (key: string, label: string, color: string, pick: (fs: readonly MetricsFrame[]) => Point[], metric?: string): Series[] => [
    { key, label, metric, color, points: pick(frames) },
    ...(compare.length ? [{ key: `b:${key}`, label: `${label} — compare`, metric, color, points: pick(compare), dashed: true }] : []),
  ];
  // a scalar under its words (charts/metric-words.ts), its name in the legend's tooltip
  const scalar = (key: ScalarName) => mk(key, metricWords(key), colourOf(key), (fs) => scalarSeries(fs, key), key);
  const panels: OverTimePanel[] = [];
  if (has(frames, 'reward/mean')) panels.push({ yLabel: 'reward', series: scalar('reward/mean') });

  const last = frames[frames.length - 1];
  const kMax = last?.series['support/pass_at_k']?.length ?? 0;
  if (kMax > 0) {
    const ks = [...new Set([1, Math.min(8, kMax), kMax])];
    const base = last.series['support/pass_at_k_base'] ?? [];
    panels.push({
      yLabel: 'pass@k',
      series: ks.flatMap((k, i) => mk(`pass@${k}`, `pass@${k}`, PASS_AT_COLOURS[i], (fs) => passAtSeries(fs, k), 'support/pass_at_k')),
      thresholds: ks.filter((k) => Number.isFinite(base[k - 1])).map((k) => ({ value: base[k - 1], label: `base pass@${k} ${base[k - 1].toFixed(2)}` })),
      yDomain: [0, 1],
    });
  }

  // turns served differ from the batch only when a gate drops some (it then serves more to fill it)
  const counters = (['esr/served', 'esr/dropped', 'esr/masked'] as const).filter((k) => has(frames, k) && (k !== 'esr/served' || nonzero(frames, 'esr/dropped')));
  if (counters.length) panels.push({ yLabel: 'samples', counts: true, series: counters.flatMap(scalar) });

  const shares = (['esr/mask0_compute_share', 'esr/effective_rate', 'esr/hint_accept_rate'] as const).filter((k) => has(frames, k) && (k !== 'esr/hint_accept_rate' || nonzero(frames, k)));
  if (shares.length) panels.push({ yLabel: 'share', yDomain: [0, 1], series: shares.flatMap(scalar) });

  if (nonzero(frames, 'gap/requests_503') || nonzero(frames, 'gap/lost_503')) {
    panels.push({ yLabel: 'requests', counts: true, series: [...scalar('gap/requests_503'), ...scalar('gap/lost_503')] });
  }

  return panels;
}

/**
 * Which rule of the gate decided how many samples (at-least-one promotions, Combine's four cases,
 * ...): a chart of its own, whose legend is the rules. `names.a` / `names.b` give gate rule `rule`
 * at `step` of each run (the lab derives them from the runs' timelines); without them, rules are
 * known by their traced names. Null when no rule decided a sample.
 */
export function rulePanel(frames: readonly MetricsFrame[], compare: readonly MetricsFrame[] = [], names: RunRuleNamers = {}): OverTimePanel | null {
  const series = ruleCountSeries(frames, compare, names.a, names.b);
  return series.length ? { yLabel: 'samples', counts: true, series } : null;
}
