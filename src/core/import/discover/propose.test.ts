// Rules proposed for behaviors (propose.ts) on generated runs with a per-sample truth
// (tests/support/discover-corpus.ts): the proposal for a discovered behavior matches most of its
// samples and few others, also against the truth; prompt words never make the rule; the counts are
// those of the rule run by the import's own regex engine; bad input is refused by name.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeCorpus, type TruthSample } from '../../../../tests/support/discover-corpus';
import { discoverCorpus } from '../../../../tests/support/discover-quality';
import { nodeRegexEngine } from '../../../io/regex/node';
import { ruleRegexEngine } from '../../../io/regex/engine';
import { BehaviorClassifier, parseBehaviorRuleSet } from '../rules/rules';
import { proposeRule, proposalText } from './propose';
import { escapeRegex, phraseRegex } from './rule-candidates';
import { scaled } from '../../../../tests/support/speed';

const regex = nodeRegexEngine();

const split = (corpus: readonly TruthSample[], mine: (k: number) => boolean) => ({
  own: corpus.filter((_, k) => mine(k)).map((t) => t.sample),
  others: corpus.filter((_, k) => !mine(k)).map((t) => t.sample),
});

/** The rule's precision and recall against a truth label, over the whole corpus. */
function againstTruth(corpus: readonly TruthSample[], regex: string, truth: string): { precision: number; recall: number } {
  const re = new RegExp(regex.replace(/^\(\?i\)/, ''), 'i');
  let tp = 0;
  let fp = 0;
  let pos = 0;
  for (const t of corpus) {
    const m = re.test(t.sample.response);
    if (t.behavior === truth) pos++;
    if (m && t.behavior === truth) tp++;
    else if (m) fp++;
  }
  return { precision: tp / Math.max(1, tp + fp), recall: tp / Math.max(1, pos) };
}

describe('proposeRule on generated runs', () => {
  it('the spreading template, as discovery found it: a rule that matches most of its samples and few others, here and against the truth', async () => {
    for (const seed of [1, 2]) {
      const corpus = makeCorpus({ seed, steps: 8, perStep: 96 });
      const { behaviors } = discoverCorpus(corpus);
      // the discovered behavior that holds most of the template's samples
      const tally = new Map<string, number>();
      corpus.forEach((t, k) => t.behavior === 'template' && tally.set(behaviors[k], (tally.get(behaviors[k]) ?? 0) + 1));
      const name = [...tally].sort((a, b) => b[1] - a[1])[0][0];
      const { own, others } = split(corpus, (k) => behaviors[k] === name);
      const p = await proposeRule(own, others, { name: 'template', regex });
      expect(p.matched / p.total, p.rule.responseRegex).toBeGreaterThanOrEqual(0.9);
      expect(p.othersMatched / p.othersTotal, p.rule.responseRegex).toBeLessThanOrEqual(0.02);
      const truth = againstTruth(corpus, p.rule.responseRegex, 'template');
      expect(truth.recall, p.rule.responseRegex).toBeGreaterThanOrEqual(0.9);
      expect(truth.precision, p.rule.responseRegex).toBeGreaterThanOrEqual(0.95);
      expect(p.total + p.othersTotal).toBe(corpus.length);
    }
  });

  it('each framed behavior of the truth: F1 ≥ 0.9 (the direct answer, which has no frame, is not asked)', async () => {
    const corpus = makeCorpus({ seed: 3, steps: 6, perStep: 96 });
    const f1: Record<string, number> = {};
    for (const b of ['template', 'stepwise', 'clarify', 'search', 'calc', 'code', 'check', 'handoff']) {
      const { own, others } = split(corpus, (k) => corpus[k].behavior === b);
      const p = await proposeRule(own, others, { name: b, regex });
      f1[b] = Number(p.f1.toFixed(3));
    }
    for (const [b, f] of Object.entries(f1)) expect(f, `${b}: ${JSON.stringify(f1)}`).toBeGreaterThanOrEqual(0.9);
  });

  it('words of the prompt never make the rule, even where they would tell the behavior apart perfectly', async () => {
    const own = Array.from({ length: 20 }, (_, i) => ({ prompt: `Tell me about Zanzibar, item ${i}.`, response: `Zanzibar. ${i % 4 ? 'As requested, the notes follow.' : 'The notes follow.'}` }));
    const others = Array.from({ length: 40 }, (_, i) => ({ prompt: `Tell me about Lima, item ${i}.`, response: `Lima. The notes follow.` }));
    const p = await proposeRule(own, others, { name: 'as-requested', regex });
    expect(p.rule.responseRegex.toLowerCase()).not.toContain('zanzibar');
    expect(p.rule.responseRegex).toContain('requested');
    expect(p.matched).toBe(15);
    expect(p.othersMatched).toBe(0);
  });

  it('a frame said two ways at the start and closed one way: an alternation, then the closing after it', async () => {
    const body = (i: number) => `the ${['red', 'blue', 'green'][i % 3]} box holds ${i} things.`;
    const own = Array.from({ length: 30 }, (_, i) => ({ prompt: '', response: `${i % 2 ? 'Good morning!' : 'Hello there!'} ${body(i)} Bye for now.` }));
    const others = [...Array.from({ length: 30 }, (_, i) => ({ prompt: '', response: `${body(i)} Bye for now.` })), ...Array.from({ length: 30 }, (_, i) => ({ prompt: '', response: `Hello there! ${body(i)}` }))];
    const p = await proposeRule(own, others, { name: 'greets', regex });
    expect(p.matched).toBe(30);
    expect(p.othersMatched).toBe(0);
    expect(p.looksFor.length, JSON.stringify(p.looksFor)).toBe(2);
    expect(p.looksFor.flat().join(' ')).toMatch(/bye/);
  });

  it('is deterministic, and its counts are those of the rule run by the engines the import uses (RE2 in linear time)', async () => {
    const corpus = makeCorpus({ seed: 5, steps: 4, perStep: 64 });
    for (const b of ['check', 'handoff', 'search']) {
      const { own, others } = split(corpus, (k) => corpus[k].behavior === b);
      const p = await proposeRule(own, others, { name: b, regex });
      expect(await proposeRule(own, others, { name: b, regex })).toEqual(p);
      const set = parseBehaviorRuleSet({ rules: [p.rule] });
      expect(ruleRegexEngine(null).compile(p.rule.responseRegex, '', 'x').runsOn).toBe('re2');
      const c = new BehaviorClassifier(set, nodeRegexEngine());
      expect(own.filter((s) => c.classify(s).rule === 0).length).toBe(p.matched);
      expect(others.filter((s) => c.classify(s).rule === 0).length).toBe(p.othersMatched);
      expect(proposalText(p)).toBe(`matches ${p.matched} of its ${own.length} samples and ${p.othersMatched} of ${others.length} others`);
    }
  });

  it('weights the others by how many the run has: a phrase the sampled others rarely use costs more when they are many', async () => {
    const own = Array.from({ length: 20 }, (_, i) => ({ prompt: '', response: i < 16 ? 'Sure thing.' : 'Okay, fine.' }));
    const others = Array.from({ length: 40 }, (_, i) => ({ prompt: '', response: i < 2 ? 'Okay, fine.' : 'Nothing here.' }));
    const few = await proposeRule(own, others, { name: 'sure', regex });
    const many = await proposeRule(own, others, { name: 'sure', totals: { own: 20, others: 40_000 }, regex });
    expect(few.matched).toBe(20); // "okay" joins: 4 more of its own for 2 of 40 others
    expect(many.matched).toBe(16); // 2 of 40 others stand for 2,000 of the run's 40,000
    expect(many.othersMatched).toBe(0);
  });

  it('texts that make a backtracking scan go back over what it read (newline runs, unclosed tool calls, a 200,000-character word) take linear time, and a rule never holds such a word', async () => {
    const word = 'x'.repeat(200_000);
    const own = Array.from({ length: 20 }, (_, i) => ({ prompt: '', response: `<tool_call>{"name": "search"}</tool_call>\nPlan ${word}:\n1. look\n- check ${i}\nDone?` }));
    const nasty = ['\n'.repeat(100_000), ' \n'.repeat(50_000), '\n\t'.repeat(50_000), '<tool_call>{'.repeat(10_000), '\n1'.repeat(50_000), `?${' '.repeat(100_000)}x`, word];
    const others = [...nasty.map((response) => ({ prompt: '', response })), ...Array.from({ length: 20 }, (_, i) => ({ prompt: '', response: `No plan ${i}.` }))];
    const t0 = performance.now();
    const p = await proposeRule(own, others, { name: 'plan', regex });
    expect(performance.now() - t0).toBeLessThan(scaled(10_000)); // was minutes: each newline re-read the run after it
    expect(p.rule.responseRegex.length).toBeLessThan(1000);
    expect(p.rule.responseRegex).not.toContain('xxxx');
    expect([p.matched, p.othersMatched]).toEqual([20, 0]);
    // where the word is all the behavior has, the refusal is short and says why
    const wordy = (await proposeRule(Array.from({ length: 5 }, () => ({ prompt: '', response: word })), others.slice(-5), { name: 'wordy', regex }).catch((e: Error) => e)) as Error;
    expect(wordy.message).toMatch(/^propose a rule: nothing in the responses of these 5 samples sets them apart/);
    expect(wordy.message.length).toBeLessThan(300);
  }, scaled(30_000));

  it('refuses bad input by name', async () => {
    const s = [{ prompt: '', response: 'Hello there, friend.' }];
    await expect(proposeRule([], s, { name: 'x', regex })).rejects.toThrow(/the behavior's samples are needed/);
    await expect(proposeRule(s, s, { name: '', regex })).rejects.toThrow(/name: expected a non-empty name/);
    await expect(proposeRule(s, s, { name: 'two words', regex })).rejects.toThrow(/not usable in metric keys; try "two_words"/);
    await expect(proposeRule(s, s, { name: 'unclassified', regex })).rejects.toThrow(/choose another/);
    await expect(proposeRule([{ prompt: '', response: 3 } as never], s, { name: 'x', regex })).rejects.toThrow(/samples\[0\]: expected \{prompt, response\}/);
    await expect(proposeRule(s, s, { name: 'x', totals: { own: -1, others: 0 }, regex })).rejects.toThrow(/totals/);
    await expect(proposeRule(s, s, { name: 'x', regex })).rejects.toThrow(/nothing in the responses of these 1 samples sets them apart/);
  });
});

describe('phrase regexes', () => {
  it('match the phrase they were made from, in any case and spacing, and stay valid for any words', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^(?:[a-zé']{1,6}|[.,:!?()*+$^\\|[\]{}]|#)$/), { minLength: 1, maxLength: 4 }), (toks) => {
        const re = new RegExp(phraseRegex(toks), 'i');
        const text = toks.map((t) => (t === '#' ? '42' : t.toUpperCase())).join('  ');
        expect(re.test(`x ${text} y`)).toBe(true);
      }),
      { seed: 7, numRuns: 300 },
    );
    expect(escapeRegex('a.b*c(d)[e]{f}|g\\h/i^$+?')).toBe('a\\.b\\*c\\(d\\)\\[e\\]\\{f\\}\\|g\\\\h\\/i\\^\\$\\+\\?');
    expect(new RegExp(phraseRegex(['in', 'short'])).test('within shortness')).toBe(false);
  });
});
