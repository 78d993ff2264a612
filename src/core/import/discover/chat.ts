// Prompts and responses as trainers write them: chat templates (ChatML / Qwen, Llama 3, Gemma,
// Llama 2 `[INST]` and Mistral, DeepSeek, Phi-3 / Zephyr / GLM, Granite, Command R, gpt-oss, plain "User: …
// Assistant:" transcripts, and the role lines a decode without special tokens leaves), special
// tokens that are not words, a response's parts (reasoning in `<think>` or its kin, the assistant's
// turns around tool results, the final answer), and a prompt's request (its user turn, not the
// system prompt or the tools block in front of it).

/**
 * Special tokens of chat templates and tokenizers: never words. DeepSeek writes its tokens with
 * FULLWIDTH bars (U+FF5C) and `▁` (U+2581): `<｜end▁of▁sentence｜>`.
 */
const SPECIAL =
  /<\|[^|<>\n]{1,64}\|>|<｜[^｜<>\n]{1,64}｜>|<\/?s>|<(?:bos|eos|pad|unk|sop|eop)>|<BOS_TOKEN>|\[gMASK\]|<(?:start|end)_of_turn>|\[\/?(?:INST|SYSTEM_PROMPT|AVAILABLE_TOOLS|TOOL_CALLS|TOOL_RESULTS)\]|<<\/?SYS>>/g;

export function stripSpecial(text: string): string {
  return text.replace(SPECIAL, ' ');
}

export interface Turn {
  role: string;
  text: string;
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool', 'human', 'gpt', 'developer', 'ipython', 'function', 'observation', 'model']);
const USERS = new Set(['user', 'human']);

/**
 * Each template's turn and reasoning markers, in one pass (`roleLines`): a role marker's role is its
 * first group that matched, or its text's entry in `FIXED`.
 */
const MARKERS = new RegExp(
  [
    String.raw`<\|im_start\|>\s*([a-z]+)[^\S\n]*\n?`,
    String.raw`<\|start_header_id\|>\s*([a-z]+)\s*<\|end_header_id\|>\s*`,
    String.raw`<start_of_turn>\s*([a-z]+)[^\S\n]*\n?`,
    String.raw`<s>\s*\[INST\]|\[\/?INST\]|\[SYSTEM_PROMPT\]`,
    // Phi-3, Zephyr, GLM: the role is the token
    String.raw`<\|(system|user|assistant|observation)\|>[^\S\n]*\n?`,
    // DeepSeek (V3, R1 and its distills): `<｜User｜>…<｜Assistant｜>`
    String.raw`<｜User｜>|<｜Assistant｜>`,
    String.raw`<\|start_of_role\|>\s*([a-z]+)\s*<\|end_of_role\|>`,
    String.raw`<\|(?:SYSTEM|USER|CHATBOT)_TOKEN\|>`,
    // reasoning: Sky-T1 / Bespoke / OpenThoughts, Magistral, gpt-oss's analysis channel (closed by its `<|end|>`)
    String.raw`<\|begin_of_thought\|>|\[THINK\]|<\|end_of_thought\|>|\[\/THINK\]|<\|channel\|>analysis<\|message\|>|<\|end\|>`,
    // gpt-oss (harmony): a tool's result comes from `functions.x`; a channel's name is not a word
    String.raw`<\|start\|>\s*functions\.[\w.-]+[^<\n]*`,
    String.raw`<\|start\|>\s*([a-z]+)`,
    String.raw`<\|channel\|>[^<\n]*(?:<\|constrain\|>\w+)?`,
  ].join('|'),
  'g',
);

/** MARKERS' groups, each a role. */
const ROLE_GROUPS = 6;

/** What a marker without a role group is written as. */
const FIXED: Record<string, string> = {
  '[INST]': '\nuser\n',
  '[/INST]': '\nassistant\n',
  '[SYSTEM_PROMPT]': '\nsystem\n',
  '<｜User｜>': '\nuser\n',
  '<｜Assistant｜>': '\nassistant\n',
  '<|SYSTEM_TOKEN|>': '\nsystem\n',
  '<|USER_TOKEN|>': '\nuser\n',
  '<|CHATBOT_TOKEN|>': '\nassistant\n',
  '<|begin_of_thought|>': '<think>',
  '[THINK]': '<think>',
  '<|end_of_thought|>': '</think>',
  '[/THINK]': '</think>',
};

/** Each template's turn markers turned into plain role lines ("\nuser\n") and its reasoning into `<think>`, other special tokens dropped. */
function roleLines(text: string): string {
  let analysis = false;
  const marked = text.replace(MARKERS, (m: string, ...groups: unknown[]) => {
    const role = groups.slice(0, ROLE_GROUPS).find((g) => typeof g === 'string');
    if (role) return `\n${role as string}\n`;
    if (m in FIXED) return FIXED[m];
    if (m.startsWith('<s>')) return '\nuser\n';
    if (m === '<|channel|>analysis<|message|>') return (analysis = true), '<think>';
    if (m === '<|end|>') return analysis ? ((analysis = false), '</think>') : ' ';
    return m.startsWith('<|start|>') ? '\ntool\n' : ' ';
  });
  return stripSpecial(marked);
}

/** Templates whose markers say a prompt is a chat. */
const MARKED = /<\|im_start\|>|<\|start_header_id\|>|<start_of_turn>|\[INST\]|<\|(?:system|user|assistant)\|>|<｜(?:User|Assistant)｜>|<\|start_of_role\|>|<\|(?:USER|CHATBOT)_TOKEN\|>|<\|start\|>[a-z]+<\|(?:message|channel)\|>/;

/** Role names of plain transcripts ("User: …", "\n\nHuman: …", Vicuna's "USER: …", Alpaca's "### Instruction:"). */
const PLAIN_ROLE = /(^|\s)(User|Human|USER|### Instruction|### Input|Assistant|ASSISTANT|### Response):/g;
const PLAIN_USER = new Set(['User', 'Human', 'USER', '### Instruction', '### Input']);
/** What may follow a plain transcript's last "Assistant:" (a prefill such as "<think>" or "Let me solve this step by step."). */
const PLAIN_PREFILL = 200;

/**
 * A plain transcript as role lines, or null when the prompt is not one: the DeepSeek-R1-Zero prompt
 * (TinyZero, SimpleRL-Zoo, Open-Reasoner-Zero: one line "… User: {q} Assistant: <think>"),
 * Anthropic HH, Vicuna, Alpaca. It is one only when it ends by handing the turn to the assistant
 * (its last role is the assistant's, a user's before it): prose that quotes "User:" does not.
 */
function plainRoleLines(prompt: string): string | null {
  const marks = [...prompt.matchAll(PLAIN_ROLE)];
  const last = marks.at(-1);
  if (!last || PLAIN_USER.has(last[2]) || !marks.some((m) => PLAIN_USER.has(m[2]))) return null;
  if (prompt.length - (last.index + last[0].length) > PLAIN_PREFILL) return null;
  return prompt.replace(PLAIN_ROLE, (_, sp: string, r: string) => `${sp}\n${PLAIN_USER.has(r) ? 'user' : 'assistant'}\n`);
}

/**
 * The turns of a chat prompt, or null when it is not one: a turn starts at a line that is only a
 * role name. Plain text is a chat only when it starts with a role line (a decode that dropped the
 * special tokens) or has a template's markers.
 */
export function chatTurns(prompt: string): Turn[] | null {
  const plain = MARKED.test(prompt) ? null : plainRoleLines(prompt);
  const marked = plain !== null || MARKED.test(prompt);
  const text = roleLines(plain ?? prompt);
  const lines = text.split('\n');
  const firstLine = lines.find((l) => l.trim() !== '')?.trim().toLowerCase() ?? '';
  if (!marked && !ROLES.has(firstLine)) return null;
  const turns: Turn[] = [];
  let cur: { role: string; lines: string[] } | null = null;
  for (const line of lines) {
    const r = line.trim().toLowerCase();
    if (ROLES.has(r) && r === line.trim()) {
      if (cur) turns.push({ role: cur.role, text: cur.lines.join('\n').trim() });
      cur = { role: r, lines: [] };
    } else if (cur) cur.lines.push(line);
    else if (line.trim()) cur = { role: 'system', lines: [line] };
  }
  if (cur) turns.push({ role: cur.role, text: cur.lines.join('\n').trim() });
  return turns.length ? turns : null;
}

const isToolResult = (t: string) => /^\s*<tool_response>|^\s*<tool_result>|^\s*<observation>/.test(t);

/** The user turns that ask for something (tool results in a user turn are not requests). */
export function userTurns(turns: readonly Turn[]): string[] {
  return turns.filter((t) => USERS.has(t.role) && t.text && !isToolResult(t.text)).map((t) => t.text);
}

/** What a turn answers, from the prompt's last message: the first request, a tool's result, or the user's follow-up. */
export type TurnKind = 'first' | 'after-tool' | 'follow-up';

export function turnKind(turns: readonly Turn[] | null): TurnKind {
  if (!turns) return 'first';
  const last = [...turns].reverse().find((t) => t.role !== 'assistant' || t.text !== '');
  if (!last) return 'first';
  if (last.role === 'tool' || last.role === 'ipython' || last.role === 'function' || last.role === 'observation' || isToolResult(last.text)) return 'after-tool';
  return userTurns(turns).length > 1 ? 'follow-up' : 'first';
}

/** A prompt's turn kind when it is a chat (null: not a chat). */
export function chatTurnKind(prompt: string): TurnKind | null {
  const turns = chatTurns(prompt);
  return turns ? turnKind(turns) : null;
}

export interface ResponseParts {
  /** The reasoning (`<think>…</think>`); null when the response has none. */
  reasoning: string | null;
  /** An opened think that never closed: the response was cut at the length limit. */
  cut: boolean;
  /** The assistant's own text after the reasoning, turn by turn (tool results and role lines removed). */
  turns: string[];
  /** Tool results inside the response (multi-turn rollouts write them in the text). */
  toolResults: number;
}

const THINK_OPEN = /<(think|thinking|reasoning)>/i;

/** Whether a prompt opens the think its response starts inside (DeepSeek-R1's template, R1-Zero's "Assistant: <think>"). */
export function opensThink(prompt: string): boolean {
  return /<think>\s*$/.test(prompt.slice(-64));
}

/**
 * A response split into its parts, special tokens removed. `opened`: its prompt opened the think
 * (`opensThink`), so a response with no think tag at all is a think cut at the length limit.
 */
export function responseParts(response: string, opened = false): ResponseParts {
  let text = roleLines(response);
  let reasoning: string | null = null;
  let cut = false;
  const open = THINK_OPEN.exec(text);
  const closeRe = /<\/(think|thinking|reasoning)>/i;
  const close = closeRe.exec(text);
  if (opened && !open && !close) {
    reasoning = text;
    cut = true;
    text = '';
  } else if (open && (!close || close.index < open.index)) {
    if (close && close.index < open.index) {
      // a template that opens the think in the prompt: the response starts inside it
      reasoning = text.slice(0, close.index);
      text = text.slice(close.index + close[0].length);
    } else {
      reasoning = text.slice(open.index + open[0].length);
      cut = true;
      text = text.slice(0, open.index);
    }
  } else if (open && close) {
    reasoning = text.slice(open.index + open[0].length, close.index);
    text = text.slice(0, open.index) + '\n' + text.slice(close.index + close[0].length);
  } else if (close) {
    reasoning = text.slice(0, close.index);
    text = text.slice(close.index + close[0].length);
  }
  let toolResults = 0;
  text = text.replace(/<(tool_response|tool_result|observation)>[\s\S]*?(<\/\1>|$)/g, () => (toolResults++, '\n\u0000\n'));
  // the text before any role line is the assistant's; a user or tool turn inside the response is not
  const turns: string[] = [];
  let cur: string[] = [];
  let mine = true;
  const flush = () => {
    if (mine && cur.join('').trim()) turns.push(cur.join('\n').trim());
    cur = [];
  };
  for (const line of text.split('\n')) {
    const r = line.trim();
    if (r === '\u0000') flush();
    else if (ROLES.has(r) && line.trim() === r) {
      flush();
      mine = r === 'assistant' || r === 'gpt' || r === 'model';
    } else cur.push(line);
  }
  flush();
  return { reasoning: reasoning === null ? null : reasoning.trim(), cut, turns, toolResults };
}
