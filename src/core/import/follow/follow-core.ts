// What the two file modes of a follow share (step-files.ts, live-files.ts): the folder, the
// measure, the sink the readers feed, the notices, and writing a step's frame. In a module of its
// own so that the modes and the follower (follower.ts) each import it, not each other.
import type { MetricsFrame } from '../../metrics';
import { measureOf, OPEN_STEPS, type MeasureSpec } from '../analyze';
import { StepOrderError, frameBehaviorCounts, renameBehaviors, type ImportMeasure, type SampleRowsSink } from '../measure/measure';
import type { ParquetOpen } from '../read/parquet';
import type { ImportFileSummary, SampleSink } from '../read/tally';
import type { RegexEngine } from '../rules/regex';
import type { FileKind, FormatId, ImportedSample } from '../types';
import type { FollowEntry, FollowFs } from './fs';
import { isLogFile, listRunFolder, type FolderLayout } from '../read/run-folder';
import type { DiscoverySnapshot } from '../discover/step-labels';

export interface FollowOptions {
  format: FormatId;
  spec: MeasureSpec;
  regex?: RegexEngine;
  parquet?: ParquetOpen;
  openclawBatch?: number;
  /** A verl step file that ends with a newline and has not changed for this long is whole (ms; default 500). */
  settleMs?: number;
  /** Steps already written (a resumed follow, from its frames file): not written again unless rewritten. */
  written?: Iterable<number>;
  /** Step files read before (a resumed follow): one that changed since is rewritten and read again. */
  readFiles?: Readonly<Record<string, FileStamp>>;
  /** The frames already written (a resumed follow): with the log's own labels, they name labels to keep and get the new ones. */
  writtenFrames?: readonly MetricsFrame[];
  /** The discovered clusters as saved when the last frame was written (a resumed follow that discovers). */
  discovered?: DiscoverySnapshot;
  /** Where each step's sample lines go once it is measured, before its frame (`--samples-out`; file names are the folder's). */
  samples?: SampleRowsSink;
  now?: () => number;
}

/** A file as it was read: its size and modification time. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
}

export interface FollowEvents {
  /** A step's frame; `replaced`: the step was written before and its file was rewritten. */
  frame(f: MetricsFrame, replaced: boolean): void;
  /** A step file was read whole at this stamp (kept with the frames, for a resumed follow). */
  fileRead?(path: string, stamp: FileStamp): void;
  /** Something about the files, in plain words. */
  notice(text: string): void;
  /** With discovery: the clusters once frames are written (to save beside them: FollowOptions.discovered resumes). */
  discovered?(snap: DiscoverySnapshot): void;
  /** Each sample once it is labelled (with discovery: when its step is complete). */
  sample?(s: ImportedSample, state: string, behavior: string): void;
}

/** The behaviors a frame names. */
function frameNames(f: MetricsFrame): string[] {
  return [...new Set([...frameBehaviorCounts(f).values()].flatMap((m) => [...m.keys()]))].filter((b) => b !== 'invalid');
}

/** Issues a file may report before the rest are only counted. */
const ISSUES_PER_FILE = 20;

/** What the two file modes share: the folder, the measure, the sink, and writing a step. */
export class FollowCore implements SampleSink {
  readonly measure: ImportMeasure;
  /** Steps whose frame is written (this follow, or before it): their samples are not counted again. */
  readonly closed: Set<number>;
  /** Steps a sample went to since `touched` was last cleared (a step file's steps). */
  touched = new Set<number>();
  private skippedSteps = new Set<number>();
  private issueCount = new Map<string, number>();
  private said = new Set<string>();
  /** With the log's own labels (`useLogLabel`), the names can grow: the frames written, to name a later label in them. */
  private kept: Map<number, MetricsFrame> | null = null;
  private names = '';

  constructor(
    readonly fs: FollowFs,
    readonly opts: FollowOptions,
    readonly events: FollowEvents,
  ) {
    this.measure = measureOf(opts.spec, opts.regex)(opts.format === 'jsonl' ? OPEN_STEPS : Infinity, opts.discovered);
    if (opts.samples) this.measure.recordSamples(opts.samples);
    if (events.sample) this.measure.onLabeled = (s, state, behavior) => events.sample!(s, state, behavior);
    this.closed = new Set(opts.written ?? []);
    if (opts.spec.behaviors.useLogLabel) {
      this.kept = new Map((opts.writtenFrames ?? []).map((f) => [f.step, f]));
      for (const f of this.kept.values()) for (const m of frameBehaviorCounts(f).values()) this.measure.seeLabels([...m.keys()].filter((b) => b !== 'invalid'));
      this.names = this.measure.labelNames().join('\n');
    }
  }

  now(): number {
    return (this.opts.now ?? Date.now)();
  }

  sample(s: ImportedSample, sum: ImportFileSummary): void {
    sum.samples++;
    if (this.closed.has(s.step)) {
      if (!this.skippedSteps.has(s.step)) this.notice(`${s.file}:${s.line}: step ${s.step} is already written; its samples here are not counted again`);
      this.skippedSteps.add(s.step);
      return;
    }
    try {
      this.measure.add(s);
      this.touched.add(s.step);
    } catch (e) {
      if (!(e instanceof StepOrderError)) throw e;
      this.closed.add(s.step); // measured and let go: its frame is on its way
      this.sample(s, sum);
    }
  }

  issue(file: string, line: number, message: string, sum?: ImportFileSummary): void {
    if (sum) sum.issues++;
    const n = (this.issueCount.get(file) ?? 0) + 1;
    this.issueCount.set(file, n);
    if (n <= ISSUES_PER_FILE) this.notice(`${file}${line ? `:${line}` : ''}: ${message}`);
    else if (n === ISSUES_PER_FILE + 1) this.notice(`${file}: more issues; only the first ${ISSUES_PER_FILE} are shown`);
  }

  notice(text: string): void {
    this.events.notice(text);
  }

  /** A notice said once per key (a file that stays unreadable is not reported every poll). */
  noticeOnce(key: string, text: string): void {
    if (this.said.has(key)) return;
    this.said.add(key);
    this.notice(text);
  }

  /**
   * The listed files the run is read from under `layout`, with the step each one's name says (the
   * import's rule: src/core/import/read/run-folder.ts); a log file not read is said once, with why.
   */
  runFiles(entries: readonly FollowEntry[], layout: FolderLayout): { entry: FollowEntry; step: number | null }[] {
    const listing = listRunFolder(this.opts.format, entries.map((e) => e.path), layout);
    for (const s of listing.skipped) if (isLogFile(s.path)) this.noticeOnce(`skip:${s.path}`, `${s.path}: ${s.why}`);
    const byPath = new Map(entries.map((e) => [e.path, e]));
    return listing.read.map((f) => ({ entry: byPath.get(f.path)!, step: f.step }));
  }

  forget(key: string): void {
    this.said.delete(key);
  }

  /** Let a step be counted again (its file is read again after a rewrite). */
  reopen(step: number): void {
    this.closed.delete(step);
  }

  /** A step is complete: its frame is written (replacing the one written before, if any). */
  closeStep(step: number, rewritten: boolean): void {
    const f = this.measure.closeStep(step);
    if (f) this.write(f, rewritten);
  }

  /** Steps the measure let go by itself (generic JSONL in step order). */
  closeMeasured(): void {
    for (const f of this.measure.takeMeasured()) this.write(f, false);
  }

  closeOpen(): void {
    for (const step of this.measure.openStepList()) this.closeStep(step, false);
  }

  private write(f: MetricsFrame, rewritten: boolean): void {
    this.closed.add(f.step);
    this.touched.delete(f.step);
    this.events.frame(f, rewritten);
    if (this.measure.discovery) this.events.discovered?.(this.measure.discovery.save());
    if (!this.kept) return;
    this.kept.set(f.step, f);
    // (a discovered behavior is named only in the frames of the steps from its own on: not here)
    const names = this.measure.labelNames();
    if (names.join('\n') === this.names) return;
    // a label first seen now: the frames written before name it too (0), as the one-shot import's do
    const before = new Set(this.names.split('\n'));
    this.names = names.join('\n');
    const fresh = names.filter((b) => !before.has(b));
    if (this.kept.size > 1) this.notice(`behavior label${fresh.length === 1 ? '' : 's'} ${fresh.join(', ')} first seen (step ${f.step}): the ${this.kept.size - 1} frames written before are replaced to name ${fresh.length === 1 ? 'it' : 'them'} (0), as the one-shot import's do`);
    for (const [step, old] of [...this.kept].sort((a, b) => a[0] - b[0])) {
      if (step === f.step) continue;
      const g = renameBehaviors(old, this.measure.namesWith([...names, ...frameNames(old)]), this.opts.spec.eps);
      this.kept.set(step, g);
      this.events.frame(g, true);
    }
  }

  summary(name: string, kind: FileKind): ImportFileSummary {
    return { name, kind, samples: 0, issues: 0 };
  }
}
