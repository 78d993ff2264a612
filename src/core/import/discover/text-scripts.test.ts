// Words in any script, noise judged per script, how a reasoning trace moves, how an answer is framed,
// and a response read at its head and tail at bounded cost.
import { describe, expect, it } from 'vitest';
import { responseParts, stripSpecial } from './chat';
import { framingTerms, isLoop, reasoningTerms } from './moves';
import { consensusOpening, cutAtTopic } from './naming';
import { openingKeys, openingOf } from './opening';
import { responseTerms, scriptOf, words } from './text';
import { noiseOf } from './noise';

const noise = (text: string) => noiseOf(text, [], words(stripSpecial(text), 64), responseParts(text));

describe('words in any script', () => {
  it('Chinese, Japanese and Thai are split into words; spaced scripts by their spaces', () => {
    expect(words('这是个很好的问题').length).toBeGreaterThan(2);
    expect(words('これは良い質問です').length).toBeGreaterThan(2);
    expect(words('สวัสดีครับ ยินดีต้อนรับ').length).toBeGreaterThan(2);
    expect(words('Привет, как дела?')).toEqual(['привет', ',', 'как', 'дела', '?']);
    expect(words('नमस्ते दुनिया')).toEqual(['नमस्ते', 'दुनिया']);
  });

  it('the script of a text is the one most of its letters are written in', () => {
    expect(['Hello there', '你好，世界', 'Привет мир', 'مرحبا بالعالم', 'नमस्ते दुनिया'].map(scriptOf)).toEqual(['latin', 'han', 'cyrillic', 'arabic', 'devanagari']);
  });
});

describe('noise, per script', () => {
  it('ordinary answers in Chinese, Russian, Arabic, Hindi, Thai and English are not noise', () => {
    for (const t of ['巴黎是法国的首都。', '好的，我来想一想。答案是四十二。', 'Столица Франции — Париж.', 'عاصمة فرنسا هي باريس.', 'फ़्रांस की राजधानी पेरिस है।', 'เมืองหลวงของฝรั่งเศสคือปารีส', 'The capital of France is Paris.']) expect(noise(t), t).toBeNull();
  });

  it('a short answer of short words, or a number closed by any script\'s full stop, is an answer in every script', () => {
    for (const t of ['It is 7.', 'So it is Rome.', 'No, it is not.', 'यह 42 है।', 'वह है।', 'Он там.', 'هو ٤٢.', '42。', '42।', '٤٢.', '४२।', '42!']) expect(noise(t), t).toBeNull();
  });

  it('random characters and token soup stay garbage, however their letters are spaced', () => {
    expect(noise('ĠĊ{}#ĠĠ$@@0x||Ċ~%\\u00ĠĊ]]ĠĠ#$Ġ@@\ufffd0xĊ{')).toBe('garbage');
    expect(noise('a7#q k2$x 9z!@ w#3 p%q8 &b1')).toBe('garbage');
  });

  it('random characters, empty text, a loop and a think cut mid-sentence are noise; a bare number is an answer', () => {
    expect(noise('K#!@Q9$%L^&*(ZP)_+x{}|:<>?~V`-=[]\\;,./')).toBe('garbage');
    expect(noise(' <|im_end|>')).toBe('empty');
    expect(noise(`<think>${'The value of the sum is what we need here. '.repeat(12)}</think> ok`)).toBe('loop');
    expect(noise('<think>First we expand the square and then the')).toBe('cut-off');
    expect(noise('<think>First we expand the square.\n\nThe answer is \\boxed{4}.')).toBeNull();
    expect(noise('42')).toBeNull();
    expect(noise('mother')).toBe('cut-off'); // alone; a word the step's responses give three times is an answer (discoverer.test.ts)
  });
});

describe('moves and framing', () => {
  it('a reasoning trace says how it moves, in English and Chinese; a move written three times is "often"', () => {
    expect(reasoningTerms('Okay. Wait, that is not right. Let me check the sum.')).toEqual(expect.arrayContaining(['m:backtracks', 'm:verifies']));
    expect(reasoningTerms('Case 1: x > 0. Case 2: x < 0.')).toContain('m:cases');
    expect(reasoningTerms("I'm not sure how to continue.")).toContain('m:gives-up');
    expect(reasoningTerms('先算总数。等等，这里不对。我们分情况讨论：情况一……让我验证一下。')).toEqual(expect.arrayContaining(['m:backtracks', 'm:cases', 'm:verifies']));
    expect(reasoningTerms('We add them. Double-checking: 2 + 3 = 5. To confirm, that checks out.')).toContain('m:verifies');
    expect(reasoningTerms('Option 1: x is even. Option 2: x is odd.')).toContain('m:cases');
    expect(reasoningTerms('I keep going in circles on the sum.')).toContain('m:gives-up');
    expect(reasoningTerms('Wait. Hmm, wait. Actually, no.')).toContain('m:backtracks-often');
    expect(reasoningTerms('So we add them up and get 5.')).toEqual(['s:reasons']);
  });

  it('an answer with no think reasons in the open: its moves are read from its text; after a think, from the think', () => {
    expect(responseTerms('Paris is the capital. Let me double-check: yes, Paris. Confirmed.', 'What is the capital of France?', [])).toContain('m:verifies');
    const afterThink = responseTerms('<think>The capital is Paris.</think>\n\nParis. Let me double-check: yes.', 'What is the capital of France?', []);
    expect(afterThink).not.toContain('m:verifies');
  });

  it('a think that opens "Hmm, so…" has not gone back on anything: a backtrack comes after its first sentence', () => {
    expect(reasoningTerms('Hmm, so we have three boxes here. Each holds 4, so 12 in all.')).toEqual(['s:reasons']);
    expect(reasoningTerms('We have three boxes. Hmm, wait, one is empty.')).toContain('m:backtracks');
  });

  it('an answer is framed boxed, in answer tags, after ####, or as a final answer', () => {
    expect(framingTerms('The final answer is $\\boxed{5}$.')).toEqual(['s:boxed', 's:final-answer']);
    expect(framingTerms('<answer>5</answer>')).toEqual(['s:answer-tag']);
    expect(framingTerms('so 5 in all.\n#### 5')).toEqual(['s:hashes']);
    expect(framingTerms('最终答案：5')).toEqual(['s:final-answer']);
    // "the answer is 5" is how any answer is said, in English or in Chinese: not a final-answer frame
    expect(framingTerms('答案是5。')).toEqual([]);
    expect(framingTerms('The answer is 5.')).toEqual([]);
  });

  it('a loop is one sentence over most of the text, not a sentence that recurs in a long one', () => {
    expect(isLoop('I will try again now. '.repeat(10))).toBe(true);
    expect(isLoop('首先要考虑订单的原因。'.repeat(10))).toBe(true);
    // sentences that end in a Devanagari danda or an Arabic question mark
    expect(isLoop('नॉर्वे का उत्तर ओस्लो है। '.repeat(10))).toBe(true);
    expect(isLoop('هل تسأل عن مصر حالياً أم تاريخياً؟ '.repeat(10))).toBe(true);
    expect(isLoop(`${'Some varied reasoning about the problem goes here, step by step. '.repeat(1)}${Array.from({ length: 40 }, (_, i) => `Step ${i} adds a new number to the total sum.`).join(' ')}`)).toBe(false);
  });
});

describe('a long response at bounded cost', () => {
  it('the answer after a 60,000-word think still counts, and the terms stay few', () => {
    const think = Array.from({ length: 20_000 }, (_, i) => `word${i % 997} is here.`).join(' ');
    const t0 = performance.now();
    const terms = responseTerms(`<think>${think} Let me verify this.</think>\n\n<answer>7</answer>`, 'What is 3 + 4?', []);
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(terms).toEqual(expect.arrayContaining(['s:answer-tag', 'm:verifies', 's:reasons']));
    expect(terms.length).toBeLessThan(1_000);
  });
});

describe('openings', () => {
  it('an opening is quoted as written; its key folds case and drops numbers and punctuation', () => {
    expect(openingOf('Wait, let me reconsider the whole thing.')).toBe('Wait, let me reconsider the');
    expect(openingOf('这是个很好的问题。让我逐步分析')).toBe('这是个很好的问题。');
    expect(openingKeys('Wait, let me')).toEqual(['wait', 'wait let', 'wait let me']);
    expect(openingKeys('Solve 12 for x').at(-1)).toBe('solve for x');
    // an unspaced script's keys end at whole words ("为什么" is never cut to "为什")
    expect(openingKeys('我想知道为什么天空是蓝色')).toEqual(['我想', '我想知道', '我想知道为什么']);
    expect(openingKeys('请问订单A123什么时候能到？').at(-1)).toBe('请问订单a#');
  });

  it('an unspaced quote is cut before its first topic word or number, at a word', () => {
    const topic = (w: string) => w === '瑞利' || w === '散射'; // words as segmented: 瑞利|散射
    expect(cutAtTopic('让我先理清瑞利散射的原因', topic)).toBe('让我先理清');
    expect(cutAtTopic('请问订单A123什么时候', topic)).toBe('请问订单'); // "A123" is one word, a number's
    expect(cutAtTopic('瑞利散射是什么', topic)).toBe('');
  });

  it("the members' openings word by word: what at least half write, the rest elided", () => {
    expect(consensusOpening(['Matthew is married to Nova', 'John is married to Ava', 'Henry is married to Karen'])).toBe('… is married to');
    expect(consensusOpening(['Alpha beta', 'Gamma delta'])).toBe('');
  });
});
