import { describe, expect, it } from 'vitest';
import type { MetricsFrame } from '../../metrics';
import { RunAlarms } from './alarms';

const frame = (step: number, scalars: Record<string, number>): MetricsFrame => ({ step, version: step, scalars, series: {}, ratioEdges: [], perf: {}, changes: {}, trace: [] });

/** A state whose 4 behaviors collapse onto one from step 6 on, token entropy flat, 64 samples a step. */
function collapsing(step: number, extra: Record<string, number> = {}): MetricsFrame {
  const p = step < 6 ? [0.25, 0.25, 0.25, 0.25] : [0.97, 0.01, 0.01, 0.01];
  const s: Record<string, number> = { 'support/token_entropy/math': 1.2, 'import/state_samples/math': 64, ...extra };
  p.forEach((x, i) => {
    s[`support/behavior_dist/math/b${i}`] = x;
    s[`support/behavior_dist_se/math/b${i}`] = Math.sqrt((x * (1 - x)) / 64);
  });
  s['support/behavior_entropy/math'] = -p.reduce((a, x) => a + x * Math.log(x), 0);
  s['support/behavior_support/math'] = p.filter((x) => x > 0.05).length;
  return frame(step, s);
}

describe('run alarms', () => {
  it('a collapse with token entropy holding rings the divergence marker and the entropy gap, once each', () => {
    const a = new RunAlarms(0.05);
    const rung = Array.from({ length: 20 }, (_, i) => a.add(collapsing(i + 1))).flat();
    expect(rung.filter((x) => x.kind === 'divergence').map((x) => [x.state, x.step])).toEqual([['math', 6]]);
    expect(rung.filter((x) => x.kind === 'entropy-gap')).toHaveLength(1);
    expect(rung.filter((x) => x.kind === 'collapse')).toHaveLength(0);
  });

  it('a steady run rings nothing; ESR falling and zero-variance groups rising ring once, and again only after re-arming', () => {
    const esr = [0.8, 0.8, 0.8, 0.8, 0.8, 0.8, 0.2, 0.2, 0.2, 0.2, 0.8, 0.8, 0.8, 0.2, 0.2, 0.2];
    const b = new RunAlarms(0.05);
    const kinds = esr.flatMap((e, i) => b.add({ ...collapsing(1, { 'esr/effective_rate': e, 'grad/zero_std_frac': i > 8 ? 0.6 : 0.1 }), step: i + 1 }).map((x) => x.kind));
    expect(kinds.filter((k) => k === 'esr-fall')).toHaveLength(2);
    expect(kinds.filter((k) => k === 'zero-variance')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'divergence' || k === 'collapse' || k === 'entropy-gap')).toHaveLength(0);
  });

  it('entropy-gap at its thresholds: behavior entropy under half its start rings it, only while token entropy holds at 80 %', () => {
    // behavior entropy 1.0 for 3 steps, then 0.55 (the last 3 steps' mean stays above half), then 0.45
    const h = [1, 1, 1, 0.55, 0.55, 0.55, 0.45, 0.45, 0.45, 0.45];
    const gapSteps = (tokenEnd: number) => {
      const a = new RunAlarms(0.05);
      return h.flatMap((x, i) => a.add(frame(i + 1, { 'support/behavior_entropy/math': x, 'support/token_entropy/math': i < 3 ? 1 : tokenEnd })).filter((y) => y.kind === 'entropy-gap').map((y) => y.step));
    };
    expect(gapSteps(0.8)).toEqual([8]); // (0.55 + 0.45 + 0.45) / 3 < 0.5 first at step 8
    expect(gapSteps(0.79)).toEqual([]); // token entropy fell too: not the gap
  });
});
