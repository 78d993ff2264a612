// The import pipeline: sources → detected format → normalized samples, streamed to a callback.
// JSONL files are read line by line (never whole); parquet row group by row group. Malformed
// records are reported with file and line and skipped; everything else is kept.
import { errorText } from '../unknown';
import { EXPECTED, FORMAT_LABELS, KIND_FORMAT, detectKind, isParquet, unknownFormatMessage, type FileKind } from './detect';
import { RecordFieldError, type Rec } from './formats/common';
import { jsonlSample } from './formats/jsonl';
import { OPENCLAW_BATCH, openclawSample, prmEntry, snapshotStep, type PrmEntry, type RecordStep } from './formats/openclaw';
import { trlRewardColumns, trlSample } from './formats/trl';
import { verlSample } from './formats/verl';
import { LineSplitter, jsonRecords, parseJsonLine } from './lines';
import type { ParquetOpen, ParquetTable } from './parquet';
import type { RegexEngine } from './regex';
import type { FormatId, ImportIssue, ImportProgress, ImportSource, ImportedSample } from './types';

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

export interface ImportFileSummary {
  name: string;
  kind: FileKind | 'empty' | 'skipped';
  samples: number;
  issues: number;
}

export interface ImportResult {
  format: FormatId;
  files: ImportFileSummary[];
  samples: number;
  issues: ImportIssue[];
  issuesTotal: number;
}

/** An import that cannot start (no file in a known format, mixed formats). */
export class ImportError extends Error {}

interface Peeked {
  source: ImportSource;
  kind: FileKind | 'empty' | null;
  first: Rec | null;
  firstError: string | null;
}

async function firstRecord(src: ImportSource): Promise<{ first: Rec | null; error: string | null; empty: boolean }> {
  const sp = new LineSplitter();
  for await (const c of src.stream()) {
    for (const l of sp.push(c)) {
      if (!l.text.trim()) continue;
      const r = parseJsonLine(l, false);
      return 'value' in r ? { first: r.value, error: null, empty: false } : { first: null, error: r.error, empty: false };
    }
  }
  for (const l of sp.end()) {
    if (!l.text.trim()) continue;
    const r = parseJsonLine(l, true);
    return 'value' in r ? { first: r.value, error: null, empty: false } : { first: null, error: r.error, empty: false };
  }
  return { first: null, error: null, empty: true };
}

async function peek(src: ImportSource): Promise<Peeked> {
  if (src.size === 0) return { source: src, kind: 'empty', first: null, firstError: null };
  const head = src.size >= 4 ? new Uint8Array(await src.slice(0, 4)) : null;
  if (isParquet(src.name, head)) return { source: src, kind: 'trl', first: null, firstError: null };
  const f = await firstRecord(src);
  if (f.empty) return { source: src, kind: 'empty', first: null, firstError: null };
  return { source: src, kind: f.first ? detectKind(f.first) : null, first: f.first, firstError: f.error };
}

/** Read `sources` as one run; each sample goes to `onSample` in file order. */
export async function importSamples(sources: readonly ImportSource[], opts: ImportOptions, onSample: (s: ImportedSample) => void): Promise<ImportResult> {
  const maxIssues = opts.maxIssues ?? 1000;
  const issues: ImportIssue[] = [];
  let issuesTotal = 0;
  const files: ImportFileSummary[] = [];
  const report = (file: string, line: number, message: string, sum?: ImportFileSummary) => {
    issuesTotal++;
    if (sum) sum.issues++;
    if (issues.length < maxIssues) issues.push({ file, line, message });
  };
  if (!sources.length) throw new ImportError(`no files to import; ${EXPECTED}`);

  // one file at a time: peeking every file at once holds a read chunk of each (a 120-step run: 120 MB)
  const peeked: Peeked[] = [];
  for (const src of sources) peeked.push(await peek(src));
  const wanted = opts.format && opts.format !== 'auto' ? opts.format : null;
  const known = peeked.filter((p) => p.kind && p.kind !== 'empty');
  const formats = [...new Set(known.map((p) => KIND_FORMAT[p.kind as FileKind]))];
  let format: FormatId;
  if (wanted) format = wanted;
  else if (formats.length === 1) format = formats[0];
  else if (formats.length > 1)
    throw new ImportError(`the files mix formats (${known.map((p) => `${p.source.name}: ${FORMAT_LABELS[KIND_FORMAT[p.kind as FileKind]]}`).join('; ')}); import one run at a time`);
  else {
    const p = peeked.find((x) => x.first || x.firstError);
    if (!p) throw new ImportError(`all files are empty; ${EXPECTED}`);
    throw new ImportError(p.first ? unknownFormatMessage(p.source.name, p.first) : `${p.source.name}: line 1 is not JSON (${p.firstError}); ${EXPECTED}`);
  }

  const total = sources.reduce((a, s) => a + s.size, 0);
  let done = 0;
  let samples = 0;
  const progress = (file: string) => opts.onProgress?.({ file, bytesDone: done, bytesTotal: total, samples, issues: issuesTotal });
  const emit = (s: ImportedSample, sum: ImportFileSummary) => {
    samples++;
    sum.samples++;
    onSample(s);
  };

  // Which files this format reads, in which role; the rest are reported.
  const plan: { p: Peeked; kind: FileKind; sum: ImportFileSummary }[] = [];
  for (const p of peeked) {
    const sum: ImportFileSummary = { name: p.source.name, kind: 'skipped', samples: 0, issues: 0 };
    files.push(sum);
    if (p.kind === 'empty') {
      sum.kind = 'empty';
      report(p.source.name, 0, 'empty file', sum);
      done += p.source.size;
      continue;
    }
    let kind: FileKind | null = p.kind;
    if (kind && KIND_FORMAT[kind] !== format) {
      if (wanted && format === 'jsonl' && kind !== 'trl') kind = 'jsonl';
      else {
        report(p.source.name, 0, `skipped: this file looks like ${FORMAT_LABELS[KIND_FORMAT[kind]]}, not ${FORMAT_LABELS[format]}`, sum);
        done += p.source.size;
        continue;
      }
    }
    // Unrecognized first record under an explicit format: read it, every bad line gets its message.
    if (!kind) kind = format === 'openclaw' ? 'openclaw-record' : format === 'trl' ? 'trl' : format;
    sum.kind = kind;
    plan.push({ p, kind, sum });
  }

  if (format === 'trl') {
    for (const { p, sum } of plan) {
      await readTrl(p.source, opts.parquet, sum, report, emit);
      done += p.source.size;
      progress(p.source.name);
    }
  } else {
    const prm = new Map<string, PrmEntry>();
    const prmFiles = plan.filter((x) => x.kind === 'openclaw-prm');
    const ordered = [...prmFiles, ...plan.filter((x) => x.kind !== 'openclaw-prm')];
    if (format === 'openclaw' && !prmFiles.length)
      for (const x of plan) report(x.p.source.name, 0, 'no PRM record file given: turns have no score (pass the matching *_prm.jsonl too)', x.sum);
    let index = 0;
    const batch = opts.openclawBatch ?? OPENCLAW_BATCH;
    // several record files are a run's per-step snapshots: each file is one step
    const recordFiles = plan.filter((x) => x.kind === 'openclaw-record').map((x) => x.p.source.name);
    const snapshots = recordFiles.map(snapshotStep);
    const byName = snapshots.every((n) => n !== null);
    const fileSteps = new Map(recordFiles.map((name, i) => [name, byName ? snapshots[i]! : i + 1]));
    if (recordFiles.length > 1 && !byName) for (const x of plan) if (x.kind === 'openclaw-record') report(x.p.source.name, 0, `records without \`step\` take the file's place as their step (${fileSteps.get(x.p.source.name)}): no directory name of every record file has a number`, x.sum);
    for (const { p, kind, sum } of ordered) {
      const name = p.source.name;
      const fileStep = fileSteps.get(name);
      const unjudged: number[] = [];
      for await (const r of jsonRecords(p.source.stream(), (n) => {
        done += n;
        if (done % (1 << 20) < n) progress(name);
      })) {
        if ('error' in r) {
          report(name, r.line, r.error, sum);
          continue;
        }
        try {
          if (kind === 'openclaw-prm') {
            const { key, entry } = prmEntry(r.value, r.line);
            if (prm.has(key)) report(name, r.line, `duplicate PRM record for (session_id, turn) = (${key.replace('\u0000', ', ')}); the first (line ${prm.get(key)!.line}) is kept`, sum);
            else prm.set(key, entry);
            sum.samples++;
          } else if (kind === 'openclaw-record') {
            const at: RecordStep = recordFiles.length > 1 && fileStep !== undefined ? { fileStep } : { index: index++, batch };
            const s = openclawSample(r.value, prm, at, name, r.line);
            if (prmFiles.length && s.fields.has_next_state === true && !Object.hasOwn(s.fields, 'prm_score')) unjudged.push(r.line);
            emit(s, sum);
          }
          else if (kind === 'verl') emit(verlSample(r.value, name, r.line), sum);
          else emit(jsonlSample(r.value, name, r.line), sum);
        } catch (e) {
          if (!(e instanceof RecordFieldError)) throw e;
          report(name, r.line, e.message, sum);
        }
      }
      if (unjudged.length) report(name, unjudged[0], `${unjudged.length} record${unjudged.length > 1 ? 's have' : ' has'} a next_state but no PRM line (line${unjudged.length > 1 ? 's' : ''} ${unjudged.slice(0, 5).join(', ')}${unjudged.length > 5 ? ', …' : ''}): left unjudged, loss mask 0`, sum);
      progress(name);
    }
    for (const x of prmFiles)
      for (const [key, e] of prm) if (!e.used) report(x.p.source.name, e.line, `PRM record (session_id, turn) = (${key.replace('\u0000', ', ')}) has no conversation record`, x.sum);
  }
  progress('');
  return { format, files, samples, issues, issuesTotal };
}

async function readTrl(
  src: ImportSource,
  openParquet: ParquetOpen | undefined,
  sum: ImportFileSummary,
  report: (file: string, line: number, message: string, sum?: ImportFileSummary) => void,
  emit: (s: ImportedSample, sum: ImportFileSummary) => void,
): Promise<void> {
  if (!openParquet) {
    report(src.name, 0, 'parquet files cannot be read here (no parquet reader was given to the import)', sum);
    return;
  }
  const file = { byteLength: src.size, slice: (a: number, b?: number) => src.slice(a, b ?? src.size) };
  let table: ParquetTable;
  try {
    table = await openParquet(file);
  } catch (e) {
    report(src.name, 0, `not a readable parquet file (${errorText(e)})`, sum);
    return;
  }
  const cols = table.columns;
  const names = cols.map((c) => c.name);
  for (const need of ['step', 'prompt', 'completion'])
    if (!names.includes(need)) {
      report(src.name, 0, `missing column \`${need}\` (columns: ${names.join(', ')}); ${EXPECTED}`, sum);
      return;
    }
  const rewards = trlRewardColumns(cols);
  let rowStart = 0;
  for (const n of table.rowGroups) {
    const rowEnd = rowStart + n;
    const rows = await table.read(rowStart, rowEnd);
    rows.forEach((r, i) => {
      try {
        emit(trlSample(r, rewards, src.name, rowStart + i + 1), sum);
      } catch (e) {
        if (!(e instanceof RecordFieldError)) throw e;
        report(src.name, rowStart + i + 1, e.message, sum);
      }
    });
    rowStart = rowEnd;
  }
}
