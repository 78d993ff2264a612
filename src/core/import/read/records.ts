// The incremental heart of the import: a file's bytes go in as they come (`LineFeed.push`), each
// whole line becomes a JSON record handed to the format's `RecordReader`, and a line is only a line
// once its newline is there (`end` takes the last one without). The one-shot import feeds a file's
// stream to the end; a follower feeds the bytes a growing file has gained.
import { RecordFieldError, type Rec } from '../formats/common';
import { LineSplitter, parseJsonLine, type Line } from './lines';
import type { ImportFileSummary, PlannedFile, SampleSink } from './tally';
import type { ImportedSample } from '../types';

/** One format's reading of JSON records into samples (verl, generic JSONL, OpenClaw with its PRM join). */
export interface RecordReader {
  /** The files in the order they are read (OpenClaw: the PRM files first, so records join as they come). */
  order(plan: readonly PlannedFile[]): PlannedFile[];
  record(file: PlannedFile, rec: Rec, line: number): void;
  /** Every line of `file` has been read. */
  endFile(file: PlannedFile): void;
  /** Every file has been read. */
  finish(): void;
  /** A follower found a new file of the run. */
  addFile?(file: PlannedFile): void;
}

/** Run `read`, reporting a RecordFieldError as the line's issue (any other error is a bug and goes on). */
export function fieldChecked(sink: SampleSink, file: string, line: number, sum: ImportFileSummary, read: () => void): void {
  try {
    read();
  } catch (e) {
    if (!(e instanceof RecordFieldError)) throw e;
    sink.issue(file, line, e.message, sum);
  }
}

/** The reader of a format whose records are samples one by one (verl, generic JSONL). */
export function sampleReader(sink: SampleSink, toSample: (r: Rec, file: string, line: number) => ImportedSample): RecordReader {
  return {
    order: (plan) => [...plan],
    record: (f, r, line) => fieldChecked(sink, f.source.name, line, f.sum, () => sink.sample(toSample(r, f.source.name, line), f.sum)),
    endFile: () => undefined,
    finish: () => undefined,
  };
}

/** A line file read incrementally: bytes in, records out to the reader, malformed lines reported. */
export class LineFeed {
  private splitter = new LineSplitter();
  /** Bytes pushed so far (the offset the next push starts at). */
  bytes = 0;

  constructor(
    readonly file: PlannedFile,
    /** The reader its records go to (a follower hands a new one at each OpenClaw purge). */
    public reader: RecordReader,
    private readonly sink: SampleSink,
  ) {}

  push(chunk: Uint8Array): void {
    this.bytes += chunk.byteLength;
    for (const l of this.splitter.push(chunk)) this.line(l, false);
  }

  /** The file's end: a last line without its newline is read now (and reported if it is cut). */
  end(): void {
    for (const l of this.splitter.end()) this.line(l, true);
    this.reader.endFile(this.file);
  }

  /** Bytes held of a line whose newline has not come yet. */
  get partial(): number {
    return this.splitter.partial;
  }

  /** Lines completed so far (the number of the last one). */
  get lines(): number {
    return this.splitter.lines;
  }

  private line(l: Line, last: boolean): void {
    if (!l.text.trim()) return;
    const r = parseJsonLine(l, last);
    if ('error' in r) this.sink.issue(this.file.source.name, r.line, r.error, this.file.sum);
    else this.reader.record(this.file, r.value, r.line);
  }
}
