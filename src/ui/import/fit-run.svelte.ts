/**
 * "Make a task from this run" (rune state): the task fitted from the open import (the core's
 * fitTask, with its notes) and the import it came from (what the seed band and the forecast train
 * beside: SeedBand.svelte, FitForecast.svelte).
 */
import type { Config } from '../../core/config';
import { errorText } from '../../core/unknown';
import type { MeasureResult } from '../../core/import/index';
import { fitTask, type FitResult } from '../../core/tasks/fit';
import { specText } from '../../core/tasks/registry';

export class FitRun {
  fit = $state.raw<FitResult | null>(null);
  error = $state('');
  /** The import the fit came from (its frames are the log the band and the forecast compare with). */
  source = $state.raw<MeasureResult | null>(null);

  /** Fit a spec to the import (cheap: sums over its frames); a failure is the message. */
  make(result: MeasureResult, name: string): void {
    this.error = '';
    try {
      this.fit = fitTask(result, { name });
      this.source = result;
    } catch (e) {
      this.fit = null;
      this.error = errorText(e);
    }
  }

  /** The fitted spec's canonical text: what the taskSpec setting holds. */
  get specText(): string | null {
    return this.fit ? specText(this.fit.spec) : null;
  }

  /** The settings besides the task that a fitted task trains with (FitPanel sets them in the lab first). */
  settingsFor(base: Config): Pick<Config, 'sessionTurns' | 'judgeNoise'> {
    const s = this.fit?.settings;
    return { sessionTurns: s?.sessionTurns ?? base.sessionTurns, judgeNoise: s?.judgeNoise ?? 0 };
  }
}
