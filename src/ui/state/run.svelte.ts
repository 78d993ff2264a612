/**
 * One run in a lab worker, as rune state: a mirror of what its host (run-host.ts: the worker,
 * recovery, snapshots, the watchdog) reports — status (phase, backend, steps/s, timeline), the
 * frames to draw, the latest batch's traces, the kept snapshot — and named mutators that forward
 * to the host. Rune state is proxied: only plain snapshots of it go to the host (and on to the
 * worker).
 */
import { flushSync } from 'svelte';
import type { Config } from '../../core/config';
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import type { RecoveryPlan } from '../../core/run/recovery-plan';
import type { ForkPoint, LabInit, LabSnapshot, LabStatus } from '../../core/run/types';
import type { TracedStep } from '../gates/traced';
import { RunHost, type RunMirror } from './run-host';

const plain = <T>(x: T): T => $state.snapshot(x) as T;

export class RunState implements RunMirror {
  status = $state<LabStatus | null>(null);
  /** The frames to draw: at most ~MAX_DRAWN spread over the run (history.ts), paced (redraw-pacer.ts). Replaced, never mutated. */
  frames = $state.raw<MetricsFrame[]>([]);
  /** Every frame of the current run, in step order (export); republished with `frames`. */
  allFrames = $state.raw<MetricsFrame[]>([]);
  /** The run id `frames` belong to (published with them: the status may be a run ahead). */
  framesRun = $state(-1);
  traces = $state.raw<SampleTrace[]>([]);
  /** The gate fields of the traced samples of recent steps (the gate editor replays drafts on them). */
  traced = $state.raw<TracedStep[]>([]);
  /** Last refusal of a control change (e.g. a restart setting), shown next to the controls. */
  notice = $state('');
  /** The latest snapshot kept in the page (published for storage). */
  snapshot = $state.raw<LabSnapshot | null>(null);
  /** The base before SFT and RL as a step-0 frame (behavior metrics only); null for a fork. */
  baseFrame = $state.raw<MetricsFrame | null>(null);
  /** Recoveries so far (worker failures and device losses). */
  recoveries = $state(0);
  /** Pause was pressed and the worker has not reported idle yet: the page shows paused at once. */
  pausing = $state(false);
  readonly #host: RunHost;

  constructor(readonly name: string) {
    this.#host = new RunHost(name, {
      set: (changed) => Object.assign(this, changed),
      // synchronously, so that the pacer measures what the views' redraw cost
      draw: (changed) => flushSync(() => Object.assign(this, changed)),
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

  start = (init: LabInit) => this.#host.start(plain(init));
  /** Pick up an interrupted run (a reload): its known frames at once, then the plan's snapshot or a replay. */
  resume = (plan: RecoveryPlan, frames: readonly MetricsFrame[], traces: SampleTrace[]) => this.#host.resume(plain(plan), frames, traces);
  play = () => this.#host.play();
  /** Shows paused at once; resolves when the worker is idle (the step in flight completed and kept). */
  pause = () => this.#host.pause();
  toggle = () => (this.playing ? this.pause() : this.play());
  stepN = (n: number) => this.#host.stepN(n);
  reset = (config?: Config) => this.#host.reset(config && plain(config));
  reseed = (seed: number) => this.#host.reseed(seed);
  setSpeed = (stepsPerSecond: number) => this.#host.setSpeed(stepsPerSecond);
  setPauseAt = (step: number | null) => this.#host.setPauseAt(step);
  forkPoint = (): Promise<ForkPoint> => this.#host.forkPoint();
  /** Continue from a fork point beside the fork (history up to it is kept); null: undo on the next reset. */
  refork = (point: ForkPoint | null) => this.#host.refork(point);
  /** A fresh worker (e.g. another backend): the current run and its history are dropped. */
  restart = (init: LabInit) => this.#host.restart(plain(init));
  dispose = () => this.#host.dispose();

  /** A live patch for the next step; a refusal is kept in `notice`. */
  async patch(patch: Partial<Config>): Promise<boolean> {
    const err = await this.#host.patch(plain(patch));
    this.notice = err ?? '';
    return err === null;
  }
}
