import { describe, expect, it } from 'vitest';
import { makeConfig } from '../../core/config';
import type { MetricsFrame } from '../../core/metrics';
import { ESR_MISSING, gapMissing, invariantCards } from './invariants';

const frame = (scalars: Record<string, number>): MetricsFrame => ({ step: 1, version: 1, scalars, series: {}, ratioEdges: [], perf: {}, changes: {}, trace: [] }) as unknown as MetricsFrame;

describe('invariant cards', () => {
  it('a metric the run does not have reads "not in this run", never NaN (imported logs have no grad/norm)', () => {
    const imported = invariantCards([frame({ 'grad/reward_var': 0.45 })], undefined, makeConfig({}), 'mean');
    expect(imported[1].line).toMatch(/gradient norm before clipping: not in this run/);
    expect(imported.map((c) => c.line).join(' ')).not.toMatch(/NaN/);
    const trained = invariantCards([frame({ 'grad/norm': 0.25 })], undefined, makeConfig({}), 'mean');
    expect(trained[1].line).toMatch(/gradient norm before clipping: 0\.25/);
  });

  it("on an imported log, ③ shows none of the lab's settings as the log's, and ③/④ say what the log lacks instead of drawing nothing", () => {
    const cfg = makeConfig({ clipLow: 0.2, clipHigh: 0.28, staleness: 2 });
    const log = [frame({ 'support/behavior_support/all': 2, 'support/token_entropy': 1.5, 'grad/reward_var': 0.4, 'grad/zero_std_frac': 0.2 })];
    const cards = invariantCards(log, undefined, cfg, 'mean', [], undefined, { logprobs: false });
    expect(cards[2].line).not.toMatch(/0\.28|staleness 2|\[1 −/);
    expect(cards[2].line).toMatch(/not in the log/);
    expect(cards[2].panels).toEqual([]);
    expect(cards[2].empty).toBe(gapMissing({ logprobs: false }));
    expect(cards[2].empty).toMatch(/the log has no log-probs/);
    expect(invariantCards(log, undefined, cfg, 'mean', [], undefined, { logprobs: true })[2].empty).toMatch(/rollout's log-probs but not the trainer's/);
    expect(cards[3].empty).toBe(ESR_MISSING);
    expect(cards[1].empty).toBeUndefined(); // it has the reward variance
    expect(cards[0].empty).toBeUndefined();
    // a log without rewards: ② says so too
    expect(invariantCards([frame({ 'support/token_entropy': 1 })], undefined, cfg, 'mean', [], undefined, { logprobs: false })[1].empty).toMatch(/no sample carries a reward/);
    // a gate replayed on the log gives ④ its data: no text then
    expect(invariantCards([frame({ 'esr/effective_rate': 0.5 })], undefined, cfg, 'mean', [], undefined, { logprobs: false })[3].empty).toBeUndefined();
    // the lab's own run: its settings, and nothing said about a log (before the first frame either)
    const lab = invariantCards(log, undefined, cfg, 'mean');
    expect(lab[2].line).toMatch(/Ratio clip \[1 − 0\.2, 1 \+ 0\.28\]; staleness 2/);
    expect(lab.every((c) => c.empty === undefined)).toBe(true);
    expect(invariantCards([], undefined, cfg, 'mean', [], undefined, { logprobs: false }).every((c) => c.empty === undefined)).toBe(true);
  });

  it('panel ① lists only the series the run has (an import has no I(S;B) or best-behavior match); before the first frame every series is listed', () => {
    const imported = invariantCards([frame({ 'support/behavior_support/all': 2, 'support/behavior_entropy/all': 0.9, 'support/token_entropy': 1.5, 'support/behavior_cond_entropy': 0.9 })], undefined, makeConfig({}), 'mean');
    const labels = imported[0].panels.flatMap((p) => p.series.map((x) => x.key));
    expect(labels).toEqual(['support/behavior_support/all', 'support/token_entropy', 'support/behavior_cond_entropy']);
    expect(imported[0].panels.every((p) => p.series.every((x) => x.points.length > 0))).toBe(true);
    const empty = invariantCards([], undefined, makeConfig({}), 'mean');
    expect(empty[0].panels.flatMap((p) => p.series.map((x) => x.key))).toContain('support/behavior_mutual_info');
  });
});
