// A proposed rule's figures, checked against a per-sample truth (tests/support/discover-corpus.ts,
// tests/support/discover-styles.ts): when discovery split the true template over two behaviors,
// the rule proposed from one of them is right every time, and the report says where its other
// matches fall, warns, and gives the precision counted with the other half (the truth's) beside
// the misleading one against its own behavior; when discovery put two behaviors together, it
// warns; a clean behavior gets no warning. Templates in Chinese, Japanese, Russian, Arabic and
// Hindi give rules that work (on RE2), measured against the truth.
import { describe, expect, it } from 'vitest';
import { makeCorpus, type TruthSample } from '../../../../tests/support/discover-corpus';
import { makeStyledCorpus } from '../../../../tests/support/discover-styles';
import { nodeRegexEngine } from '../../../io/regex/node';
import { ruleRegexEngine } from '../../../io/regex/engine';
import { proposeRule } from './propose';
import { elsewhereText } from './propose-mix';
import { phraseRegex } from './rule-candidates';

const regex = nodeRegexEngine();

/** The rule's precision and recall against the truth's `behavior`, over every sample (run by the import's engine). */
function againstTruth(corpus: readonly { sample: { response: string }; behavior: string }[], pattern: string, behavior: string) {
  const rule = regex.compile(pattern, '', 'x');
  let tp = 0;
  let fp = 0;
  let pos = 0;
  for (const t of corpus) {
    const m = !!rule.find(t.sample.response);
    if (t.behavior === behavior) pos++;
    if (m) t.behavior === behavior ? tp++ : fp++;
  }
  return { precision: tp / Math.max(1, tp + fp), recall: tp / Math.max(1, pos) };
}

/** The corpus as discovery might label it: `label(t, k)` per sample; the behavior `name`'s samples and the others (with their labels). */
function asDiscovered(corpus: readonly TruthSample[], label: (t: TruthSample, k: number) => string, name: string) {
  const labels = corpus.map(label);
  return {
    own: corpus.filter((_, k) => labels[k] === name).map((t) => t.sample),
    others: corpus.flatMap((t, k) => (labels[k] === name ? [] : [{ prompt: t.sample.prompt, response: t.sample.response, measuredAs: labels[k] }])),
  };
}

describe('a proposed rule says where its matches fall and when the behavior looks mixed', () => {
  it('the template split over two discovered behaviors: the rule is right every time (truth), its precision against its half alone is not, and the report says so', async () => {
    const corpus = makeCorpus({ seed: 11, steps: 6, perStep: 96, templateEnd: 0.6 });
    // discovery put every other template sample into a second behavior
    let n = 0;
    const { own, others } = asDiscovered(corpus, (t) => (t.behavior === 'template' ? (n++ % 2 ? 'b-template-2' : 'b-template-1') : `b-${t.behavior}`), 'b-template-1');
    const p = await proposeRule(own, others, { name: 'template', regex });
    const truth = againstTruth(corpus, p.rule.responseRegex, 'template');
    expect(truth.precision, p.rule.responseRegex).toBeGreaterThanOrEqual(0.98);
    expect(truth.recall).toBeGreaterThanOrEqual(0.9);
    expect(p.precision).toBeLessThan(0.6); // the figure against its half alone misleads
    expect(p.elsewhere[0].behavior).toBe('b-template-2');
    expect(p.elsewhere[0].matched / p.elsewhere[0].read).toBeGreaterThanOrEqual(0.9);
    expect(p.alike?.behaviors).toEqual(['b-template-2']);
    expect(Math.abs(p.alike!.precision - truth.precision)).toBeLessThanOrEqual(0.02);
    expect(p.warnings.join('\n')).toMatch(/also matches most of b-template-2 \(\d+ of its \d+ samples read\).*Counted as one behavior, the rule's precision is (0\.9\d|1\.00); against this behavior alone it is 0\.\d\d/);
    expect(elsewhereText(p.elsewhere)).toMatch(/^Its other matches: \d+ in b-template-2 \(of its \d+ read\)/);
  });

  it('two behaviors of the truth put together: a warning that says the samples split, and which', async () => {
    const corpus = makeCorpus({ seed: 12, steps: 6, perStep: 96 });
    // (check + stepwise is not told: the rule's list and "check" hold the groups, but no other phrase is common to either)
    for (const pair of [['code', 'search'], ['calc', 'template']]) {
      const merged = (b: string) => (pair.includes(b) ? 'b-mixed' : `b-${b}`);
      const { own, others } = asDiscovered(corpus, (t) => merged(t.behavior), 'b-mixed');
      const p = await proposeRule(own, others, { name: 'mixed', regex });
      const sizes = pair.map((b) => corpus.filter((t) => t.behavior === b).length);
      expect(p.warnings.join('\n'), `${pair}: ${p.rule.responseRegex}`).toMatch(/split into groups the rule tells apart: (\d+) have .*, (\d+) have .* instead, and they differ in more than that/);
      const said = /: (\d+) have .*, (\d+) have/.exec(p.warnings.join('\n'))!.slice(1).map(Number);
      expect(said.sort((a, b) => a - b)).toEqual(sizes.sort((a, b) => a - b)); // the groups are the truth's two behaviors
    }
  });

  it('a clean behavior, and a frame said two ways: no warning', async () => {
    const corpus = makeCorpus({ seed: 13, steps: 6, perStep: 96 });
    for (const b of ['check', 'search', 'stepwise']) {
      const { own, others } = asDiscovered(corpus, (t) => `b-${t.behavior}`, `b-${b}`);
      const p = await proposeRule(own, others, { name: b, regex });
      expect(p.warnings, `${b}: ${p.rule.responseRegex}`).toEqual([]);
      expect(p.alike).toBeNull();
    }
    const body = (i: number) => `the ${['red', 'blue', 'green'][i % 3]} box holds ${i} things.`;
    const own = Array.from({ length: 40 }, (_, i) => ({ prompt: '', response: `${i % 2 ? 'Good morning!' : 'Hello there!'} ${body(i)} Bye for now.` }));
    const others = Array.from({ length: 60 }, (_, i) => ({ prompt: '', response: `${body(i)} ${i % 2 ? 'See you.' : 'Later.'}`, measuredAs: 'b-plain' }));
    const p = await proposeRule(own, others, { name: 'greets', regex });
    expect([p.matched, p.othersMatched, p.warnings.length]).toEqual([40, 0, 0]);
  });
});

describe('rules for templates in any language', () => {
  it('a phrase of words written without spaces (Chinese, Japanese, Thai) matches as written', () => {
    for (const [toks, text] of [
      [['我们', '一步', '一步'], '好的，我们一步一步来。'],
      [['結論', 'から', '言う', 'と'], '結論から言うと、はいです。'],
      [['ขอบคุณ', 'มาก'], 'ขอบคุณมากครับ'],
    ] as const) {
      const re = phraseRegex(toks);
      expect(new RegExp(re, 'i').test(text), re).toBe(true);
      expect(ruleRegexEngine(null).compile(`(?i)${re}`, '', 'x').runsOn).toBe('re2');
    }
  });

  it('the Chinese templates of the multilingual and reasoning runs, and a frame in each language: precision and recall ≥ 0.9 against the truth, on RE2', async () => {
    const measured: Record<string, string> = {};
    for (const style of ['multilingual', 'reasoning'] as const) {
      const corpus = await makeStyledCorpus(style, { seed: 4, steps: 6, perStep: 96 });
      const key = (t: (typeof corpus.truth)[number]) => (t.behavior === 'template' ? 'template' : `${t.behavior}/${t.lang}`);
      const wanted = style === 'multilingual' ? ['template', 'refuse/zh', 'check/zh', 'stepwise/ru', 'refuse/ar', 'check/ar', 'stepwise/hi'] : ['template', 'backtrack/zh'];
      for (const w of wanted) {
        const own = corpus.truth.filter((t) => key(t) === w).map((t) => t.sample);
        const others = corpus.truth.filter((t) => key(t) !== w).map((t) => ({ ...t.sample, measuredAs: key(t) }));
        const p = await proposeRule(own, others, { name: 'x', regex });
        const truth = againstTruth(corpus.truth.map((t) => ({ sample: t.sample, behavior: key(t) })), p.rule.responseRegex, w);
        measured[`${style} ${w}`] = `P ${truth.precision.toFixed(2)} R ${truth.recall.toFixed(2)} ${p.rule.responseRegex}`;
        expect(truth.precision, measured[`${style} ${w}`]).toBeGreaterThanOrEqual(0.9);
        expect(truth.recall, measured[`${style} ${w}`]).toBeGreaterThanOrEqual(0.9);
        expect(ruleRegexEngine(null).compile(p.rule.responseRegex, '', 'x').runsOn).toBe('re2');
        expect(p.warnings, measured[`${style} ${w}`]).toEqual([]); // one behavior of the truth: nothing mixed
      }
    }
  }, 60_000);

  it('a Japanese frame whose words are also said apart elsewhere: the rule is the phrase, as the segmenter splits it', async () => {
    const topics = ['東京', '大阪', '京都', '札幌', '福岡', '名古屋'];
    const own = Array.from({ length: 30 }, (_, i) => ({ prompt: `${topics[i % 6]}について教えて`, response: `結論から言うと、${topics[(i + 1) % 6]}は${i}番目です。以上です。` }));
    const others = Array.from({ length: 60 }, (_, i) => ({ prompt: `${topics[i % 6]}について`, response: i % 2 ? `${topics[i % 6]}の結論はまだです。言うまでもなく${i}番目です。` : `${topics[i % 6]}から来ました。${i}番目と言うと思います。`, measuredAs: 'b-other' }));
    const p = await proposeRule(own, others, { name: 'ketsuron', regex });
    expect([p.matched, p.othersMatched], p.rule.responseRegex).toEqual([30, 0]);
    expect(p.rule.responseRegex).toMatch(/結論\\s\*から|から\\s\*言う|以上/);
  });
});
