// The import worker's comlink API: parse and measure dropped log files off the main thread.
import type { BehaviorRuleSet, ImportedSample, ImportOptions, ImportProgress, MeasureResult, MeasureSpec, ScanResult, StatesSpec } from '../src/core/import/index';

export type ImportRunOptions = Omit<ImportOptions, 'onProgress'>;

/** A previewed sample's state and behavior under the rules (rule: as `Classified.rule`). */
export interface ClassifiedSample {
  state: string;
  behavior: string;
  rule: number | null;
}

export interface ImportApi {
  /** The budget watchdog's shared memory (src/io/regex/guard-shared.ts); without it, patterns that need JavaScript's backtracking engine cannot run. */
  guard(sab: SharedArrayBuffer): void;
  /** Format, counts, issues and the first samples (for the rules preview). */
  scan(files: File[], opts: ImportRunOptions, onProgress: (p: ImportProgress) => void): Promise<ScanResult>;
  /** Every sample classified and measured into per-step frames. */
  measure(files: File[], spec: MeasureSpec, opts: ImportRunOptions, onProgress: (p: ImportProgress) => void): Promise<MeasureResult>;
  /** The rules applied to the scanned preview samples (regexes run here, under the budget). */
  classify(samples: ImportedSample[], states: StatesSpec, behaviors: BehaviorRuleSet): Promise<ClassifiedSample[]>;
}
