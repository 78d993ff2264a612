// Each format on good and malformed input: truncated lines, wrong types, missing join keys, BOM,
// CRLF, empty files; detection and its messages.
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { openParquet } from '../../../io/hyparquet';
import { snapshotStep } from '../formats/openclaw';
import type { Rec } from '../formats/common';
import { ImportError, importSamples } from './pipeline';
import { memorySource } from '../sources';
import type { ImportSource, ImportedSample } from '../types';

async function run(sources: ImportSource[], format?: 'openclaw' | 'verl' | 'trl' | 'jsonl') {
  const samples: ImportedSample[] = [];
  const r = await importSamples(sources, { format, parquet: openParquet }, (s) => samples.push(s));
  return { ...r, samples };
}
const jl = (rows: unknown[], eol = '\n') => rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join(eol) + eol;

describe('OpenClaw-RL record + PRM', () => {
  const rec = (session: string, turn: number, extra: Record<string, unknown> = {}) => ({
    session_id: session,
    turn,
    timestamp: '2026-03-01 10:00:00',
    messages: [{ role: 'user', content: 'find the file' }],
    prompt_text: '<|user|>find the file',
    response_text: 'Let me search.',
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{}' } }],
    next_state: { role: 'user', content: 'thanks' },
    ...extra,
  });

  it('joins Binary RL PRM records on (session_id, turn); loss mask follows OpenClaw', async () => {
    const r = await run([
      memorySource('rec.jsonl', jl([rec('s1', 1), rec('s1', 2, { next_state: null, tool_calls: null }), rec('s2', 1)])),
      memorySource('rec_prm.jsonl', jl([{ session_id: 's1', turn: 1, score: 1, votes: [1, 1, 0], representative_eval: '...' }, { session_id: 's2', turn: 1, score: 0, votes: [1, -1, null] }])),
    ]);
    expect(r.format).toBe('openclaw');
    expect(r.issues).toEqual([]);
    expect(r.samples.map((s) => [s.group, s.reward, s.lossMask, s.toolCalls])).toEqual([
      ['s1', 1, 1, ['search']],
      ['s1', null, 0, []],
      ['s2', 0, 0, ['search']],
    ]);
    expect(r.samples[0].fields.prm_votes_pos).toBe(2);
    expect(r.samples[0].step).toBe(0);
  });

  it('reads OPD PRM records (accepted, hint, votes as objects)', async () => {
    const r = await run([
      memorySource('a.jsonl', jl([rec('s', 1), rec('s', 2)])),
      memorySource('a_prm.jsonl', jl([{ session_id: 's', turn: 1, accepted: true, hint: 'check first', hint_len: 11, votes: [{ score: 1, hint: 'x' }] }, { session_id: 's', turn: 2, accepted: false, hint: '', votes: [{ score: -1 }] }])),
    ]);
    expect(r.samples.map((s) => [s.lossMask, s.fields.prm_accepted, s.fields.prm_hint_len])).toEqual([
      [1, true, 11],
      [0, false, null],
    ]);
  });

  it('reports missing join keys, wrong types, orphan PRM lines and a truncated last line', async () => {
    const r = await run([
      memorySource('r.jsonl', jl([rec('s', 1), { ...rec('s', 2), session_id: undefined }, rec('s', 3, { turn: [3] }), rec('s', 4, { response_text: 5 })]) + '{"session_id": "s", "tu'),
      memorySource('r_prm.jsonl', jl([{ session_id: 's', turn: 1, score: '1' }, { session_id: 's', turn: 9, score: 1 }, { turn: 1, score: 1 }])),
    ]);
    const msgs = r.issues.map((i) => `${i.file}:${i.line} ${i.message}`);
    expect(msgs).toEqual([
      expect.stringMatching(/^r_prm.jsonl:1 field `score`: expected a finite number/),
      expect.stringMatching(/^r_prm.jsonl:3 missing join key `session_id`/),
      expect.stringMatching(/^r.jsonl:2 missing join key `session_id`/),
      expect.stringMatching(/^r.jsonl:3 join key `turn`: expected a string or an integer/),
      expect.stringMatching(/^r.jsonl:4 field `response_text`: expected a string/),
      expect.stringMatching(/^r.jsonl:5 truncated/),
      expect.stringMatching(/^r.jsonl:1 1 record has a next_state but no PRM line \(line 1\): left unjudged/),
      expect.stringMatching(/^r_prm.jsonl:2 PRM record \(session_id, turn\) = \(s, 9\) has no conversation record/),
    ]);
    expect(r.samples.length).toBe(1);
    expect(r.samples[0].reward).toBeNull(); // its PRM line was malformed: not judged, not invented
  });

  it("a run's per-step snapshot directories give the steps; sessions spanning steps stay whole; unjudged turns with a next state are counted", async () => {
    // OpenClaw clears both files when training starts (purge_record_files): one snapshot per step
    const step = (n: string, recs: Rec[], prms: Rec[]) => [memorySource(`run/${n}/qwen3_4b_record.jsonl`, jl(recs)), memorySource(`run/${n}/qwen3_4b_record_prm.jsonl`, jl(prms))];
    const many = Array.from({ length: 20 }, (_, i) => rec(`s${i % 3}`, i + 1));
    const r = await run([
      ...step('step_0002', many, many.slice(0, 17).map((x) => ({ session_id: x.session_id, turn: x.turn, score: 1, votes: [1, 1, 1] }))),
      ...step('step_0003', [rec('s0', 30), rec('s1', 31, { next_state: null })], [{ session_id: 's0', turn: 30, score: -1, votes: [-1, -1, 0] }]),
    ]);
    // 20 records in one step, not cut every 16 (which split sessions across pseudo-steps)
    expect(r.samples.map((s) => s.step)).toEqual([...Array(20).fill(2), 3, 3]);
    expect(r.issues.map((i) => `${i.file}:${i.line} ${i.message}`)).toEqual([expect.stringMatching(/^run\/step_0002\/qwen3_4b_record.jsonl:18 3 records have a next_state but no PRM line \(lines 18, 19, 20\): left unjudged, loss mask 0/)]);
  });

  it('record files whose directories have no numbers take their place as the step, and say so', async () => {
    const r = await run([memorySource('a/rec.jsonl', jl([rec('s', 1)])), memorySource('b/rec.jsonl', jl([rec('s', 2)])), memorySource('b/rec_prm.jsonl', jl([{ session_id: 's', turn: 1, score: 1 }, { session_id: 's', turn: 2, score: 0 }]))]);
    expect(r.samples.map((s) => s.step)).toEqual([1, 2]);
    expect(r.issues.map((i) => i.message)).toEqual([expect.stringMatching(/take the file's place as their step \(1\)/), expect.stringMatching(/\(2\)/)]);
  });

  it('snapshotStep: the number of the nearest directory that has one', () => {
    expect(snapshotStep('run/step_0012/qwen3_4b_record.jsonl')).toBe(12);
    expect(snapshotStep('C:\\runs\\r7\\snap-3\\x.jsonl')).toBe(3);
    expect(snapshotStep('qwen3_4b_record.jsonl')).toBeNull();
    expect(snapshotStep('run/latest/x.jsonl')).toBeNull();
  });

  it('says so when no PRM file is given; steps follow the rollout batch', async () => {
    const rows = Array.from({ length: 20 }, (_, i) => rec('s', i + 1));
    const samples: ImportedSample[] = [];
    const r = await importSamples([memorySource('only.jsonl', jl(rows))], { openclawBatch: 8 }, (s) => samples.push(s));
    expect(r.issues[0].message).toMatch(/no PRM record file/);
    expect(samples.map((s) => s.step)).toEqual([...Array(8).fill(0), ...Array(8).fill(1), ...Array(4).fill(2)]);
  });
});

describe('verl rollout dumps', () => {
  it('reads several step files with BOM and CRLF; groups by input within the step', async () => {
    const r = await run([
      memorySource('3.jsonl', '\uFEFF' + jl([{ input: 'q1', output: 'a', score: 1, step: 3, acc: true }, { input: 'q1', output: 'b', score: 0, step: 3 }], '\r\n')),
      memorySource('4.jsonl', jl([{ input: 'q1', output: 'c', score: 1, step: 4 }])),
    ]);
    expect(r.format).toBe('verl');
    expect(r.issues).toEqual([]);
    expect(r.samples.map((s) => [s.step, s.response, s.reward])).toEqual([
      [3, 'a', 1],
      [3, 'b', 0],
      [4, 'c', 1],
    ]);
    expect(r.samples[0].group).toBe(r.samples[1].group);
    expect(r.samples[0].group).not.toBe(r.samples[2].group);
    expect(r.samples[0].fields.acc).toBe(true);
  });

  it('reports wrong types and a truncated line, takes the step from the file name when missing', async () => {
    const r = await run([memorySource('run/7.jsonl', jl([{ input: 'q', output: 'a', score: 'high', step: 7 }, { input: 'q', output: 'a', score: 1 }, { input: 1, output: 'a', score: 1, step: 7 }]) + '{"input": "q", "out')]);
    expect(r.issues.map((i) => [i.line, i.message.split(' (')[0]])).toEqual([
      [1, 'field `score`: expected a finite number, got a string'],
      [3, 'field `input`: expected a string, got a number'],
      [4, 'truncated or malformed last line'],
    ]);
    expect(r.samples.map((s) => s.step)).toEqual([7]);
  });

  it("reads tool calls from the output text (Qwen's <tool_call> template), so toolSeq / firstAction see them", async () => {
    const out = 'Let me look.\n<tool_call>\n{"name": "search", "arguments": {"q": "x"}}\n</tool_call>\n<tool_call>\n{"name": "calc", "arguments": {}}\n</tool_call>';
    const r = await run([memorySource('1.jsonl', jl([{ input: 'q', output: out, score: 1, step: 1 }, { input: 'q', output: 'no tools', score: 0, step: 1 }]))]);
    expect(r.samples.map((s) => s.toolCalls)).toEqual([['search', 'calc'], []]);
  });

  it('an empty file is reported and skipped', async () => {
    const r = await run([memorySource('1.jsonl', ''), memorySource('2.jsonl', jl([{ input: 'q', output: 'a', score: 1, step: 2 }]))]);
    expect(r.issues).toEqual([{ file: '1.jsonl', line: 0, message: 'empty file' }]);
    expect(r.samples.length).toBe(1);
  });
});

describe('generic JSONL', () => {
  it('reads every optional field', async () => {
    const r = await run([memorySource('g.jsonl', jl([{ step: 0, group_id: 7, state: 'math', prompt: 'p', response: 'x y', reward: 1, loss_mask: [0, 1], tokens: ['x', 'y'], rollout_logprobs: [-0.1, -2], behavior: 'direct', tool_calls: ['calc'] }, { step: 0, prompt: 'p', response: 'z', reward: null }]))]);
    expect(r.issues).toEqual([]);
    const [a, b] = r.samples;
    expect([a.group, a.state, a.behavior, a.lossMask, a.tokens, a.logprobs, a.toolCalls]).toEqual(['0:7', 'math', 'direct', 1, ['x', 'y'], [-0.1, -2], ['calc']]);
    expect([b.group, b.reward, b.lossMask]).toEqual([null, null, null]);
  });

  it('reports wrong types, mismatched log-probs and a missing reward', async () => {
    const r = await run([
      memorySource(
        'g.jsonl',
        jl([
          { step: -1, prompt: 'p', response: 'r', reward: 1 },
          { step: 0, prompt: 'p', response: 'r' },
          { step: 0, prompt: 'p', response: 'r', reward: 1, tokens: ['a'], rollout_logprobs: [-1, -1] },
          { step: 0, prompt: 'p', response: 'r', reward: 1, rollout_logprobs: [0.5] },
          { step: 0, prompt: 'p', response: 'r', reward: 1, loss_mask: 2 },
          { step: 0, prompt: 'p', response: 'r', reward: 1 },
        ]),
      ),
    ]);
    expect(r.issues.map((i) => i.line)).toEqual([1, 2, 3, 4, 5]);
    expect(r.issues[1].message).toMatch(/missing field `reward`/);
    expect(r.issues[2].message).toMatch(/2 values for 1 tokens/);
    expect(r.samples.length).toBe(1);
  });
});

describe('TRL completions parquet', () => {
  const pq = (cols: { name: string; data: unknown[]; type: string }[]) => new Uint8Array(parquetWriteBuffer({ columnData: cols as never, rowGroupSize: 2 }));

  it('reads rows across row groups; reward = sum of reward columns (NaN = not applicable)', async () => {
    const bytes = pq([
      { name: 'step', data: [5n, 5n, 5n], type: 'INT64' },
      { name: 'prompt', data: ['q', 'q', 'r'], type: 'STRING' },
      { name: 'completion', data: [[{ role: 'assistant', content: 'hi', tool_calls: [{ function: { name: 'web' } }] }], 'b', 'c'], type: 'JSON' },
      { name: 'format_reward', data: [1, 0, NaN], type: 'DOUBLE' },
      { name: 'accuracy_reward', data: [0.5, 1, NaN], type: 'DOUBLE' },
      { name: 'advantage', data: [0.2, -0.2, 0], type: 'DOUBLE' },
    ]);
    const r = await run([memorySource('completions_00005.parquet', bytes)]);
    expect(r.format).toBe('trl');
    expect(r.issues).toEqual([]);
    expect(r.samples.map((s) => [s.step, s.response, s.reward, s.toolCalls, s.line])).toEqual([
      [5, 'hi', 1.5, ['web'], 1],
      [5, 'b', 1, [], 2],
      [5, 'c', null, [], 3],
    ]);
    expect(r.samples[0].group).toBe(r.samples[1].group);
  });

  it('a string completion with <tool_call> text gives its tool calls', async () => {
    const bytes = pq([
      { name: 'step', data: [1n], type: 'INT64' },
      { name: 'prompt', data: ['q'], type: 'STRING' },
      { name: 'completion', data: ['<tool_call>\n{"name": "web", "arguments": {}}\n</tool_call>'], type: 'STRING' },
    ]);
    const r = await run([memorySource('completions_00001.parquet', bytes)]);
    expect(r.samples[0].toolCalls).toEqual(['web']);
  });

  it('reports a missing column, a bad step and a file that is not parquet', async () => {
    const noCompletion = pq([{ name: 'step', data: [1n], type: 'INT64' }, { name: 'prompt', data: ['q'], type: 'STRING' }]);
    const badStep = pq([{ name: 'step', data: ['x'], type: 'STRING' }, { name: 'prompt', data: ['q'], type: 'STRING' }, { name: 'completion', data: ['a'], type: 'STRING' }]);
    const r = await run([memorySource('a.parquet', noCompletion), memorySource('b.parquet', badStep), memorySource('c.parquet', 'PAR1 not really')], 'trl');
    expect(r.issues.map((i) => `${i.file}:${i.line} ${i.message.slice(0, 40)}`)).toEqual([
      'a.parquet:0 missing column `completion` (columns: st',
      'b.parquet:1 column `step`: expected a non-negative i',
      expect.stringMatching(/^c.parquet:0 not a readable parquet file/),
    ]);
  });

  it('says so when no parquet reader was given, and keeps the other files', async () => {
    const bytes = pq([{ name: 'step', data: [1n], type: 'INT64' }, { name: 'prompt', data: ['q'], type: 'STRING' }, { name: 'completion', data: ['a'], type: 'STRING' }]);
    const r = await importSamples([memorySource('completions_00001.parquet', bytes)], { format: 'trl' }, () => undefined);
    expect(r.samples).toBe(0);
    expect(r.issues.map((i) => i.message)).toEqual([expect.stringMatching(/no parquet reader was given/)]);
  });
});

describe('detection', () => {
  it('names what was expected for an unknown format', async () => {
    await expect(run([memorySource('x.jsonl', jl([{ foo: 1, bar: 2 }]))])).rejects.toThrow(/x.jsonl: unknown format: the first record has fields \{foo, bar\}; expected one of: OpenClaw-RL/);
  });
  it('refuses mixed formats and all-empty input', async () => {
    await expect(run([memorySource('1.jsonl', jl([{ input: 'q', output: 'a', score: 1, step: 1 }])), memorySource('g.jsonl', jl([{ step: 0, prompt: 'p', response: 'r', reward: 1 }]))])).rejects.toThrow(ImportError);
    await expect(run([memorySource('e.jsonl', '')])).rejects.toThrow(/all files are empty/);
  });
  it('with an explicit format, a file of another format is skipped with a message', async () => {
    const r = await run([memorySource('1.jsonl', jl([{ input: 'q', output: 'a', score: 1, step: 1 }])), memorySource('g.jsonl', jl([{ step: 0, prompt: 'p', response: 'r', reward: 1 }]))], 'verl');
    expect(r.issues).toEqual([{ file: 'g.jsonl', line: 0, message: 'skipped: this file looks like generic JSONL, not verl rollout dump ({step}.jsonl)' }]);
    expect(r.samples.length).toBe(1);
  });
});

describe('every format: BOM, CRLF, truncated last line, empty file', () => {
  const good: Record<'openclaw' | 'verl' | 'jsonl', { name: string; rows: unknown[] }[]> = {
    openclaw: [
      { name: 'r.jsonl', rows: [1, 2, 3].map((t) => ({ session_id: 's', turn: t, prompt_text: 'p', response_text: `r${t}`, tool_calls: null, next_state: null })) },
      { name: 'r_prm.jsonl', rows: [1, 2, 3].map((t) => ({ session_id: 's', turn: t, score: 1, votes: [1, 1, 1] })) },
    ],
    verl: [{ name: '5.jsonl', rows: [1, 2, 3].map((i) => ({ input: 'q', output: `r${i}`, score: 1, step: 5 })) }],
    jsonl: [{ name: 'g.jsonl', rows: [1, 2, 3].map((i) => ({ step: 0, prompt: 'q', response: `r${i}`, reward: 1 })) }],
  };
  const strip = (ss: ImportedSample[]) => ss.map(({ file: _f, ...rest }) => rest);
  for (const fmt of ['openclaw', 'verl', 'jsonl'] as const) {
    it(fmt, async () => {
      const plain = await run(good[fmt].map((f) => memorySource(f.name, jl(f.rows))), fmt);
      expect(plain.issues).toEqual([]);
      expect(plain.samples.length).toBe(3);
      const bomCrlf = await run(good[fmt].map((f) => memorySource(f.name, '\uFEFF' + jl(f.rows, '\r\n'), 5)), fmt);
      expect(bomCrlf.issues).toEqual([]);
      expect(strip(bomCrlf.samples)).toEqual(strip(plain.samples));
      // the main file cut in the middle of its last record: the first two samples survive
      const main = good[fmt][0];
      const text = jl(main.rows);
      const cut = await run([memorySource(main.name, text.slice(0, text.length - 12)), ...good[fmt].slice(1).map((f) => memorySource(f.name, jl(f.rows)))], fmt);
      expect(cut.samples.length).toBe(2);
      expect(cut.issues[0]).toMatchObject({ file: main.name, line: 3, message: expect.stringMatching(/^truncated/) });
      const empty = await run([memorySource(main.name, ''), ...good[fmt].slice(1).map((f) => memorySource(f.name, jl(f.rows)))], fmt);
      expect(empty.samples.length).toBe(0);
      expect(empty.issues[0]).toEqual({ file: main.name, line: 0, message: 'empty file' });
    });
  }
  it('trl: an empty and a truncated parquet file are reported', async () => {
    const bytes = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'step', data: [1n], type: 'INT64' }, { name: 'prompt', data: ['q'], type: 'STRING' }, { name: 'completion', data: ['a'], type: 'STRING' }] as never }));
    const r = await run([memorySource('completions_00001.parquet', bytes), memorySource('completions_00002.parquet', bytes.slice(0, bytes.length - 20)), memorySource('completions_00003.parquet', new Uint8Array(0))], 'trl');
    expect(r.samples.length).toBe(1);
    expect(r.issues.map((i) => [i.file, i.message.slice(0, 27)])).toEqual([
      ['completions_00003.parquet', 'empty file'],
      ['completions_00002.parquet', 'not a readable parquet file'],
    ]);
  });
});
