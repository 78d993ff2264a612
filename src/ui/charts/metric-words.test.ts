import { beforeAll, describe, expect, it } from 'vitest';
import { makeConfig, type Config } from '../../core/config';
import { Run } from '../../core/loop';
import type { MetricsFrame } from '../../core/metrics';
import { tabularFactory } from '../../../tests/support/factory';
import { importExample } from '../../../tests/support/example-import';
import { invariantCards } from '../views/invariants';
import { overTimePanels } from '../views/over-time';
import { FIXED_METRICS, hasWords, metricTitle, metricWords, perStateWords } from './metric-words';

const make = tabularFactory();
async function trained(cfg: Config, n: number): Promise<MetricsFrame[]> {
  const r = await Run.create(await make(cfg), cfg);
  const out: MetricsFrame[] = [];
  for (let i = 0; i < n; i++) out.push(await r.step());
  return out;
}
/** Words that still read like a metric key ("grad/zero_std_frac", "esr_yield"). */
const KEYISH = /[a-z]+\/[a-z_]+\/?|[a-z]+_[a-z]+/;
const names = (frames: readonly MetricsFrame[]) => [...new Set(frames.flatMap((f) => [...Object.keys(f.scalars), ...Object.keys(f.series), ...Object.keys(f.perf ?? {})]))];

describe('metric words', () => {
  // one step of a lab run (every metric the loop computes) and the shipped verl log (what an import has)
  let run: MetricsFrame[] = [];
  beforeAll(async () => {
    run = await trained(makeConfig({ task: 'strategies', method: 'combine', lr: 0.05, staleness: 1, pauseWindow: 0.2, requestRate: 3 }), 1);
  }, 60_000);

  it('every metric a trained run or an imported log carries (what the page can plot) has words, none of them a key', async () => {
    const imported = await importExample('verl');
    const all = names([...run, ...imported.frames]);
    expect(all.length).toBeGreaterThan(60);
    expect(all).toContain('support/behavior_dist/math/decompose');
    expect(all).toContain('esr/hint_accept_rate');
    expect(all.some((k) => k.startsWith('import/length_count/'))).toBe(true);
    for (const k of all) {
      expect(hasWords(k), k).toBe(true);
      expect(metricWords(k), k).not.toMatch(KEYISH);
    }
  }, 60_000);

  it('fixed names from the table, per-state and per-behavior names by pattern; an unknown name stays as it is', () => {
    expect(FIXED_METRICS).toContain('esr/yield');
    for (const k of FIXED_METRICS) expect(metricWords(k), k).not.toBe(k);
    expect(metricWords('esr/yield')).toBe('yield (effective / served)');
    expect(metricWords('grad/zero_std_frac')).toBe('groups with no reward variance (no gradient)');
    expect(metricWords('support/behavior_support/math')).toBe(perStateWords('support/behavior_support', 'state math'));
    expect(metricWords('support/behavior_entropy/mean')).toBe('behavior entropy (choice variety), average over all states');
    expect(metricWords('support/token_entropy_empirical/code')).toBe('next-word entropy of the text, state code');
    expect(metricWords('support/behavior_dist/code/verify')).toBe('share of verify, state code');
    expect(metricWords('import/reward_count/math/direct/neg')).toBe('direct rewarded negative, state math');
    expect(metricWords('my/own_metric')).toBe('my/own_metric');
    expect(hasWords('my/own_metric')).toBe(false);
    expect(metricTitle('esr/yield')).toBe('metric: esr/yield');
  });

  it('the invariant cards and metrics over time label every line in words, its key kept for the tooltip', () => {
    const frames = run;
    const series = [
      ...invariantCards(frames, frames, makeConfig({}), 'mean').flatMap((c) => c.panels.flatMap((p) => p.series)),
      ...overTimePanels(frames, frames).flatMap((p) => p.series),
    ];
    expect(series.length).toBeGreaterThan(20);
    for (const s of series) {
      expect(s.metric, s.key).toBeTruthy();
      expect(s.label, s.key).not.toContain(s.metric!);
      expect(s.label, s.key).not.toMatch(KEYISH);
    }
    const yieldLine = series.find((s) => s.key === 'esr/yield')!;
    expect(yieldLine.label).toBe(metricWords('esr/yield'));
  });
});
