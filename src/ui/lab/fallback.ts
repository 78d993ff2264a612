/** Series for the fallback charts (pure): scalar metrics of frames, per state, with a compare overlay. */
import type { MetricsFrame } from '../../core/metrics';
import { PALETTE, type Point, type Series } from '../charts/series';

export function points(frames: readonly MetricsFrame[], key: string): Point[] {
  const out: Point[] = [];
  for (const f of frames) {
    const v = f.scalars[key];
    if (typeof v === 'number') out.push({ step: f.step, value: v });
  }
  return out;
}

/** Metric names under `prefix/` in the latest frame, e.g. the states of support/behavior_entropy. */
export function suffixes(frames: readonly MetricsFrame[], prefix: string): string[] {
  const f = frames[frames.length - 1];
  return f ? Object.keys(f.scalars).filter((k) => k.startsWith(`${prefix}/`)).map((k) => k.slice(prefix.length + 1)) : [];
}

export interface MetricSpec {
  key: string;
  label: string;
}

/** One series per metric for run A, and the same dashed for run B when comparing. */
export function overlay(specs: readonly MetricSpec[], a: readonly MetricsFrame[], b: readonly MetricsFrame[] | null): Series[] {
  return specs.flatMap((s, i) => {
    const color = PALETTE[i % PALETTE.length]!;
    const main: Series = { key: s.key, label: b ? `${s.label} (A)` : s.label, color, points: points(a, s.key) };
    return b ? [main, { key: `B:${s.key}`, label: `${s.label} (B)`, color, points: points(b, s.key), dashed: true }] : [main];
  });
}
