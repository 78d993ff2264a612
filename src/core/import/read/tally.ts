// What an import reports as it reads: the summary of each file, the issues (all counted, the first
// `maxIssues` kept), the samples handed on, and the bytes read for a progress bar. One tally per
// import; the readers of every format write into it.
import type { FileKind, FormatId, ImportIssue, ImportProgress, ImportSource, ImportedSample } from '../types';

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

/** A file of a run as the import reads it: its bytes, its role, its summary. */
export interface PlannedFile {
  source: ImportSource;
  kind: FileKind;
  sum: ImportFileSummary;
}

/** Where the readers send what they read. */
export interface SampleSink {
  /** A sample of `sum`'s file, in file order. */
  sample(s: ImportedSample, sum: ImportFileSummary): void;
  /** A problem at a file's line (0 = the file as a whole). */
  issue(file: string, line: number, message: string, sum?: ImportFileSummary): void;
}

export class ImportTally implements SampleSink {
  readonly files: ImportFileSummary[] = [];
  readonly issues: ImportIssue[] = [];
  issuesTotal = 0;
  samples = 0;
  /** Bytes read (or skipped) so far, of `bytesTotal`. */
  bytesDone = 0;

  constructor(
    private readonly onSample: (s: ImportedSample) => void,
    readonly bytesTotal: number,
    private readonly maxIssues = 1000,
    private readonly onProgress?: (p: ImportProgress) => void,
  ) {}

  sample(s: ImportedSample, sum: ImportFileSummary): void {
    this.samples++;
    sum.samples++;
    this.onSample(s);
  }

  issue(file: string, line: number, message: string, sum?: ImportFileSummary): void {
    this.issuesTotal++;
    if (sum) sum.issues++;
    if (this.issues.length < this.maxIssues) this.issues.push({ file, line, message });
  }

  /** A new file's summary, in the result's file order. */
  file(name: string): ImportFileSummary {
    const sum: ImportFileSummary = { name, kind: 'skipped', samples: 0, issues: 0 };
    this.files.push(sum);
    return sum;
  }

  /** `n` more bytes read of `file`; progress is told at every MiB and when `force`. */
  read(file: string, n: number, force = false): void {
    this.bytesDone += n;
    if (force || this.bytesDone % (1 << 20) < n) this.progress(file);
  }

  progress(file: string): void {
    this.onProgress?.({ file, bytesDone: this.bytesDone, bytesTotal: this.bytesTotal, samples: this.samples, issues: this.issuesTotal });
  }

  result(format: FormatId): ImportResult {
    return { format, files: this.files, samples: this.samples, issues: this.issues, issuesTotal: this.issuesTotal };
  }
}
