// TRL GRPOTrainer `log_completions`: `completions/completions_{step:05d}.parquet` with columns
// step, prompt, completion, one column per reward function, extra logged columns, advantage
// (older versions: only step/prompt/completion). Prompt and completion are strings, or lists of
// chat messages for conversational data. Reward = sum of the reward-function columns (TRL's
// default weights are 1); the group key is the prompt within the step.
import { RecordFieldError, chatText, emptySample, hash8, messageToolNames, textToolNames, type Rec } from './common';
import { EXPECTED } from './detect';
import type { ParquetOpen, ParquetTable } from '../read/parquet';
import { fieldChecked } from '../read/records';
import type { ImportFileSummary, SampleSink } from '../read/tally';
import { errorText } from '../../unknown';
import { scalarFields, type ImportSource, type ImportedSample } from '../types';

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

/** A whole completions file, row group by row group (a parquet file is readable once its footer is written). */
export async function readTrlFile(src: ImportSource, openParquet: ParquetOpen | undefined, sum: ImportFileSummary, sink: SampleSink): Promise<void> {
  if (!openParquet) return sink.issue(src.name, 0, 'parquet files cannot be read here (no parquet reader was given to the import)', sum);
  const file = { byteLength: src.size, slice: (a: number, b?: number) => src.slice(a, b ?? src.size) };
  let table: ParquetTable;
  try {
    table = await openParquet(file);
  } catch (e) {
    return sink.issue(src.name, 0, `not a readable parquet file (${errorText(e)})`, sum);
  }
  const names = table.columns.map((c) => c.name);
  const missing = ['step', 'prompt', 'completion'].find((need) => !names.includes(need));
  if (missing) return sink.issue(src.name, 0, `missing column \`${missing}\` (columns: ${names.join(', ')}); ${EXPECTED}`, sum);
  const rewards = trlRewardColumns(table.columns);
  let rowStart = 0;
  for (const n of table.rowGroups) {
    const rows = await table.read(rowStart, rowStart + n);
    rows.forEach((r, i) => fieldChecked(sink, src.name, rowStart + i + 1, sum, () => sink.sample(trlSample(r, rewards, src.name, rowStart + i + 1), sum)));
    rowStart += n;
  }
}
