/**
 * A response as the rollout viewer shows it (pure): its reasoning apart (what discovery reads as the
 * think: discover/chat.ts `responseParts`, told by `opensThink` whether the prompt opened it), with its
 * length in words and whether it was cut at the length limit (an unclosed think), and the rest as
 * written, tool results inside it marked.
 */
import { opensThink, responseParts, stripSpecial } from '../../core/import/discover/chat';
import { words } from '../../core/import/discover/text';

export interface ResponsePiece {
  text: string;
  /** A tool's result written into the response (a multi-turn rollout), not the model's own words. */
  tool: boolean;
}

export interface ResponseView {
  /** The think; null when the response has none. */
  reasoning: string | null;
  /** Its length in words (any script: Chinese or Thai split into words). */
  reasoningWords: number;
  /** The think never closed: the response was cut at the length limit. */
  cut: boolean;
  /** The response without its think, as written. */
  answer: ResponsePiece[];
}

const OPEN = /<(think|thinking|reasoning)>/i;
const CLOSE = /<\/(think|thinking|reasoning)>/i;
const TOOL_RESULT = /<(tool_response|tool_result|observation)>[\s\S]*?(?:<\/\1>|$)/g;
const WORDLIKE = /[\p{L}\p{N}#]/u;

/** `prompt`: the sample's prompt; one that ends with `<think>` (DeepSeek-R1, R1-Zero) makes a response with no think tag a think cut at the limit. */
export function responseView(response: string, prompt = ''): ResponseView {
  const parts = responseParts(response, opensThink(prompt));
  const rest = parts.reasoning === null ? response : withoutThink(response, parts.cut);
  return {
    reasoning: parts.reasoning,
    reasoningWords: parts.reasoning === null ? 0 : words(parts.reasoning, 1e6).filter((w) => WORDLIKE.test(w)).length,
    cut: parts.cut,
    answer: pieces(rest.trim()),
  };
}

/** The text around the think (which responseParts found): before an unclosed one, around a closed one, after a close whose open was in the prompt. */
function withoutThink(text: string, cut: boolean): string {
  const open = OPEN.exec(text);
  if (cut) return open ? text.slice(0, open.index) : '';
  const close = CLOSE.exec(text);
  if (!close) return text;
  const after = text.slice(close.index + close[0].length);
  return open && open.index < close.index ? text.slice(0, open.index) + after : after;
}

function pieces(text: string): ResponsePiece[] {
  const out: ResponsePiece[] = [];
  let at = 0;
  for (const m of text.matchAll(TOOL_RESULT)) {
    if (m.index > at) out.push({ text: text.slice(at, m.index), tool: false });
    out.push({ text: m[0], tool: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at), tool: false });
  return out;
}

/** A row's line: the answer's start (chat-template tokens left out), after the think's length in words ("[think · 228 words] The answer is…"). */
export function responseLine(v: ResponseView, max = 160): string {
  const answer = stripSpecial(v.answer.map((p) => p.text).join('')).replace(/\s+/g, ' ').trim();
  const think = v.reasoning === null ? '' : `[think · ${v.reasoningWords} words${v.cut ? ', cut off' : ''}] `;
  return (think + answer).slice(0, max).trim() || '(empty response)';
}
