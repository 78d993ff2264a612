import { describe, expect, it } from 'vitest';
import { responseLine, responseView } from './response-view';

describe('a response as the viewer shows it', () => {
  it('a closed think apart from the answer, its length in words', () => {
    const v = responseView('<think>\nWait, let me check: 2 + 2 is 4.\n</think>\n\nThe answer is \\boxed{4}.<|im_end|>');
    expect(v.reasoning).toBe('Wait, let me check: 2 + 2 is 4.');
    expect(v.reasoningWords).toBe(8);
    expect(v.cut).toBe(false);
    expect(v.answer).toEqual([{ text: 'The answer is \\boxed{4}.<|im_end|>', tool: false }]);
  });

  it('an unclosed think is cut, with no answer', () => {
    const v = responseView('<think>\nFirst, the cases. Case 1: n is even. Case 1: n is even. Case 1');
    expect(v.cut).toBe(true);
    expect(v.reasoning).toMatch(/^First, the cases/);
    expect(v.answer).toEqual([]);
  });

  it('a think opened in the prompt ends at its close; words of any script are counted', () => {
    const v = responseView('让我们逐步分析这个问题。</think>答案是 4。');
    expect(v.reasoning).toBe('让我们逐步分析这个问题。');
    expect(v.reasoningWords).toBeGreaterThan(2);
    expect(v.answer.map((p) => p.text).join('')).toBe('答案是 4。');
  });

  it('tool results inside the response are marked, the rest kept as written', () => {
    const v = responseView('<tool_call>{"name":"lookup"}</tool_call>\n<tool_response>{"ok":true}</tool_response>\nFound it.');
    expect(v.reasoning).toBeNull();
    expect(v.answer).toEqual([
      { text: '<tool_call>{"name":"lookup"}</tool_call>\n', tool: false },
      { text: '<tool_response>{"ok":true}</tool_response>', tool: true },
      { text: '\nFound it.', tool: false },
    ]);
  });

  it('a prompt that opens the think (DeepSeek-R1, R1-Zero): a response with no think tag is a think cut at the limit', () => {
    const r1 = '<｜begin▁of▁sentence｜><｜User｜>What is 2 + 2?<｜Assistant｜><think>\n';
    const v = responseView('Okay, so I need to add 2 and 2. Let me count: 1, 2, 3', r1);
    expect(v).toEqual({ reasoning: 'Okay, so I need to add 2 and 2. Let me count: 1, 2, 3', reasoningWords: 15, cut: true, answer: [] });
    expect(responseLine(v)).toBe('[think · 15 words, cut off]');
    // R1-Zero's plain template; a response that closes the think has its answer after the close
    const zero = 'A conversation between User and Assistant. User: What is 2 + 2? Assistant: <think>';
    const closed = responseView('2 + 2 = 4.</think> <answer>4</answer>', zero);
    expect([closed.reasoning, closed.cut, closed.answer.map((p) => p.text).join('')]).toEqual(['2 + 2 = 4.', false, '<answer>4</answer>']);
    // the same response after a prompt that opens no think is all answer
    expect(responseView('Okay, so I need to add 2 and 2.', 'What is 2 + 2?').reasoning).toBeNull();
  });

  it('a response without a think is all answer', () => {
    expect(responseView('Just 4.')).toEqual({ reasoning: null, reasoningWords: 0, cut: false, answer: [{ text: 'Just 4.', tool: false }] });
  });
});

describe("a row's line", () => {
  it("the think's length, then the answer", () => {
    expect(responseLine(responseView('<think>a b c</think>\n\nThe   answer\nis 4.<|im_end|>'))).toBe('[think · 3 words] The answer is 4.');
    expect(responseLine(responseView('<think>a b c'))).toBe('[think · 3 words, cut off]');
    expect(responseLine(responseView(''))).toBe('(empty response)');
    expect(responseLine(responseView('x'.repeat(400)))).toHaveLength(160);
  });
});
