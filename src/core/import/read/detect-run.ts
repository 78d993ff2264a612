// Format detection of a run: each file's kind from its first bytes and first record (one file at a
// time: peeking every file at once would hold a read chunk of each), then the run's one format.
import { EXPECTED, FORMAT_LABELS, KIND_FORMAT, detectKind, isParquet, unknownFormatMessage, type FileKind } from '../formats/detect';
import type { Rec } from '../formats/common';
import { LineSplitter, parseJsonLine, type Line } from './lines';
import type { FormatId, ImportSource } from '../types';

/** An import that cannot start (no file in a known format, mixed formats). */
export class ImportError extends Error {}

export interface Peeked {
  source: ImportSource;
  kind: FileKind | 'empty' | null;
  first: Rec | null;
  firstError: string | null;
}

type First = { first: Rec | null; error: string | null; empty: boolean };

function firstOf(l: Line, last: boolean): First {
  const r = parseJsonLine(l, last);
  return 'value' in r ? { first: r.value, error: null, empty: false } : { first: null, error: r.error, empty: false };
}

async function firstRecord(src: ImportSource): Promise<First> {
  const sp = new LineSplitter();
  for await (const c of src.stream()) for (const l of sp.push(c)) if (l.text.trim()) return firstOf(l, false);
  for (const l of sp.end()) if (l.text.trim()) return firstOf(l, true);
  return { first: null, error: null, empty: true };
}

/** A file's kind from its head (parquet magic) or its first JSON record. */
export async function peek(src: ImportSource): Promise<Peeked> {
  if (src.size === 0) return { source: src, kind: 'empty', first: null, firstError: null };
  const head = src.size >= 4 ? new Uint8Array(await src.slice(0, 4)) : null;
  if (isParquet(src.name, head)) return { source: src, kind: 'trl', first: null, firstError: null };
  const f = await firstRecord(src);
  if (f.empty) return { source: src, kind: 'empty', first: null, firstError: null };
  return { source: src, kind: f.first ? detectKind(f.first) : null, first: f.first, firstError: f.error };
}

/** The run's format: the one asked for, else the one every recognized file has; else why not. */
export function runFormat(peeked: readonly Peeked[], wanted: FormatId | null): FormatId {
  if (wanted) return wanted;
  const known = peeked.filter((p): p is Peeked & { kind: FileKind } => !!p.kind && p.kind !== 'empty');
  const formats = [...new Set(known.map((p) => KIND_FORMAT[p.kind]))];
  if (formats.length === 1) return formats[0];
  if (formats.length > 1)
    throw new ImportError(`the files mix formats (${known.map((p) => `${p.source.name}: ${FORMAT_LABELS[KIND_FORMAT[p.kind]]}`).join('; ')}); import one run at a time`);
  const p = peeked.find((x) => x.first || x.firstError);
  if (!p) throw new ImportError(`all files are empty; ${EXPECTED}`);
  throw new ImportError(p.first ? unknownFormatMessage(p.source.name, p.first) : `${p.source.name}: line 1 is not JSON (${p.firstError}); ${EXPECTED}`);
}
