// Prompts and responses as trainers write them: chat templates (ChatML / Qwen, Llama 3, Gemma,
// Llama 2 `[INST]`, and the role lines a decode without special tokens leaves), special tokens that
// are not words, a response's parts (reasoning in `<think>`, the assistant's turns around tool
// results, the final answer), and a prompt's request (its user turn, not the system prompt or the
// tools block in front of it).

/** Special tokens of chat templates and tokenizers: never words. */
const SPECIAL = /<\|[^|<>\n]{1,64}\|>|<\/?s>|<(?:bos|eos|pad|unk)>|<(?:start|end)_of_turn>|\[\/?INST\]|<<\/?SYS>>/g;

export function stripSpecial(text: string): string {
  return text.replace(SPECIAL, ' ');
}

export interface Turn {
  role: string;
  text: string;
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool', 'human', 'gpt', 'developer', 'ipython', 'function', 'observation', 'model']);
const USERS = new Set(['user', 'human']);

/** ChatML / Llama 3 / Gemma markers turned into plain role lines ("\nuser\n"), other special tokens dropped. */
function roleLines(text: string): string {
  return stripSpecial(
    text
      .replace(/<\|im_start\|>\s*([a-z]+)[^\S\n]*\n?/g, '\n$1\n')
      .replace(/<\|start_header_id\|>\s*([a-z]+)\s*<\|end_header_id\|>\s*/g, '\n$1\n')
      .replace(/<start_of_turn>\s*([a-z]+)[^\S\n]*\n?/g, '\n$1\n')
      .replace(/<s>\s*\[INST\]|\[INST\]/g, '\nuser\n')
      .replace(/\[\/INST\]/g, '\nassistant\n'),
  );
}

/**
 * The turns of a chat prompt, or null when it is not one: a turn starts at a line that is only a
 * role name. Plain text is a chat only when it starts with a role line (a decode that dropped the
 * special tokens) or has a template's markers.
 */
export function chatTurns(prompt: string): Turn[] | null {
  const marked = /<\|im_start\|>|<\|start_header_id\|>|<start_of_turn>|\[INST\]/.test(prompt);
  const text = roleLines(prompt);
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

/** A response split into its parts, special tokens removed. */
export function responseParts(response: string): ResponseParts {
  let text = roleLines(response);
  let reasoning: string | null = null;
  let cut = false;
  const open = THINK_OPEN.exec(text);
  const closeRe = /<\/(think|thinking|reasoning)>/i;
  const close = closeRe.exec(text);
  if (open && (!close || close.index < open.index)) {
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
