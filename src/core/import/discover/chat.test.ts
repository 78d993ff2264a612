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

  it('DeepSeek, Phi-3 / Zephyr, GLM, Mistral v7, Granite, Command R, gpt-oss and Llama 3 tool turns give the user turn', () => {
    const q = 'Where is my order A123?';
    const forms = [
      // DeepSeek-R1 and its distills: FULLWIDTH bars, the think opened by the template
      `<｜begin▁of▁sentence｜><｜User｜>${q}<｜Assistant｜><think>\n`,
      `<｜begin▁of▁sentence｜>${SYSTEM}<｜User｜>${q}<｜Assistant｜>`,
      `<|system|>\n${SYSTEM}<|end|>\n<|user|>\n${q}<|end|>\n<|assistant|>\n`,
      `<|system|>\n${SYSTEM}</s>\n<|user|>\n${q}</s>\n<|assistant|>\n`,
      `[gMASK]<sop><|system|>\n${SYSTEM}<|user|>\n${q}<|assistant|>`,
      `<s>[SYSTEM_PROMPT]${SYSTEM}[/SYSTEM_PROMPT][INST]${q}[/INST]`,
      `<|start_of_role|>system<|end_of_role|>${SYSTEM}<|end_of_text|>\n<|start_of_role|>user<|end_of_role|>${q}<|end_of_text|>\n<|start_of_role|>assistant<|end_of_role|>`,
      `<BOS_TOKEN><|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|>${SYSTEM}<|END_OF_TURN_TOKEN|><|START_OF_TURN_TOKEN|><|USER_TOKEN|>${q}<|END_OF_TURN_TOKEN|><|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>`,
      `<|start|>system<|message|>${SYSTEM}<|end|><|start|>user<|message|>${q}<|end|><|start|>assistant`,
    ];
    for (const f of forms) expect(userTurns(chatTurns(f)!), f).toEqual([q]);
    const ipython = `<|start_header_id|>user<|end_header_id|>\n\n${q}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n<|python_tag|>lookup("A123")<|eom_id|><|start_header_id|>ipython<|end_header_id|>\n\n{"status": "paid"}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n`;
    const harmony = `<|start|>user<|message|>${q}<|end|><|start|>assistant<|channel|>commentary to=functions.lookup <|constrain|>json<|message|>{"id": "A123"}<|call|><|start|>functions.lookup to=assistant<|channel|>commentary<|message|>{"status": "paid"}<|end|><|start|>assistant`;
    for (const f of [ipython, harmony]) {
      expect(userTurns(chatTurns(f)!)).toEqual([q]);
      expect(turnKind(chatTurns(f))).toBe('after-tool');
    }
  });

  it('a plain transcript that hands the turn to the assistant is a chat: R1-Zero, Anthropic HH, Vicuna, Alpaca', () => {
    const q = 'Using the numbers [3, 7, 12], create an equation that equals 33.';
    const r1zero = `A conversation between User and Assistant. The user asks a question, and the Assistant solves it. The reasoning process and answer are enclosed within <think> </think> and <answer> </answer> tags. User: ${q} Assistant: <think>`;
    expect(chatTurns(r1zero)).toEqual([
      { role: 'system', text: 'A conversation between User and Assistant. The user asks a question, and the Assistant solves it. The reasoning process and answer are enclosed within <think> </think> and <answer> </answer> tags.' },
      { role: 'user', text: q },
      { role: 'assistant', text: '<think>' },
    ]);
    // TinyZero's base-model prompt: the assistant's turn is prefilled
    expect(userTurns(chatTurns(`${r1zero.slice(0, -8)} Let me solve this step by step.\n<think>`)!)).toEqual([q]);
    const hh = `\n\nHuman: Hi there\n\nAssistant: Hello! How can I help?\n\nHuman: ${q}\n\nAssistant:`;
    expect(userTurns(chatTurns(hh)!)).toEqual(['Hi there', q]);
    expect(turnKind(chatTurns(hh))).toBe('follow-up');
    expect(userTurns(chatTurns(`A chat between a curious user and an artificial intelligence assistant. USER: ${q} ASSISTANT:`)!)).toEqual([q]);
    expect(userTurns(chatTurns(`Below is an instruction that describes a task.\n\n### Instruction:\n${q}\n\n### Response:\n`)!)).toEqual([q]);
    // prose that quotes a role, or a transcript whose last word is the user's, is not a chat
    expect(chatTurns('The log reads "User: reset" and then "Assistant: done". Which came first?')).toBeNull();
    expect(chatTurns(`Assistant: Hello.\nUser: ${q}`)).toBeNull();
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
    expect(stripSpecial('Done.<｜end▁of▁sentence｜>').trim()).toBe('Done.');
    expect(stripSpecial('[gMASK]<sop>Done.[TOOL_CALLS]').trim()).toBe('Done.');
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

  it('other templates\' reasoning: DeepSeek (the think opened in the prompt), Sky-T1 / OpenThoughts, Magistral, gpt-oss; TRL\'s <reasoning> kept', () => {
    const done = { reasoning: 'So x is 2.', cut: false, turns: ['The answer is 2.'], toolResults: 0 };
    expect(responseParts('So x is 2.\n</think>\n\nThe answer is 2.<｜end▁of▁sentence｜>')).toEqual(done);
    expect(responseParts('<|begin_of_thought|>\n\nSo x is 2.\n\n<|end_of_thought|>\n\n<|begin_of_solution|>\n\nThe answer is 2.\n\n<|end_of_solution|><|im_end|>')).toEqual(done);
    expect(responseParts('[THINK]So x is 2.[/THINK]The answer is 2.</s>')).toEqual(done);
    expect(responseParts('<|channel|>analysis<|message|>So x is 2.<|end|><|start|>assistant<|channel|>final<|message|>The answer is 2.<|return|>')).toEqual(done);
    expect(responseParts('<think>So x is 2.</think>The answer is 2.<|end|>')).toEqual(done);
    expect(responseParts('<|begin_of_thought|>\nSo x is 2, and then').cut).toBe(true);
    expect(responseParts('<reasoning>\nSo x is 2.\n</reasoning>\n<answer>\n2\n</answer>')).toEqual({ ...done, turns: ['<answer>\n2\n</answer>'] });
    expect(responseParts(' So x is 2. </think> <answer> 2 </answer><|endoftext|>')).toEqual({ ...done, turns: ['<answer> 2 </answer>'] });
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
