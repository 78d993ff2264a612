/**
 * "Make a task from this run" (rune state): the task fitted from the open import (the core's
 * fitTask, with its notes) and a simulated run of it: the fitted task trained in a lab worker of
 * its own (the lab's RunState: the same worker and session API as run A, real training) for the
 * import's step count under the gate the user chose, so the views can put it beside the import.
 */
import { errorText } from '../../core/unknown';
import type { Config } from '../../core/config';
import type { MeasureResult } from '../../core/import/index';
import type { MetricsFrame } from '../../core/metrics';
import { fitTask, type FitResult } from '../../core/tasks/fit';
import { specText } from '../../core/tasks/registry';
import type { LabInit } from '../../../workers/lab.api';
import { RunState } from '../state/run.svelte';
import { importedSteps } from './fit-compare';

/** What the simulated run trained under: its config and the words for its gate. */
export interface SimulatedUnder {
  config: Config;
  gateLabel: string;
  steps: number;
}

export class FitRun {
  fit = $state.raw<FitResult | null>(null);
  error = $state('');
  /** The import the fit came from (its frames are the solid curves). */
  source = $state.raw<MeasureResult | null>(null);
  sim = $state.raw<RunState | null>(null);
  under = $state.raw<SimulatedUnder | null>(null);
  simError = $state('');

  /** Fit a spec to the import (cheap: sums over its frames); a failure is the message. */
  make(result: MeasureResult, name: string): void {
    this.stop();
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

  /**
   * The config a run of the fitted task trains with, from the lab's: its task, its gate, the import's
   * step count and the fit's settings (fit.ts FitSettings: judgeNoise 0, the log's session length).
   */
  configFor(base: Config, gate: string): Config {
    const fit = this.fit!;
    return { ...base, ...this.settingsFor(base), taskSpec: specText(fit.spec), gate, steps: Math.max(base.steps, importedSteps(this.source!.frames)) };
  }

  /** The settings besides the task that a fitted task trains with (FitPanel sets them in the lab first). */
  settingsFor(base: Config): Pick<Config, 'sessionTurns' | 'judgeNoise'> {
    const s = this.fit?.settings;
    return { sessionTurns: s?.sessionTurns ?? base.sessionTurns, judgeNoise: s?.judgeNoise ?? 0 };
  }

  /** Train the fitted task for the import's step count in a lab worker of its own. */
  async simulate(init: (config: Config) => Omit<LabInit, 'fork'>, base: Config, gate: string, gateLabel: string): Promise<void> {
    if (!this.fit || !this.source) return;
    this.stop();
    this.simError = '';
    const steps = importedSteps(this.source.frames);
    const config = this.configFor(base, gate);
    this.under = { config, gateLabel, steps };
    const run = new RunState('fit');
    this.sim = run;
    try {
      await run.host.start(init(config));
      if (this.sim !== run) return;
      if (run.status?.phase === 'error') throw new Error(run.status.message || 'the simulated run failed to start');
      await run.host.control('step', steps);
    } catch (e) {
      if (this.sim === run) this.simError = errorText(e);
    }
  }

  /** The simulated run's frames so far. */
  get simulated(): MetricsFrame[] {
    return this.sim?.allFrames ?? [];
  }

  stop(): void {
    this.sim?.host.dispose();
    this.sim = null;
  }
}
