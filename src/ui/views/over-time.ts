/**
 * "Metrics over time" (pure): the quantities the lessons talk about that the other views do not
 * plot — mean reward, pass@k against the base, the sample counters (promoted, dropped, masked), the
 * mask-0 compute share and rates, 503 answers and lost sessions, the Combine case counters. A
 * panel only appears when its metrics exist in the frames (e.g. the case counters for Combine).
 */
import { scalarAt, type MetricsFrame, type ScalarName } from '../../core/metrics';
import { PALETTE, type Point, type Series } from '../charts/series';
import { scalarSeries } from './data';

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

/**
 * The gate's rule names by rule index, as the traced samples report them (latest frame first: a
 * gate applied mid-run renames its rules from that step on).
 */
export function ruleNames(frames: readonly MetricsFrame[]): Map<number, string> {
  const names = new Map<number, string>();
  for (let i = frames.length - 1; i >= 0; i--) for (const t of frames[i].trace ?? []) if (!names.has(t.rule)) names.set(t.rule, t.ruleName);
  return names;
}

/** Samples each gate rule decided per step (`gate/rule_counts`), one series per rule that fired. */
function ruleCountSeries(fs: readonly MetricsFrame[], rule: number): Point[] {
  return fs.flatMap((f) => {
    const c = f.series['gate/rule_counts'];
    return c ? [{ step: f.step, value: c[rule] ?? 0 }] : [];
  });
}

/** "rule 2: at-least-one"; a rule index that named different rules over the run (a gate applied mid-run) lists them. */
function ruleLabel(frames: readonly MetricsFrame[], rule: number, traced: Map<number, string>, nameAt?: (step: number, rule: number) => string | undefined): string {
  const names = new Set<string>();
  for (const f of frames) if ((f.series['gate/rule_counts']?.[rule] ?? 0) > 0) names.add(nameAt?.(f.step, rule) ?? traced.get(rule) ?? 'unnamed');
  return `rule ${rule + 1}: ${[...names].join(' / ') || 'unnamed'}`;
}

/**
 * The panels with data. `nameAt` names gate rule `rule` at `step` (the lab derives it from the run's
 * timeline); without it, rule names come from the frames' traced samples.
 */
export function overTimePanels(frames: readonly MetricsFrame[], compare: readonly MetricsFrame[] = [], nameAt?: (step: number, rule: number) => string | undefined): OverTimePanel[] {
  const mk = (key: string, label: string, color: string, pick: (fs: readonly MetricsFrame[]) => Point[]): Series[] => [
    { key, label, color, points: pick(frames) },
    ...(compare.length ? [{ key: `b:${key}`, label: `${label} — compare`, color, points: pick(compare), dashed: true }] : []),
  ];
  const scalar = (key: string, label: string, color: string) => mk(key, label, color, (fs) => scalarSeries(fs, key as ScalarName)); // method counters are known at run time only
  const panels: OverTimePanel[] = [];
  if (has(frames, 'reward/mean')) panels.push({ yLabel: 'reward', series: scalar('reward/mean', 'mean reward of served turns', PALETTE[0]) });

  const last = frames[frames.length - 1];
  const kMax = last?.series['support/pass_at_k']?.length ?? 0;
  if (kMax > 0) {
    const ks = [...new Set([1, Math.min(8, kMax), kMax])];
    const base = last.series['support/pass_at_k_base'] ?? [];
    panels.push({
      yLabel: 'pass@k',
      series: ks.flatMap((k, i) => mk(`pass@${k}`, `pass@${k}`, PALETTE[i + 1], (fs) => passAtSeries(fs, k))),
      thresholds: ks.filter((k) => Number.isFinite(base[k - 1])).map((k) => ({ value: base[k - 1], label: `base pass@${k} ${base[k - 1].toFixed(2)}` })),
      yDomain: [0, 1],
    });
  }

  const counters = ([
    ['esr/dropped', 'dropped (never queued)'],
    ['esr/masked', 'queued with mask 0'],
  ] as const).filter(([k]) => has(frames, k));
  if (counters.length) panels.push({ yLabel: 'samples', counts: true, series: counters.flatMap(([k, l], i) => scalar(k, l, PALETTE[[1, 6][i]])) });

  const shares = ([
    ['esr/mask0_compute_share', 'mask-0 share of trained tokens (compute, no signal)'],
    ['esr/effective_rate', 'effective sample rate'],
    ['esr/hint_accept_rate', 'hint accept rate'],
  ] as const).filter(([k]) => has(frames, k) && (k !== 'esr/hint_accept_rate' || nonzero(frames, k)));
  if (shares.length) panels.push({ yLabel: 'share', yDomain: [0, 1], series: shares.flatMap(([k, l], i) => scalar(k, l, PALETTE[[2, 0, 4][i]])) });

  if (nonzero(frames, 'gap/requests_503') || nonzero(frames, 'gap/lost_503')) {
    panels.push({ yLabel: 'requests', counts: true, series: [...scalar('gap/requests_503', 'answered 503 (weight sync)', PALETTE[1]), ...scalar('gap/lost_503', 'sessions lost (no retry)', PALETTE[6])] });
  }

  // which rule of the gate decided how many samples (at-least-one promotions, Combine's four cases, ...)
  const names = ruleNames([...frames, ...compare]);
  const fired = [...new Set(frames.flatMap((f) => (f.series['gate/rule_counts'] ?? []).flatMap((c, i) => (c > 0 ? [i] : []))))].sort((a, b) => a - b);
  if (fired.length) {
    panels.push({
      yLabel: 'samples by gate rule', counts: true,
      series: fired.flatMap((r, i) => mk(`rule:${r}`, ruleLabel(frames, r, names, nameAt), PALETTE[i % PALETTE.length], (fs) => ruleCountSeries(fs, r))),
    });
  }
  return panels;
}
