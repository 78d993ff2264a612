// The generic JSONL schema (documented in README.md):
// {step, group_id?, state?, prompt, response, reward, loss_mask?, tokens?, rollout_logprobs?,
//  behavior?, tool_calls?}. `reward` may be null (not judged); everything else optional is omitted.
import { RecordFieldError, emptySample, reqInt, reqString, textToolNames, toolNames, type Rec } from './common';
import { scalarFields, type ImportedSample } from '../types';

export function isGenericJsonl(r: Rec): boolean {
  return 'prompt' in r && 'response' in r && 'step' in r;
}

function label(r: Rec, k: string): string | null {
  const v = r[k];
  if (v === undefined || v === null) return null;
  if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) return String(v);
  throw new RecordFieldError(`field \`${k}\`: expected a string or a number`);
}

export function jsonlSample(r: Rec, file: string, line: number): ImportedSample {
  const s = emptySample(file, line);
  s.step = reqInt(r, 'step');
  s.prompt = reqString(r, 'prompt');
  s.response = reqString(r, 'response');
  if (!('reward' in r)) throw new RecordFieldError('missing field `reward` (use null for a sample that was not judged)');
  if (r.reward !== null && (typeof r.reward !== 'number' || !Number.isFinite(r.reward))) throw new RecordFieldError('field `reward`: expected a finite number or null');
  s.reward = r.reward as number | null;
  const g = label(r, 'group_id');
  s.group = g === null ? null : `${s.step}:${g}`;
  s.state = label(r, 'state');
  s.behavior = label(r, 'behavior');
  if (r.loss_mask !== undefined && r.loss_mask !== null) {
    const m = r.loss_mask;
    if (m === 0 || m === 1) s.lossMask = m;
    else if (Array.isArray(m) && m.every((x) => x === 0 || x === 1)) s.lossMask = m.some((x) => x === 1) ? 1 : 0;
    else throw new RecordFieldError('field `loss_mask`: expected 0, 1 or a list of 0/1');
  }
  if (r.tokens !== undefined && r.tokens !== null) {
    if (!Array.isArray(r.tokens) || !r.tokens.every((t) => typeof t === 'string' || typeof t === 'number')) throw new RecordFieldError('field `tokens`: expected a list of strings or numbers');
    s.tokens = r.tokens.map(String);
  }
  if (r.rollout_logprobs !== undefined && r.rollout_logprobs !== null) {
    const lp = r.rollout_logprobs;
    if (!Array.isArray(lp) || !lp.every((x) => typeof x === 'number' && Number.isFinite(x) && x <= 1e-9)) throw new RecordFieldError('field `rollout_logprobs`: expected a list of finite log-probabilities (≤ 0)');
    if (s.tokens && s.tokens.length !== lp.length) throw new RecordFieldError(`field \`rollout_logprobs\`: ${lp.length} values for ${s.tokens.length} tokens`);
    s.logprobs = lp as number[];
  }
  s.toolCalls = r.tool_calls === undefined || r.tool_calls === null ? textToolNames(s.response) : toolNames(r.tool_calls);
  s.fields = scalarFields(r);
  return s;
}
