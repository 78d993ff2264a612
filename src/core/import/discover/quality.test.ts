// Discovery quality on generated runs nobody tuned it on (tests/support/discover-corpus.ts: several
// phrasings per frame, prompt words in the responses, noise, six kinds of request, a template
// spreading over them): per-state NMI against the truth, per-step behavior-entropy error, and the
// template found as one behavior across the states. Seeds and variants differ from those the
// defaults were chosen on (seeds 1–3 and 7–9; docs/import.md, "How discovery was chosen").
import { describe, expect, it } from 'vitest';
import { makeCorpus, type CorpusOptions } from '../../../../tests/support/discover-corpus';
import { discoverCorpus, quality } from '../../../../tests/support/discover-quality';

const variants: [string, CorpusOptions][] = [
  ['short responses', { seed: 21, steps: 12, perStep: 96 }],
  ['wordy responses (two content sentences a slot)', { seed: 22, steps: 10, perStep: 96, content: 2 }],
  ['small steps, long run', { seed: 23, steps: 30, perStep: 40 }],
  ['more noise, a behavior appearing mid-run', { seed: 24, steps: 12, perStep: 96, noise: 0.12, late: { behavior: 'code', from: 6 }, behaviors: ['direct', 'stepwise', 'clarify', 'search', 'calc', 'check', 'handoff', 'template', 'code'] }],
];

describe('behavior discovery quality', () => {
  it.each(variants)('%s: per-state NMI, entropy error, the spreading template as one behavior', (_, o) => {
    const corpus = makeCorpus(o);
    const { behaviors } = discoverCorpus(corpus);
    const q = quality(corpus, behaviors);
    expect(q.meanNmi).toBeGreaterThanOrEqual(0.85);
    expect(q.minNmi).toBeGreaterThanOrEqual(0.72);
    expect(q.entropyError).toBeLessThanOrEqual(0.15);
    expect(q.template!.share).toBeGreaterThanOrEqual(0.9);
    expect(q.template!.states).toBe(6);
    // a behavior per sample would be many; noise is one label
    expect(q.behaviors).toBeLessThanOrEqual(20);
  }, 120_000);
});
