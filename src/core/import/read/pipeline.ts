// The import pipeline: sources → detected format → planned files → the format's reader → samples,
// streamed to a callback. JSONL files are fed to their reader chunk by chunk (never whole; the same
// incremental reader a follower feeds as files grow); parquet row group by row group. Malformed
// records are reported with file and line and skipped; everything else is kept.
import { EXPECTED } from '../formats/detect';
import { jsonlSample } from '../formats/jsonl';
import { OpenClawReader } from '../formats/openclaw';
import { readTrlFile } from '../formats/trl';
import { verlSample } from '../formats/verl';
import type { ParquetOpen } from './parquet';
import { ImportError, peek, runFormat, type Peeked } from './detect-run';
import { planFiles } from './plan';
import { LineFeed, sampleReader, type RecordReader } from './records';
import { ImportTally, type ImportResult, type PlannedFile, type SampleSink } from './tally';
import type { RegexEngine } from '../rules/regex';
import type { FormatId, ImportProgress, ImportSource, ImportedSample } from '../types';

export { ImportError } from './detect-run';
export type { ImportFileSummary, ImportResult } from './tally';

export interface ImportOptions {
  /** Format to read (default: detected from the files). */
  format?: FormatId | 'auto';
  /** OpenClaw records per step when a record has no `step` (the rollout batch). */
  openclawBatch?: number;
  onProgress?: (p: ImportProgress) => void;
  /** Issues kept in the result (all are counted). */
  maxIssues?: number;
  /** Linear-time regex engine for regex rules (src/io/re2.ts); without one, a regex rule is refused by name. */
  regex?: RegexEngine;
  /** Parquet reader (TRL completions); without one, parquet files are reported as unreadable. */
  parquet?: ParquetOpen;
}

/** The record reader of a line format (TRL is read whole, by readTrlFile). */
export function recordReader(format: Exclude<FormatId, 'trl'>, plan: readonly PlannedFile[], sink: SampleSink, opts: Pick<ImportOptions, 'openclawBatch'>): RecordReader {
  if (format === 'openclaw') return new OpenClawReader(plan, sink, opts.openclawBatch);
  return sampleReader(sink, format === 'verl' ? verlSample : jsonlSample);
}

async function feedToEnd(f: PlannedFile, reader: RecordReader, tally: ImportTally): Promise<void> {
  const feed = new LineFeed(f, reader, tally);
  for await (const c of f.source.stream()) {
    feed.push(c);
    tally.read(f.source.name, c.byteLength);
  }
  feed.end();
  tally.progress(f.source.name);
}

/** Read `sources` as one run; each sample goes to `onSample` in file order. */
export async function importSamples(sources: readonly ImportSource[], opts: ImportOptions, onSample: (s: ImportedSample) => void): Promise<ImportResult> {
  if (!sources.length) throw new ImportError(`no files to import; ${EXPECTED}`);
  const peeked: Peeked[] = [];
  for (const src of sources) peeked.push(await peek(src));
  const wanted = opts.format && opts.format !== 'auto' ? opts.format : null;
  const format = runFormat(peeked, wanted);
  const tally = new ImportTally(onSample, sources.reduce((a, s) => a + s.size, 0), opts.maxIssues, opts.onProgress);
  const plan = planFiles(peeked, format, wanted !== null, tally);
  if (format === 'trl') {
    for (const f of plan) {
      await readTrlFile(f.source, opts.parquet, f.sum, tally);
      tally.read(f.source.name, f.source.size, true);
    }
  } else {
    const reader = recordReader(format, plan, tally, opts);
    for (const f of reader.order(plan)) await feedToEnd(f, reader, tally);
    reader.finish();
  }
  tally.progress('');
  return tally.result(format);
}
