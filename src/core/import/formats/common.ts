// Small readers shared by the formats: typed field access with messages that name the field, chat
// content flattening, tool-call names, a string hash for group keys.
import type { ImportedSample } from '../types';

export type Rec = Record<string, unknown>;

export class RecordFieldError extends Error {}

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

export function reqString(r: Rec, k: string): string {
  const v = r[k];
  if (v === undefined) throw new RecordFieldError(`missing field \`${k}\``);
  if (typeof v !== 'string') throw new RecordFieldError(`field \`${k}\`: expected a string, got ${kind(v)}`);
  return v;
}

/** A finite number (numeric strings are refused: a type error in a log is worth reporting). */
export function reqNumber(r: Rec, k: string): number {
  const v = r[k];
  if (v === undefined) throw new RecordFieldError(`missing field \`${k}\``);
  if (typeof v === 'bigint') return Number(v);
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new RecordFieldError(`field \`${k}\`: expected a finite number, got ${kind(v)}${typeof v === 'number' ? ` (${v})` : ''}`);
  return v;
}

export function reqInt(r: Rec, k: string): number {
  const v = reqNumber(r, k);
  if (!Number.isInteger(v) || v < 0) throw new RecordFieldError(`field \`${k}\`: expected a non-negative integer, got ${v}`);
  return v;
}

/** Turn or session id: a string or an integer. */
export function reqKey(r: Rec, k: string): string {
  const v = r[k];
  if (v === undefined || v === null) throw new RecordFieldError(`missing join key \`${k}\``);
  if (typeof v === 'string' && v.length) return v;
  if (typeof v === 'number' && Number.isInteger(v)) return String(v);
  throw new RecordFieldError(`join key \`${k}\`: expected a string or an integer, got ${kind(v)}`);
}

/** Plain text of a chat message's content (string, or OpenAI multimodal parts). */
export function contentText(c: unknown): string {
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((p) => (p && typeof p === 'object' && typeof (p as Rec).text === 'string' ? ((p as Rec).text as string) : '')).filter(Boolean).join(' ');
  return c === null || c === undefined ? '' : String(c);
}

/** Text of a prompt/completion that is a string or a list of chat messages. */
export function chatText(v: unknown, k: string): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((m) => (m && typeof m === 'object' ? contentText((m as Rec).content) : '')).join('\n');
  throw new RecordFieldError(`field \`${k}\`: expected a string or a list of chat messages, got ${kind(v)}`);
}

/** Tool names of OpenAI-style `tool_calls` ({function: {name}}), plain names, or {name}. */
export function toolNames(v: unknown, k = 'tool_calls'): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new RecordFieldError(`field \`${k}\`: expected a list of tool calls, got ${kind(v)}`);
  return v.map((c, i) => {
    if (typeof c === 'string') return c;
    if (c && typeof c === 'object') {
      const f = (c as Rec).function;
      const name = f && typeof f === 'object' ? (f as Rec).name : (c as Rec).name;
      if (typeof name === 'string') return name;
    }
    throw new RecordFieldError(`field \`${k}[${i}]\`: expected a tool call with a name`);
  });
}

/** Tool names called in a list of chat messages (assistant `tool_calls`). */
export function messageToolNames(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((m) => (m && typeof m === 'object' && (m as Rec).tool_calls ? toolNames((m as Rec).tool_calls) : []));
}

const TOOL_CALL_TAG = /<tool_call>([\s\S]*?)<\/tool_call>/g;
const NAME_FIELD = /"name"\s*:\s*"((?:[^"\\]|\\.)*)"/;

/**
 * Tool names called in a response's text, Qwen's / Hermes' chat template:
 * `<tool_call>\n{"name": "search", "arguments": {…}}\n</tool_call>` (verl and TRL log the decoded
 * text; the calls are not a separate field). A call whose JSON does not parse still names its tool
 * when a `"name": "…"` is readable; one without a name is left out.
 */
export function textToolNames(text: string): string[] {
  if (!text.includes('<tool_call>')) return [];
  const names: string[] = [];
  for (const m of text.matchAll(TOOL_CALL_TAG)) {
    const body = m[1].trim();
    let name: unknown;
    try {
      const call = JSON.parse(body) as unknown;
      if (call && typeof call === 'object' && !Array.isArray(call)) name = Object.hasOwn(call, 'name') ? (call as Rec).name : undefined;
    } catch {
      const n = NAME_FIELD.exec(body);
      if (n) name = JSON.parse(`"${n[1]}"`) as string;
    }
    if (typeof name === 'string' && name) names.push(name);
  }
  return names;
}

/** FNV-1a (32-bit) as 8 hex digits: group keys without holding whole prompts in memory. */
export function hash8(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

export function emptySample(file: string, line: number): ImportedSample {
  return { file, line, step: 0, group: null, prompt: '', response: '', reward: null, toolCalls: [], votes: [], tokens: null, logprobs: null, lossMask: null, behavior: null, state: null, fields: {} };
}
