/**
 * One run in a lab worker, as rune state: the fields its host (run-host.ts: the worker, recovery,
 * snapshots, the watchdog) reports, as run-view.ts documents them, and the host itself, whose
 * methods are the run's controls (`host.control(name, …)` sends any control of the session). Rune
 * state is proxied: the host sends only plain copies of it to the worker (`plain`).
 */
import { flushSync } from 'svelte';
import type { Config } from '../../core/config';
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import type { LabSnapshot, LabStatus } from '../../core/run/types';
import type { TracedStep } from '../gates/traced';
import { RunHost } from './run-host';
import type { RunMirror } from './run-view';

export class RunState implements RunMirror {
  status = $state<LabStatus | null>(null);
  frames = $state.raw<MetricsFrame[]>([]);
  allFrames = $state.raw<MetricsFrame[]>([]);
  framesRun = $state(-1);
  traces = $state.raw<SampleTrace[]>([]);
  traced = $state.raw<TracedStep[]>([]);
  tracedSamples = $state.raw<TracedStep<SampleTrace>[]>([]);
  snapshot = $state.raw<LabSnapshot | null>(null);
  baseFrame = $state.raw<MetricsFrame | null>(null);
  recoveries = $state(0);
  pausing = $state(false);
  /** Last refusal of a control change (e.g. a restart setting), shown next to the controls. */
  notice = $state('');
  readonly host: RunHost;

  constructor(readonly name: string) {
    this.host = new RunHost(name, {
      set: (changed) => Object.assign(this, changed),
      // synchronously, so that the pacer measures what the views' redraw cost
      draw: (changed) => flushSync(() => Object.assign(this, changed)),
      plain: (value) => $state.snapshot(value) as typeof value,
    });
  }

  get phase() {
    return this.status?.phase ?? 'loading';
  }
  get step(): number {
    return this.status?.step ?? 0;
  }
  get latest(): MetricsFrame | null {
    return this.frames[this.frames.length - 1] ?? null;
  }
  get playing(): boolean {
    return this.phase === 'running' && !this.pausing;
  }
  get ready(): boolean {
    return !!this.status && !['loading', 'pretraining', 'error'].includes(this.status.phase);
  }

  /** A live patch for the next step; a refusal is kept in `notice`. */
  async patch(patch: Partial<Config>): Promise<boolean> {
    const err = await this.host.control('setConfig', patch);
    this.notice = err ?? '';
    return err === null;
  }
}
