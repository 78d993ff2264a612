// verl rollout dumps (`trainer.rollout_data_dir`): one `{step}.jsonl` per step, each line
// {input, output, score, step, ...reward extra infos}; `gts` in newer versions. The n samples of a
// GRPO group share `input`, so the group key is the input's hash within the step. Tool calls are
// in the decoded output (`<tool_call>…</tool_call>`, Qwen's template).
import { RecordFieldError, hash8, reqInt, reqNumber, reqString, textToolNames, type Rec } from './common';
import { emptySample } from './common';
import { scalarFields, type ImportedSample } from '../types';

export function isVerl(r: Rec): boolean {
  return 'input' in r && 'output' in r && 'score' in r;
}

export function verlSample(r: Rec, file: string, line: number): ImportedSample {
  const s = emptySample(file, line);
  s.prompt = reqString(r, 'input');
  s.response = reqString(r, 'output');
  s.toolCalls = textToolNames(s.response);
  s.reward = reqNumber(r, 'score');
  s.step = r.step === undefined ? stepFromName(file) : reqInt(r, 'step');
  s.group = `${s.step}:${hash8(s.prompt)}`;
  s.fields = scalarFields(r);
  return s;
}

/** `12.jsonl` → 12 (the dump's file name is the step when a line lacks `step`). */
export function stepFromName(file: string): number {
  const m = /(\d+)\.jsonl$/.exec(file);
  if (!m) throw new RecordFieldError('missing field `step` (and the file name is not `{step}.jsonl`)');
  return Number(m[1]);
}
