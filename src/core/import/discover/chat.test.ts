// Prompts and responses as trainers write them: chat templates, special tokens, a response's parts.
import { describe, expect, it } from 'vitest';
import { chatTurns, responseParts, stripSpecial, turnKind, userTurns } from './chat';
import { requestTurns } from './text';

const SYSTEM = 'You are a helpful assistant.\n\n# Tools\n<tools>\n{"name": "lookup_order"}\n</tools>';

describe('chat prompts', () => {
  it('ChatML, Llama 3, Gemma, [INST] and a decode without special tokens give the same user turn', () => {
    const q = 'Where is my order A123?';
    const forms = [
      `<|im_start|>system\n${SYSTEM}<|im_end|>\n<|im_start|>user\n${q}<|im_end|>\n<|im_start|>assistant\n`,
      `<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n${SYSTEM}<|eot_id|><|start_header_id|>user<|end_header_id|>\n\n${q}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n`,
      `<start_of_turn>user\n${q}<end_of_turn>\n<start_of_turn>model\n`,
      `<s>[INST] ${q} [/INST]`,
      `system\n${SYSTEM}\nuser\n${q}\nassistant\n`,
    ];
    for (const f of forms) expect(userTurns(chatTurns(f)!), f).toEqual([q]);
  });

  it('plain text is not a chat; a line "user" inside it does not make one', () => {
    expect(chatTurns('Solve for x: 2x + 3 = 7')).toBeNull();
    expect(chatTurns('The word\nuser\nappears here')).toBeNull();
    expect(requestTurns('Solve for x: 2x + 3 = 7<|endoftext|>')).toEqual(['Solve for x: 2x + 3 = 7']);
  });

  it('tool results in a user turn are not requests; the turn kind says what a turn answers', () => {
    const first = `system\n${SYSTEM}\nuser\nRefund order B7\nassistant\n`;
    const afterTool = `${first}<tool_call>{"name": "lookup_order"}</tool_call>\nuser\n<tool_response>{"status": "paid"}</tool_response>\nassistant\n`;
    const followUp = `${first}Done.\nuser\nThat is not what I asked.\nassistant\n`;
    expect(userTurns(chatTurns(afterTool)!)).toEqual(['Refund order B7']);
    expect([first, afterTool, followUp].map((p) => turnKind(chatTurns(p)))).toEqual(['first', 'after-tool', 'follow-up']);
  });

  it('special tokens are not words', () => {
    expect(stripSpecial('Done.<|im_end|><|endoftext|></s>').trim()).toBe('Done.');
  });
});

describe('response parts', () => {
  it('a closed think is the reasoning, the rest the answer, special tokens gone', () => {
    const p = responseParts('<think>\nWait, let me check.\n</think>\n\nThe answer is \\boxed{4}.<|im_end|>');
    expect(p).toEqual({ reasoning: 'Wait, let me check.', cut: false, turns: ['The answer is \\boxed{4}.'], toolResults: 0 });
  });

  it('an unclosed think is cut; a think opened by the template (only its close in the response) is reasoning', () => {
    expect(responseParts('<think>Let me see, first the').cut).toBe(true);
    expect(responseParts('So x is 2.</think>\n\nx = 2')).toMatchObject({ reasoning: 'So x is 2.', cut: false, turns: ['x = 2'] });
  });

  it("tool results and the tool's or user's turns inside a multi-turn response are not the assistant's text", () => {
    const r = '<tool_call>\n{"name": "calc", "arguments": {"x": 1}}\n</tool_call>\nuser\n<tool_response>\nreward=0.0\n</tool_response>\nassistant\nSo the answer is 21.\n\n#### 21';
    const p = responseParts(r);
    expect(p.toolResults).toBe(1);
    expect(p.turns).toEqual(['<tool_call>\n{"name": "calc", "arguments": {"x": 1}}\n</tool_call>', 'So the answer is 21.\n\n#### 21']);
    const t = responseParts('<|im_start|>assistant\nLooking it up.<|im_end|>\n<|im_start|>tool\n{"found": true}<|im_end|>\n<|im_start|>assistant\nIt shipped.');
    expect(t.turns).toEqual(['Looking it up.', 'It shipped.']);
  });
});
