import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openParquet } from '../../../io/hyparquet';
import { importSamples } from '../read/pipeline';
import { memorySource } from '../sources';
import type { FormatId, ImportSource, ImportedSample } from '../types';
import { SampleBrowser, matchesSearch, searchWords } from './browse';
import { LineOffsets, lineText } from './line-offsets';
import { SampleIndex, decisionText } from './sample-index';
import type { BrowseFile } from './file-lines';
import { SampleTextReader } from './sample-text';

const EXAMPLES = join(__dirname, '../../../../public/examples');

function example(format: FormatId): ImportSource[] {
  const index = JSON.parse(readFileSync(join(EXAMPLES, 'index.json'), 'utf8')) as { files: Record<FormatId, string[]> };
  return index.files[format].map((rel) => memorySource(rel, new Uint8Array(readFileSync(join(EXAMPLES, rel))), 4096));
}

const opener = (sources: readonly ImportSource[]) => async (name: string): Promise<BrowseFile> => {
  const s = sources.find((x) => x.name === name);
  if (!s) throw new Error(`${name}: no such file`);
  return s;
};

describe('line offsets', () => {
  it('numbers lines as the import does: CRLF, a BOM, a line split over chunks, a last line without a newline', () => {
    const text = '\ufeff{"a":1}\r\n\n{"b":"é"}\n{"c":3}';
    const bytes = new TextEncoder().encode(text);
    const o = new LineOffsets();
    for (let i = 0; i < bytes.length; i += 3) o.push(bytes.subarray(i, i + 3));
    const line = (n: number) => {
      const r = o.range(n, bytes.length);
      return r ? lineText(bytes.subarray(r[0], r[1])) : null;
    };
    expect([line(1), line(2), line(3), line(4), line(5), line(0)]).toEqual(['{"a":1}', '', '{"b":"é"}', '{"c":3}', null, null]);
    expect(o.lines).toBe(3);
    // the last line is only a line once the file's size says it is there
    expect(o.range(4, o.bytes - 7)).toBeNull();
  });

  it('grows past its first capacity', () => {
    const o = new LineOffsets();
    const text = Array.from({ length: 3000 }, (_, i) => `${i}`).join('\n') + '\n';
    const bytes = new TextEncoder().encode(text);
    o.push(bytes);
    const r = o.range(2500)!;
    expect(lineText(bytes.subarray(r[0], r[1]))).toBe('2499');
  });
});

describe('sample text read back from the files', () => {
  for (const format of ['verl', 'openclaw', 'jsonl', 'trl'] as const) {
    it(`${format}: every sample of the shipped example reads back as the import read it`, async () => {
      const sources = example(format);
      const samples: ImportedSample[] = [];
      await importSamples(sources, { format, parquet: openParquet }, (s) => samples.push(s));
      expect(samples.length).toBeGreaterThan(50);
      const reader = new SampleTextReader(format, opener(sources), openParquet);
      // out of order, so the line index and the row-group cache are exercised both ways
      const order = samples.map((_, i) => i).sort((a, b) => ((a * 7919) % samples.length) - ((b * 7919) % samples.length));
      for (const i of order) {
        const s = samples[i];
        const t = await reader.read(s.file, s.line - 1);
        expect({ p: t.prompt, r: t.response, tools: t.toolCalls }, `${s.file}:${s.line}`).toEqual({ p: s.prompt, r: s.response, tools: s.toolCalls });
      }
    });
  }

  it('trl: rows of several row groups, read in any order', async () => {
    const { parquetWriteBuffer } = await import('hyparquet-writer');
    const n = 7;
    const bytes = new Uint8Array(
      parquetWriteBuffer({
        columnData: [
          { name: 'step', data: Array.from({ length: n }, () => 3), type: 'INT32' },
          { name: 'prompt', data: Array.from({ length: n }, (_, i) => `p${i}`), type: 'STRING' },
          { name: 'completion', data: Array.from({ length: n }, (_, i) => `c${i}`), type: 'STRING' },
          { name: 'r', data: Array.from({ length: n }, (_, i) => i), type: 'DOUBLE' },
        ] as never,
        rowGroupSize: 2,
      }),
    );
    const src = memorySource('completions_00003.parquet', bytes);
    const reader = new SampleTextReader('trl', async () => src, openParquet);
    const got: string[] = [];
    for (const i of [6, 0, 3, 2, 5, 1, 4]) got.push((await reader.read(src.name, i)).response);
    expect(got).toEqual(['c6', 'c0', 'c3', 'c2', 'c5', 'c1', 'c4']);
    await expect(reader.read(src.name, 7)).rejects.toThrow('no row 8 (the file has 7)');
  });

  it('a followed file is indexed further as it grows; a line not there yet is an error naming it', async () => {
    let text = '{"input":"p0","output":"r0","score":1,"step":1}\n';
    const file = () => memorySource('1.jsonl', text);
    const reader = new SampleTextReader('verl', async () => file());
    expect((await reader.read('1.jsonl', 0)).response).toBe('r0');
    await expect(reader.read('1.jsonl', 1)).rejects.toThrow('1.jsonl: no line 2 (the file has 1)');
    text += '{"input":"p1","output":"r1","score":0,"step":1}\n';
    expect((await reader.read('1.jsonl', 1)).response).toBe('r1');
  });
});

function indexed(): SampleIndex {
  const ix = new SampleIndex();
  for (let i = 0; i < 10; i++) {
    ix.add({ step: 1 + (i % 2), file: `${1 + (i % 2)}.jsonl`, index: i >> 1, state: i < 6 ? 'math' : 'code', behavior: i % 3 === 0 ? 'list' : 'prose', reward: i % 4 === 0 ? null : i, rule: i < 5 ? 'kept' : 'drop short', decision: decisionText({ queued: i < 5, loss_mask: i % 2 }) });
  }
  return ix;
}

describe('sample index', () => {
  it('filters by each column and by several at once, in the order added', () => {
    const ix = indexed();
    expect(ix.select({})).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(ix.select({ step: 2 })).toEqual([1, 3, 5, 7, 9]);
    expect(ix.select({ state: 'code' })).toEqual([6, 7, 8, 9]);
    expect(ix.select({ behavior: 'list' })).toEqual([0, 3, 6, 9]);
    expect(ix.select({ rule: 'drop short' })).toEqual([5, 6, 7, 8, 9]);
    expect(ix.select({ decision: 'trained' })).toEqual([1, 3]);
    expect(ix.select({ decision: 'kept out of the loss' })).toEqual([0, 2, 4]);
    expect(ix.select({ step: 2, state: 'code', behavior: 'list' })).toEqual([9]);
    expect(ix.select({ state: 'no such state' })).toEqual([]);
    expect(ix.get(4)).toEqual({ step: 1, file: '1.jsonl', index: 2, state: 'math', behavior: 'prose', reward: null, rule: 'kept', decision: 'kept out of the loss' });
  });

  it('lists the values each filter can take; drops a step written again', () => {
    const ix = indexed();
    expect(ix.facets()).toEqual({ steps: [1, 2], states: ['code', 'math'], behaviors: ['list', 'prose'], rules: ['kept', 'drop short'], decisions: ['trained', 'kept out of the loss', 'dropped'] });
    ix.dropStep(1);
    expect(ix.size).toBe(5);
    expect(ix.facets().steps).toEqual([2]);
    expect(ix.get(0).index).toBe(0);
    expect(ix.get(0).step).toBe(2);
  });

  it('refuses a sample without a valid step or index', () => {
    const ix = new SampleIndex();
    expect(() => ix.add({ step: -1, file: 'a', index: 0, state: 's', behavior: 'b', reward: null })).toThrow('step must be a non-negative integer');
    expect(() => ix.add({ step: 0, file: 'a', index: 0.5, state: 's', behavior: 'b', reward: null })).toThrow('index must be a non-negative integer');
  });
});

describe('sample browser', () => {
  const texts = Array.from({ length: 10 }, (_, i) => ({ prompt: `prompt ${i}`, response: i % 2 ? `Great question ${i}` : `plain answer ${i}`, toolCalls: [], fields: {} }));
  const reads: string[] = [];
  const browser = new SampleBrowser(indexed(), {
    read: async (file, index) => {
      reads.push(`${file}:${index}`);
      return texts[(Number(file[0]) - 1) + index * 2];
    },
    explain: (e) => [`${e.behavior}-word`],
  });

  it('pages the filtered samples and reads only the page', async () => {
    reads.length = 0;
    const p = await browser.query({ state: 'math', page: 1, pageSize: 4 });
    expect(p).toMatchObject({ total: 6, page: 1, pageSize: 4 });
    expect(p.rows.map((r) => [r.id, r.response, r.explain[0]])).toEqual([
      [4, 'plain answer 4', 'prose-word'],
      [5, 'Great question 5', 'prose-word'],
    ]);
    expect(reads).toEqual(['1.jsonl:2', '2.jsonl:2']);
    // a page past the end shows the last one
    expect((await browser.query({ state: 'math', page: 9, pageSize: 4 })).page).toBe(1);
  });

  it('searches the text of the filtered samples (all words, any case) and pages the matches without reading them again', async () => {
    const p = await browser.query({ text: 'GREAT  question', pageSize: 2 });
    expect(p.total).toBe(5);
    expect(p.rows.map((r) => r.id)).toEqual([1, 3]);
    reads.length = 0;
    const p2 = await browser.query({ text: 'great question', page: 2, pageSize: 2 });
    expect(p2.rows.map((r) => r.id)).toEqual([9]);
    expect(reads).toEqual(['2.jsonl:4']);
    expect((await browser.query({ text: 'great', step: 2, state: 'math' })).total).toBe(3);
    expect((await browser.query({ text: 'great', step: 1 })).total).toBe(0);
  });

  it("reads a behavior's samples and the others' for a rule proposal, at most max of each, spread over the run", async () => {
    const own = await browser.texts({ behavior: 'list' }, 10);
    expect(own.map((t) => t.prompt)).toEqual(['prompt 0', 'prompt 3', 'prompt 6', 'prompt 9']);
    const spread = await browser.texts({ behavior: 'prose' }, 3, true);
    expect(spread.map((t) => t.prompt)).toEqual(['prompt 0', 'prompt 3', 'prompt 6']);
    const others = await browser.texts({ behavior: 'list' }, 3, true);
    expect(others.map((t) => t.prompt)).toEqual(['prompt 1', 'prompt 4', 'prompt 7']);
    expect(new Set(others.map((t) => t.measuredAs))).toEqual(new Set(['prose'])); // where a rule's other matches fall
    expect(own.every((t) => t.measuredAs === 'list')).toBe(true);
  });

  it('says why a sample could not be read, and still shows its columns', async () => {
    const b = new SampleBrowser(indexed(), { read: async () => Promise.reject(new Error('1.jsonl: no line 3')) });
    const v = await b.view(4);
    expect(v).toMatchObject({ id: 4, state: 'math', response: '', error: '1.jsonl: no line 3' });
  });

  it('search words', () => {
    expect(searchWords('  A  b ')).toEqual(['a', 'b']);
    expect(matchesSearch(['a', 'zz'], { prompt: 'A', response: 'xzz' })).toBe(true);
    expect(matchesSearch(['a', 'q'], { prompt: 'A', response: 'xzz' })).toBe(false);
  });
});

describe('sample query as URL parameters', () => {
  it('round-trips every field, leaves out what is unset, refuses a bad number', async () => {
    const { queryOfParams, queryParams } = await import('./browse');
    const q = { step: 3, state: 'math & co', behavior: 'list', rule: 'rule 2', decision: 'dropped', text: 'great question', page: 2, pageSize: 50 };
    expect(queryOfParams(new URLSearchParams(queryParams(q).toString()))).toEqual(q);
    expect(queryParams({ step: null, state: '', page: 0 }).toString()).toBe('page=0');
    expect(() => queryOfParams(new URLSearchParams('step=-1'))).toThrow('step: expected a non-negative integer, got "-1"');
    expect(() => queryOfParams(new URLSearchParams('size=1e3'))).toThrow('size: expected a non-negative integer');
  });
});

describe('a run indexed step by step from its per-sample lines', () => {
  it("names each decision by its rule, replaces a step that comes again", async () => {
    const { RunSamples } = await import('./browse');
    const run = new RunSamples({ read: async () => ({ prompt: '', response: '', toolCalls: [], fields: {} }) });
    const line = (index: number, rule: number, queued: boolean, loss_mask: number) => ({ step: 5, file: '5.jsonl', index, state: 's', behavior: 'b', reward: 1, decision: { rule, queued, loss_mask } });
    const { compileGate } = await import('../../gates/index');
    run.addStep(5, [line(0, 0, true, 1), line(1, 1, false, 0)], compileGate('reward > 0 => mask1 rl # keep\ntrue => drop # drop'));
    run.addStep(6, [{ step: 6, file: '6.jsonl', index: 0, state: 's', behavior: 'b', reward: null }]);
    expect(run.index.get(1)).toMatchObject({ rule: 'drop', decision: 'dropped' });
    expect(run.index.get(2)).toMatchObject({ step: 6, rule: null, decision: null });
    run.addStep(5, [line(0, 0, true, 0)]);
    expect(run.index.size).toBe(2);
    expect(run.index.select({ step: 5 }).map((i) => run.index.get(i))).toEqual([expect.objectContaining({ rule: 'rule 1', decision: 'kept out of the loss' })]);
    const sink = run.sink(null);
    sink.restart();
    expect(run.index.size).toBe(0);
    sink.step(7, [{ ...line(3, 0, true, 1), step: 7 }]);
    expect(run.index.facets().steps).toEqual([7]);
  });
});
