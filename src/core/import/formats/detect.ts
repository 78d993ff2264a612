// Which format a file is, from its name and first record. Unknown files get a message that names
// what was expected, so a user can see which field is missing.
import { isGenericJsonl } from './jsonl';
import { isOpenClawPrm, isOpenClawRecord } from './openclaw';
import { isVerl } from './verl';
import type { FileKind, FormatId } from '../types';

export type { FileKind } from '../types';

export const KIND_FORMAT: Record<FileKind, FormatId> = { 'openclaw-record': 'openclaw', 'openclaw-prm': 'openclaw', verl: 'verl', jsonl: 'jsonl', trl: 'trl' };

export const FORMAT_LABELS: Record<FormatId, string> = {
  openclaw: 'OpenClaw-RL record + PRM JSONL',
  verl: 'verl rollout dump ({step}.jsonl)',
  trl: 'TRL GRPO completions (parquet)',
  jsonl: 'generic JSONL',
};

export const EXPECTED =
  'expected one of: OpenClaw-RL record {session_id, turn, prompt_text, response_text, tool_calls, next_state} or its PRM record {session_id, turn, score | accepted, votes}; ' +
  'verl rollout dump {input, output, score, step}; TRL completions_*.parquet {step, prompt, completion, <reward columns>, advantage}; ' +
  'generic JSONL {step, prompt, response, reward, group_id?, state?, loss_mask?, tokens?, rollout_logprobs?, behavior?, tool_calls?}';

export function isParquet(name: string, head: Uint8Array | null): boolean {
  if (head && head.length >= 4) return head[0] === 0x50 && head[1] === 0x41 && head[2] === 0x52 && head[3] === 0x31; // "PAR1"
  return /\.parquet$/i.test(name);
}

/** Kind of a JSONL file from its first record; null when nothing fits. */
export function detectKind(first: Record<string, unknown>): FileKind | null {
  if (isOpenClawRecord(first)) return 'openclaw-record';
  if (isOpenClawPrm(first)) return 'openclaw-prm';
  if (isVerl(first)) return 'verl';
  if (isGenericJsonl(first)) return 'jsonl';
  return null;
}

export function unknownFormatMessage(file: string, first: Record<string, unknown>): string {
  const keys = Object.keys(first).slice(0, 12);
  return `${file}: unknown format: the first record has fields {${keys.join(', ')}}${Object.keys(first).length > 12 ? ', …' : ''}; ${EXPECTED}`;
}
