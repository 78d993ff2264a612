// One sample read back from its file when the viewer shows it: a JSONL line sliced at the byte
// offsets of its line (file-lines.ts: indexed on first use and further as a followed file grows,
// once for reads that come at once, each line checked to be a whole line of the file),
// a parquet row read with its row group (the last group read is kept, pages read neighbours).
// The record goes through the format's own reader (formats/), so the text is what the import read.
import type { Rec } from '../formats/common';
import { jsonlSample } from '../formats/jsonl';
import { openclawSample } from '../formats/openclaw';
import { trlRewardColumns, trlSample } from '../formats/trl';
import { verlSample } from '../formats/verl';
import type { FollowFs } from '../follow/fs';
import type { ParquetOpen, ParquetTable } from '../read/parquet';
import type { FormatId, ImportedSample } from '../types';
import { FileLines, INDEX_CHUNK, wholeLine, type BrowseFile } from './file-lines';
import { lineText } from './line-offsets';

/** What the viewer shows of a sample besides the index's columns. */
export interface SampleText {
  prompt: string;
  response: string;
  toolCalls: string[];
  /** The record's scalar fields (what a field rule or a gate reads). */
  fields: ImportedSample['fields'];
}

/** Opens a file of the run by the name the index keeps. */
export type OpenRunFile = (name: string) => Promise<BrowseFile>;

function textOf(s: ImportedSample): SampleText {
  return { prompt: s.prompt, response: s.response, toolCalls: s.toolCalls, fields: s.fields };
}

interface ParquetOpened {
  table: ParquetTable;
  rewards: string[];
  /** First row of each row group, and the rows of the group read last. */
  starts: number[];
  cached: { group: number; rows: Rec[] } | null;
}

export class SampleTextReader {
  readonly #lines: FileLines;
  readonly #parquet = new Map<string, Promise<ParquetOpened>>();

  constructor(
    readonly format: FormatId,
    private readonly open: OpenRunFile,
    private readonly parquet?: ParquetOpen,
    /** Bytes read per slice while a JSONL file's lines are indexed. */
    indexChunk = INDEX_CHUNK,
  ) {
    this.#lines = new FileLines(indexChunk);
  }

  /** The sample at 0-based `index` of `file` (JSONL line / parquet row). */
  async read(file: string, index: number): Promise<SampleText> {
    return this.format === 'trl' ? this.#row(file, index) : this.#line(file, index);
  }

  async #line(file: string, index: number): Promise<SampleText> {
    const f = await this.open(file);
    // a line that is not a whole line of the file (it was rewritten since it was indexed) drops the index; read once more
    for (let tries = 0; ; tries++) {
      const offsets = await this.#lines.upTo(file, f, index + 1);
      const r = offsets.range(index + 1, f.size);
      if (!r) throw new Error(`${file}: no line ${index + 1} (the file has ${offsets.count(f.size)})`);
      const bytes = await wholeLine(f, r);
      if (bytes) return this.#parse(lineText(bytes), file, index + 1);
      this.#lines.forget(file, offsets);
      if (tries) throw new Error(`${file}:${index + 1}: the file changed while its line was read`);
    }
  }

  #parse(text: string, file: string, line: number): SampleText {
    const rec: unknown = JSON.parse(text);
    if (!rec || typeof rec !== 'object' || Array.isArray(rec)) throw new Error(`${file}:${line}: not a JSON object`);
    return textOf(this.#sample(rec as Rec, file, line));
  }

  #sample(rec: Rec, file: string, line: number): ImportedSample {
    if (this.format === 'verl') return verlSample(rec, file, line);
    if (this.format === 'openclaw') return openclawSample(rec, new Map(), { fileStep: 0 }, file, line);
    return jsonlSample(rec, file, line);
  }

  async #row(file: string, index: number): Promise<SampleText> {
    const p = await this.#openParquet(file);
    if (!(index >= 0 && index < p.starts[p.starts.length - 1])) throw new Error(`${file}: no row ${index + 1} (the file has ${p.starts[p.starts.length - 1]})`);
    let group = 0;
    while (p.starts[group + 1] <= index) group++;
    if (p.cached?.group !== group) p.cached = { group, rows: await p.table.read(p.starts[group], p.starts[group + 1]) };
    return textOf(trlSample(p.cached.rows[index - p.starts[group]], p.rewards, file, index + 1));
  }

  #openParquet(file: string): Promise<ParquetOpened> {
    let p = this.#parquet.get(file);
    if (!p) {
      const parquet = this.parquet;
      if (!parquet) throw new Error(`${file}: parquet files cannot be read here (no parquet reader)`);
      p = this.open(file).then(async (f) => {
        const table = await parquet({ byteLength: f.size, slice: (a, b) => f.slice(a, b ?? f.size) });
        const starts = [0];
        for (const n of table.rowGroups) starts.push(starts[starts.length - 1] + n);
        return { table, rewards: trlRewardColumns(table.columns), starts, cached: null };
      });
      this.#parquet.set(file, p);
      p.catch(() => this.#parquet.delete(file));
    }
    return p;
  }
}

/** How long a listing of a followed folder is trusted for the files' sizes. */
export const LIST_FRESH_MS = 1000;

/**
 * The files of a followed folder (a FollowFs: the CLI's Node folder, the page's picked folder) as the
 * reader opens them: sizes from a listing at most `LIST_FRESH_MS` old, bytes read when asked.
 */
export function followedFiles(fs: FollowFs, now: () => number): OpenRunFile {
  let listed: { at: number; sizes: Map<string, number> } | null = null;
  return async (name) => {
    if (!listed || now() - listed.at > LIST_FRESH_MS || !listed.sizes.has(name)) listed = { at: now(), sizes: new Map((await fs.list()).map((e) => [e.path, e.size])) };
    const size = listed.sizes.get(name);
    if (size === undefined) throw new Error(`${name}: no longer there`);
    return {
      size,
      slice: async (a, b) => {
        const u = await fs.read(name, a, b);
        return u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength) as ArrayBuffer;
      },
    };
  };
}
