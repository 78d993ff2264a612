// The lab's own runs written in the formats the importer reads (OpenClaw-RL record + PRM, verl
// step files, generic JSONL; TRL parquet rows for a parquet writer), from the runs' sample traces.
// A response is the lab's token names ("PLAN w3 STEP ANSWER EOS"); its marker tokens are written as
// the tool calls of the OpenClaw record, so tool-sequence rules can classify it. The prompt names the
// task and state ("task=strategies state=math"), so a regex state rule recovers the state.
import type { Config } from '../../config';
import type { SampleTrace } from '../../metrics';
import { EOS, MARKER_NAMES, tokenName } from '../../tasks/vocab';
import { taskOf } from '../../tasks/registry';
import type { BehaviorRuleSet, StatesSpec } from '../rules/rules';

export type ExportFormat = 'openclaw' | 'verl' | 'jsonl';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['openclaw', 'verl', 'jsonl'];

export interface StepTraces {
  step: number;
  traces: readonly SampleTrace[];
}

export interface ExportedFile {
  name: string;
  text: string;
}

const MARKERS = new Set<string>(MARKER_NAMES);

export function promptOf(config: Config, t: SampleTrace): string {
  return `task=${config.task} state=${t.state}${t.hint ? ` hint=${t.hint.split(' ')[0]}` : ''}`;
}

/** Marker tokens of a response, lower-cased, as tool names. */
export function toolsOf(response: string): string[] {
  return response.split(' ').filter((w) => MARKERS.has(w)).map((w) => w.toLowerCase());
}

const lines = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : '');

function sessionId(step: number, t: SampleTrace): string {
  return `lab-${step}-${t.session}`;
}

export function exportRun(steps: readonly StepTraces[], config: Config, format: ExportFormat, base = 'invariant-lab'): ExportedFile[] {
  const all = steps.flatMap(({ step, traces }) => traces.map((t) => ({ step, t })));
  if (format === 'jsonl')
    return [
      {
        name: `${base}.jsonl`,
        text: lines(
          all.map(({ step, t }) => ({
            step,
            group_id: Math.floor(t.session / (config.method === 'grpo' || config.method === 'dr-grpo' ? config.groupSize : 1)),
            state: t.state,
            prompt: promptOf(config, t),
            response: t.response,
            reward: t.votes.length || t.queued ? t.reward : null,
            loss_mask: t.queued ? t.lossMask : 0,
            tokens: t.response.split(' '),
            behavior: t.behavior,
          })),
        ),
      },
    ];
  if (format === 'verl')
    return steps.map(({ step, traces }) => ({
      name: `${step}.jsonl`,
      text: lines(traces.map((t) => ({ input: promptOf(config, t), output: t.response, score: t.reward, step, acc: t.reward > 0, lab_behavior: t.behavior }))),
    }));
  // OpenClaw-RL: one record per main turn; the PRM file holds the judged turns (a turn with a next state)
  const rec = all.map(({ step, t }) => ({
    session_id: sessionId(step, t),
    turn: t.turn + 1,
    timestamp: '',
    messages: [{ role: 'user', content: promptOf(config, t) }],
    prompt_text: promptOf(config, t),
    response_text: t.response,
    tool_calls: toolsOf(t.response).map((name, i) => ({ id: `call_${i}`, type: 'function', function: { name, arguments: '{}' } })),
    next_state: t.votes.length || t.hintVotes.length ? { role: 'user', content: '(next state)' } : null,
    step,
  }));
  const opd = config.method === 'opd';
  const prm = all
    .filter(({ t }) => t.votes.length || t.hintVotes.length)
    .map(({ step, t }) =>
      opd
        ? { session_id: sessionId(step, t), turn: t.turn + 1, accepted: t.hint !== null, hint: t.hint ?? '', ...(t.hint ? { hint_len: t.hint.length } : {}), votes: t.hintVotes.map((v) => ({ score: v.startsWith('+1') ? 1 : -1, hint: v })) }
        : { session_id: sessionId(step, t), turn: t.turn + 1, score: t.score, votes: t.votes },
    );
  return [
    { name: `${base}.jsonl`, text: lines(rec) },
    { name: `${base}_prm.jsonl`, text: lines(prm) },
  ];
}

/** TRL `completions_{step:05d}.parquet` columns of one step (for a parquet writer). */
export function trlColumns(config: Config, traces: readonly SampleTrace[], step: number) {
  return {
    name: `completions_${String(step).padStart(5, '0')}.parquet`,
    columns: {
      step: traces.map(() => step),
      prompt: traces.map((t) => promptOf(config, t)),
      completion: traces.map((t) => t.response),
      lab_reward: traces.map((t) => t.reward),
      advantage: traces.map((t) => t.advMean),
    },
  };
}

/**
 * Rules that reproduce the lab's own classifier of a task on exported text: the marker sequence as
 * a tool sequence (OpenClaw records), or as a response regex (markers, fillers `w<i>`, then EOS).
 */
export function labRules(config: Config, by: 'tools' | 'regex'): { states: StatesSpec; behaviors: BehaviorRuleSet } {
  const task = taskOf(config);
  return {
    states: { kind: 'regex', pattern: 'state=(\\S+)' },
    behaviors: {
      rules: task.behaviors.map((b) =>
        by === 'tools'
          ? { label: b.name, toolSeq: b.markers.map((m) => tokenName(m).toLowerCase()), responseRegex: `^(?:(?:[A-Z]+|w\\d+) )*${tokenName(EOS)}$` }
          : { label: b.name, responseRegex: `^(?:w\\d+ )*${b.markers.map((m) => `${tokenName(m)}(?: w\\d+)*`).join(' ')} ${tokenName(EOS)}$` },
      ),
      fallback: 'invalid',
    },
  };
}
