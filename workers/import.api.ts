// The import worker's comlink API: parse and measure dropped log files off the main thread.
import type { FollowSink } from './import-follow';
import type { HeldProposal } from './import-browse';
import type { SampleFacets, SamplePage, SampleQuery } from '../src/core/import/browse/index';
import type { BehaviorRuleSet, FormatId, ImportedSample, ImportOptions, ImportProgress, LabelTitles, MeasureResult, MeasureSpec, ScanResult, StatesSpec } from '../src/core/import/index';

export type ImportRunOptions = Omit<ImportOptions, 'onProgress'>;

/** A previewed sample's state and behavior under the rules (rule: as `Classified.rule`). */
export interface ClassifiedSample {
  state: string;
  behavior: string;
  rule: number | null;
}

/** How a folder is followed: its format (the page names it), OpenClaw's records per step, the poll interval. */
export interface FollowRunOptions {
  format: FormatId;
  openclawBatch?: number;
  /** Milliseconds between polls of the folder (default 500). */
  pollMs?: number;
}

export interface ImportApi {
  /** The budget watchdog's shared memory (src/io/regex/guard-shared.ts); without it, patterns that need JavaScript's backtracking engine cannot run. */
  guard(sab: SharedArrayBuffer): void;
  /** Format, counts, issues and the first samples (for the rules preview). */
  scan(files: File[], opts: ImportRunOptions, onProgress: (p: ImportProgress) => void): Promise<ScanResult>;
  /** Every sample classified and measured into per-step frames; the samples are kept (their place and labels) for `samples`. */
  measure(files: File[], spec: MeasureSpec, opts: ImportRunOptions, onProgress: (p: ImportProgress) => void): Promise<MeasureResult>;
  /** Follow a folder live (one follow at a time): resolves once `stopFollow` was called and the follow finished, every event delivered. */
  follow(dir: FileSystemDirectoryHandle, spec: MeasureSpec, opts: FollowRunOptions, sink: FollowSink): Promise<void>;
  /** End the follow: the follower's finish() writes the steps still open, as the CLI's Ctrl-C. */
  stopFollow(): void;
  /** What the samples of the run measured last can be filtered by (null: none measured yet). */
  sampleFacets(): SampleFacets | null;
  /** A page of the run's samples, their text read back from the files (the rollout viewer). */
  samples(q: SampleQuery): Promise<SamplePage>;
  /** A rule proposed for a behavior of the run measured last, named `name` (how many of its samples and of the others it matches). */
  proposeRule(behavior: string, name: string): Promise<HeldProposal>;
  /** The rules applied to the scanned preview samples (regexes run here, under the budget), with the titles of what was discovered. */
  classify(samples: ImportedSample[], states: StatesSpec, behaviors: BehaviorRuleSet): Promise<{ labels: ClassifiedSample[]; titles: LabelTitles }>;
}
