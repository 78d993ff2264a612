/**
 * One run in a lab worker, as rune state: status (phase, backend, steps/s, timeline), the frame
 * history and the latest batch's traces. Named mutators forward to the worker's comlink API.
 * Recovery: the page keeps the trainer's weights every SNAPSHOT_EVERY steps; a worker that errors
 * out, stops answering (watchdog) or loses its WebGPU device is replaced by a fresh one that resumes
 * from that snapshot (on WASM after a device loss), and the status line says so (recovery.ts).
 */
import * as Comlink from 'comlink';
import type { Config } from '../../core/config';
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import type { ForkPoint, LabInit, LabListener, LabStatus } from '../../../workers/lab.api';
import { keepTraced, type TracedStep } from '../gates/traced';
import { startLabWorker, type LabWorker } from './lab-client';
import { FrameHistory } from './history';
import { SNAPSHOT_EVERY, recoveryPlan } from './recovery';
import { startWatchdog, type Watchdog } from './watchdog';

/** Rune state is proxied: only plain snapshots cross postMessage. */
const plain = <T>(x: T): T => $state.snapshot(x) as T;

export class RunState {
  status = $state<LabStatus | null>(null);
  /**
   * The frames to draw: at most ~MAX_DRAWN spread over the run, the latest and every setting change
   * included (history.ts), republished at most once per animation frame, so chart work stays
   * bounded on long runs. Replaced, never mutated ($state.raw).
   */
  frames = $state.raw<MetricsFrame[]>([]);
  /** Every frame of the current run, in step order (export); republished with `frames`. */
  allFrames = $state.raw<MetricsFrame[]>([]);
  #history = new FrameHistory();
  #publishPending = false;
  traces = $state.raw<SampleTrace[]>([]);
  /** The gate fields of the traced samples of recent steps (the gate editor replays drafts on them). */
  traced = $state.raw<TracedStep[]>([]);
  /** Last refusal of a control change (e.g. a restart setting), shown next to the controls. */
  notice = $state('');
  #worker: LabWorker | null = null;
  #runId = -1;
  /** Frames a restarted run keeps (those up to its fork point). */
  #prefix: MetricsFrame[] = [];
  /** How this run was started (recovery falls back to it when no snapshot was kept yet). */
  #init: LabInit | null = null;
  /** The latest weights kept in the page, and whether a readback is in flight. */
  #snapshot: ForkPoint | null = null;
  #snapshotting = false;
  #watchdog: Watchdog | null = null;
  /** After a recovery the worker starts at the snapshot: a reset must start a fresh worker at step 0. */
  #resumed = false;
  #speed = 0;
  #pauseAt: number | null = null;
  /** The base before SFT and RL as a step-0 frame (behavior metrics only), for the run `#baseRun`. */
  #baseFrame = $state.raw<MetricsFrame | null>(null);
  #baseRun = -1;
  /** Recoveries so far (worker failures and device losses). */
  recoveries = $state(0);
  /**
   * Pause was pressed and the worker has not reported idle yet (it finishes the step in flight and
   * keeps it): the page shows paused at once instead of waiting for that step.
   */
  pausing = $state(false);
  /** Counts play/pause presses: a pause's reply is stale once Play was pressed after it. */
  #transport = 0;

  constructor(readonly name: string) {}

  get phase() {
    return this.status?.phase ?? 'loading';
  }
  get step(): number {
    return this.status?.step ?? 0;
  }
  get latest(): MetricsFrame | null {
    return this.frames[this.frames.length - 1] ?? null;
  }
  /** The base before SFT and RL as a step-0 frame (behavior metrics only); null for a fork. */
  get baseFrame(): MetricsFrame | null {
    return this.#baseFrame;
  }

  /** Publish the history to the views: at most once per animation frame (a hidden tab waits). */
  #publish(): void {
    if (this.#publishPending) return;
    this.#publishPending = true;
    const raf = typeof requestAnimationFrame === 'function' ? requestAnimationFrame : (f: () => void) => setTimeout(f, 16);
    raf(() => {
      this.#publishPending = false;
      this.frames = this.#history.drawn().slice();
      this.allFrames = this.#history.all().slice();
    });
  }
  get playing(): boolean {
    return this.phase === 'running' && !this.pausing;
  }
  get ready(): boolean {
    return !!this.status && !['loading', 'pretraining', 'error'].includes(this.status.phase);
  }

  async start(init: LabInit): Promise<void> {
    this.#init = init;
    this.#resumed = false;
    this.#snapshot = init.fork ?? null;
    await this.#launch(init);
  }

  async #launch(init: LabInit): Promise<void> {
    const worker = startLabWorker(this.name);
    this.#worker = worker;
    worker.onFailure((why) => void this.#recover(worker, why, false));
    const listener: LabListener = {
      frames: (id, fs, traces) => worker === this.#worker && this.#receive(id, fs, traces),
      status: (s) => worker === this.#worker && this.#onStatus(s),
    };
    const s = await worker.api.init(plain(init), Comlink.proxy(listener));
    if (worker !== this.#worker) return;
    this.#onStatus(s);
    this.#watchdog?.stop();
    this.#watchdog = startWatchdog(() => worker.api.status(), (why) => worker.fail(why));
    if (this.#speed) await worker.api.setSpeed(this.#speed);
    if (this.#pauseAt !== null) await worker.api.setPauseAt(this.#pauseAt);
  }

  /** Replace a failed worker: resume from the last snapshot (or replay from the start), saying which. */
  async #recover(worker: LabWorker, why: string, deviceLost: boolean): Promise<void> {
    if (worker !== this.#worker || !this.#init) return;
    this.#watchdog?.stop();
    this.#watchdog = null;
    worker.terminate();
    this.#worker = null;
    const step = this.step;
    const plan = recoveryPlan({ original: this.#init, snapshot: this.#snapshot, step, why, deviceLost });
    this.recoveries++;
    this.pausing = false;
    this.#prefix = this.#history.all().filter((f) => f.step <= plan.keepTo);
    this.#newRun(-1);
    if (this.status) this.status = { ...this.status, phase: 'loading', message: `${plan.message.split(':')[0]}: restarting the worker…` };
    this.#resumed = !!plan.init.fork && plan.init.fork !== this.#init.fork;
    await this.#launch({ ...plan.init, note: plan.message });
  }

  /** Keep the trainer's weights every SNAPSHOT_EVERY steps (one readback; never two at once). */
  async #takeSnapshot(): Promise<void> {
    const worker = this.#worker;
    if (!worker || this.#snapshotting) return;
    this.#snapshotting = true;
    const id = this.#runId;
    try {
      const point = await worker.api.forkPoint();
      if (worker === this.#worker && id === this.#runId) this.#snapshot = point;
    } catch {
      // a failing worker is the watchdog's business; the previous snapshot stays
    } finally {
      this.#snapshotting = false;
    }
  }

  #newRun(id: number): void {
    this.#runId = id;
    this.#history.reset(this.#prefix);
    this.#publish();
    this.traces = [];
    this.traced = [];
    // a snapshot past the kept prefix belongs to the run that just ended
    const kept = this.#prefix.length ? this.#prefix[this.#prefix.length - 1].step : 0;
    if (this.#snapshot && this.#snapshot.step > kept) this.#snapshot = null;
  }

  #receive(id: number, fs: MetricsFrame[], traces: SampleTrace[]): void {
    if (id < this.#runId) return;
    if (id > this.#runId) this.#newRun(id);
    this.#history.push(fs);
    this.#publish();
    this.traces = traces;
    const last = fs[fs.length - 1]?.step ?? 0;
    if (traces.length) this.traced = keepTraced(this.traced, last, traces.map((t) => t.fields));
    if (last - (this.#snapshot?.step ?? 0) >= SNAPSHOT_EVERY) void this.#takeSnapshot();
  }

  #onStatus(s: LabStatus): void {
    if (s.runId < this.#runId) return;
    if (s.runId > this.#runId) this.#newRun(s.runId);
    // one step-0 frame per run (statuses arrive ~10/s; the plots need not redraw for an equal one)
    if (!s.baseScalars !== !this.#baseFrame || this.#baseRun !== s.runId) {
      this.#baseRun = s.runId;
      this.#baseFrame = s.baseScalars ? ({ step: 0, version: 0, scalars: s.baseScalars, series: {}, ratioEdges: [], perf: {}, changes: {}, trace: [] } as unknown as MetricsFrame) : null;
    }
    this.status = s;
    if (s.phase !== 'running') this.pausing = false; // the worker stopped (pause, end, checkpoint, NaN)
    if (s.fault === 'device-lost' && this.#worker) void this.#recover(this.#worker, s.message.replace(/^WebGPU device lost: /, ''), true);
  }

  #api() {
    if (!this.#worker) throw new Error(`run ${this.name} not started`);
    return this.#worker.api;
  }

  play = async (): Promise<void> => {
    this.#transport++;
    this.pausing = false;
    await this.#api().play();
  };
  /** Shows paused at once; resolves when the worker is idle (the step in flight completed and kept). */
  pause = async (): Promise<void> => {
    const press = ++this.#transport;
    if (this.phase === 'running') this.pausing = true;
    try {
      const s = await this.#api().pause();
      if (press === this.#transport) this.#onStatus(s);
    } finally {
      if (press === this.#transport) this.pausing = false;
    }
  };
  toggle = () => (this.playing ? this.pause() : this.play());
  stepN = async (n: number) => this.#onStatus(await this.#api().step(n));
  reset = async (config?: Config): Promise<void> => {
    // a resumed worker starts at its snapshot: step 0 needs the original start again
    if (this.#resumed && this.#init) return this.restart({ ...this.#init, config: config ?? this.#init.config });
    this.#onStatus(await this.#api().reset(config && plain(config)));
  };
  reseed = async (seed: number) => this.#onStatus(await this.#api().reseed(seed));
  setSpeed = (stepsPerSecond: number) => {
    this.#speed = stepsPerSecond;
    return this.#api().setSpeed(stepsPerSecond);
  };
  setPauseAt = (step: number | null) => {
    this.#pauseAt = step;
    return this.#api().setPauseAt(step);
  };
  forkPoint = (): Promise<ForkPoint> => this.#api().forkPoint();

  /** Continue from a fork point beside the fork (history up to it is kept); null: undo on the next reset. */
  async refork(point: ForkPoint | null): Promise<void> {
    this.#prefix = point ? this.#history.all().filter((f) => f.step <= point.step) : [];
    this.#onStatus(await this.#api().refork(point));
    if (point) this.#snapshot = point;
  }

  /** A live patch for the next step; a refusal is kept in `notice`. */
  async patch(patch: Partial<Config>): Promise<boolean> {
    const err = await this.#api().setConfig(plain(patch));
    this.notice = err ?? '';
    return err === null;
  }

  /** A fresh worker (e.g. another backend): the current run and its history are dropped. */
  async restart(init: LabInit): Promise<void> {
    this.dispose();
    this.status = null;
    this.#prefix = [];
    this.#newRun(-1);
    await this.start(init);
  }

  dispose(): void {
    this.#watchdog?.stop();
    this.#watchdog = null;
    this.#worker?.terminate();
    this.#worker = null;
  }
}
