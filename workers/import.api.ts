// The import worker's comlink API: parse and measure dropped log files off the main thread.
import type { ImportOptions, ImportProgress, MeasureResult, MeasureSpec, ScanResult } from '../src/core/import/index';

export type ImportRunOptions = Omit<ImportOptions, 'onProgress'>;

export interface ImportApi {
  /** Format, counts, issues and the first samples (for the rules preview). */
  scan(files: File[], opts: ImportRunOptions, onProgress: (p: ImportProgress) => void): Promise<ScanResult>;
  /** Every sample classified and measured into per-step frames. */
  measure(files: File[], spec: MeasureSpec, opts: ImportRunOptions, onProgress: (p: ImportProgress) => void): Promise<MeasureResult>;
}
