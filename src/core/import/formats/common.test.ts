import { describe, expect, it } from 'vitest';
import { textToolNames } from './common';

describe('textToolNames', () => {
  it('names the tools of Qwen/Hermes <tool_call> blocks in order', () => {
    expect(textToolNames('a <tool_call>{"name": "search", "arguments": {"q": "<b>"}}</tool_call> b <tool_call>\n{"name":"answer"}\n</tool_call>')).toEqual(['search', 'answer']);
  });
  it('reads the name of a call whose JSON is cut off; leaves out one without a name', () => {
    expect(textToolNames('<tool_call>{"name": "calc", "arguments": {"x": </tool_call><tool_call>{"arguments": {}}</tool_call>')).toEqual(['calc']);
  });
  it('no tag, no calls; an unclosed tag is not a call; prototype names are plain names', () => {
    expect(textToolNames('ANSWER w1 </s>')).toEqual([]);
    expect(textToolNames('<tool_call>{"name": "search"}')).toEqual([]);
    expect(textToolNames('<tool_call>{"arguments": 1}</tool_call>'.replace('arguments', 'constructor'))).toEqual([]);
    expect(textToolNames('<tool_call>{"name": "__proto__"}</tool_call>')).toEqual(['__proto__']);
  });
});
