// Discovery on runs as trainers write them (tests/support/discover-styles.ts, with a per-sample truth):
// reasoning traces behind a shared system prompt and tools block, OpenClaw-RL agent sessions with
// their chat template, and short answers in five languages, each with a Chinese template spreading
// over the kinds of request; and the states found against the kinds of request. Bounds sit below
// what docs/import.md records ("Discovery on runs as trainers write them"), so a change that loses
// what was measured fails; the issue's aims are the docs' table, not these bounds.
import { describe, expect, it } from 'vitest';
import { discoverCorpus, quality } from '../../../../tests/support/discover-quality';
import { makeStyledCorpus, type Style } from '../../../../tests/support/discover-styles';
import { followAlarms, templateLabel, unclassifiedByLanguage } from '../../../../tests/support/discover-styles-measure';
import { scaled } from '../../../../tests/support/speed';

// measured on seed 11 (12 steps): behavior NMI mean / min / entropy error reasoning 0.97 / 0.95 / 0.03,
// agent 0.93 / 0.92 / 0.06 (0.85 / 0.82 / 0.15 before what a reply follows in its session weighed),
// multilingual 0.96 / 0.93 / 0.07 (0.94 / 0.90 / 0.08 while short answers of short words were taken for
// garbage); states NMI 0.787, 0.917, 0.989 (0.716, 0.760, 0.958 before phrasings of one kind came to
// be joined by what their answers talk about; 0.699, 0.718, 0.815 with the state defaults before issue
// 45's rework of them). Ordinary answers left unclassified: at most 0.2 % in any language (en 5.3 %,
// hi 5.9 %, zh 1.5 % while short answers were taken for garbage).
const bounds: [Style, { meanNmi: number; minNmi: number; entropyError: number; statesNmi: number }][] = [
  ['reasoning', { meanNmi: 0.93, minNmi: 0.9, entropyError: 0.07, statesNmi: 0.75 }],
  ['agent', { meanNmi: 0.89, minNmi: 0.87, entropyError: 0.1, statesNmi: 0.88 }],
  ['multilingual', { meanNmi: 0.92, minNmi: 0.89, entropyError: 0.1, statesNmi: 0.92 }],
];

describe('discovery on runs as trainers write them', () => {
  it.each(bounds)('%s: behaviors within each kind, the template as one behavior, ordinary answers classified in every language, states as kinds of request', async (style, b) => {
    const c = await makeStyledCorpus(style, { seed: 11, steps: 12, perStep: 256 });
    const { behaviors, states } = discoverCorpus(c.truth, true);
    const q = quality(c.truth, behaviors, states);
    expect(q.stateNmi).toBeGreaterThanOrEqual(b.statesNmi);
    expect(q.meanNmi).toBeGreaterThanOrEqual(b.meanNmi);
    expect(q.minNmi).toBeGreaterThanOrEqual(b.minNmi);
    expect(q.entropyError).toBeLessThanOrEqual(b.entropyError);
    expect(q.template!.share).toBeGreaterThanOrEqual(0.9);
    expect(q.template!.states).toBeGreaterThanOrEqual(4);
    for (const [lang, share] of Object.entries(unclassifiedByLanguage(c, behaviors))) expect(share!, lang).toBeLessThanOrEqual(0.02);
  }, scaled(120_000));

  it.each(['agent', 'multilingual'] as const)('%s: the template alarm of the follow rings within 3 steps of the truth, naming the template; without a template it never rings', async (style) => {
    const c = await makeStyledCorpus(style, { seed: 12, steps: 20, perStep: 256 });
    const { alarms, labels } = await followAlarms(c);
    const right = alarms.find((a) => a.behavior === templateLabel(c, labels));
    expect(right, JSON.stringify(alarms)).toBeDefined();
    expect(Math.abs(right!.step - c.templateAlarmStep!)).toBeLessThanOrEqual(3);
    expect(alarms.filter((a) => a !== right)).toEqual([]);
    const none = await makeStyledCorpus(style, { seed: 12, steps: 20, perStep: 256, templateEnd: 0 });
    expect((await followAlarms(none)).alarms).toEqual([]);
  }, scaled(180_000));
});
