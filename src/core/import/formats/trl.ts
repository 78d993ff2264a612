// TRL GRPOTrainer `log_completions`: `completions/completions_{step:05d}.parquet` with columns
// step, prompt, completion, one column per reward function, extra logged columns, advantage
// (older versions: only step/prompt/completion). Prompt and completion are strings, or lists of
// chat messages for conversational data. Reward = sum of the reward-function columns (TRL's
// default weights are 1); the group key is the prompt within the step.
import { RecordFieldError, chatText, emptySample, hash8, messageToolNames, textToolNames, type Rec } from './common';
import { scalarFields, type ImportedSample } from '../types';

const NOT_REWARD = new Set(['step', 'advantage', 'prompt', 'completion', 'mode', 'image', 'images']);

export function trlRewardColumns(columns: readonly { name: string; numeric: boolean }[]): string[] {
  return columns.filter((c) => c.numeric && !NOT_REWARD.has(c.name)).map((c) => c.name);
}

export function trlSample(r: Rec, rewardColumns: readonly string[], file: string, row: number): ImportedSample {
  const s = emptySample(file, row);
  const st = r.step;
  const step = typeof st === 'bigint' ? Number(st) : typeof st === 'string' && /^\d+$/.test(st) ? Number(st) : st;
  if (typeof step !== 'number' || !Number.isInteger(step) || step < 0) throw new RecordFieldError('column `step`: expected a non-negative integer');
  s.step = step;
  if (r.prompt === undefined) throw new RecordFieldError('missing column `prompt`');
  if (r.completion === undefined) throw new RecordFieldError('missing column `completion`');
  s.prompt = chatText(r.prompt, 'prompt');
  s.response = chatText(r.completion, 'completion');
  // structured calls of chat messages, else the calls written in the completion's text
  const structured = messageToolNames(r.completion);
  s.toolCalls = structured.length ? structured : textToolNames(s.response);
  let sum = 0;
  let any = false;
  for (const c of rewardColumns) {
    const v = typeof r[c] === 'bigint' ? Number(r[c]) : r[c];
    if (v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v))) continue; // TRL logs NaN for a reward function that does not apply
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new RecordFieldError(`column \`${c}\`: expected a finite number`);
    sum += v;
    any = true;
  }
  s.reward = any ? sum : null;
  s.group = `${s.step}:${hash8(s.prompt)}`;
  s.fields = scalarFields(r);
  return s;
}
