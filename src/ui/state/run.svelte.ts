/**
 * One run in a lab worker, as rune state: status (phase, backend, steps/s, timeline), the frame
 * history and the latest batch's traces. Named mutators forward to the worker's comlink API.
 * Recovery: the page keeps a snapshot of the run (weights, optimizer state, RNG positions) every
 * SNAPSHOT_EVERY steps and at every pause (src/core/run/recovery.ts); a worker that errors out, stops answering (watchdog) or
 * loses its WebGPU device is replaced by a fresh one that resumes from it (on WASM after a device
 * loss) and replays the steps after it, and the status line says so (recovery.ts). `resume` picks a
 * stored run up after a reload the same way.
 */
import * as Comlink from 'comlink';
import { flushSync } from 'svelte';
import type { Config } from '../../core/config';
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import type { ForkPoint, LabInit, LabListener, LabSnapshot, LabStatus } from '../../../workers/lab.api';
import { keepTraced, type TracedStep } from '../gates/traced';
import { startLabWorker, type LabWorker } from './lab-client';
import { FrameHistory } from './history';
import { snapshotDue } from '../../core/run/recovery';
import { recoveryPlan, type RecoveryPlan } from './recovery';
import { RedrawPacer, browserClock } from './redraw-pacer';
import { startWatchdog, type Watchdog } from './watchdog';

/** Rune state is proxied: only plain snapshots cross postMessage. */
const plain = <T>(x: T): T => $state.snapshot(x) as T;

export class RunState {
  status = $state<LabStatus | null>(null);
  /**
   * The frames to draw: at most ~MAX_DRAWN spread over the run, the latest and every setting change
   * included (history.ts), republished at most once per animation frame and spaced by what the
   * last redraw cost (redraw-pacer.ts), so chart work stays bounded on long runs and a click is
   * handled promptly. Replaced, never mutated ($state.raw).
   */
  frames = $state.raw<MetricsFrame[]>([]);
  /** Every frame of the current run, in step order (export); republished with `frames`. */
  allFrames = $state.raw<MetricsFrame[]>([]);
  /** The run id `frames` belong to (published with them: the status may be a run ahead). */
  framesRun = $state(-1);
  #history = new FrameHistory();
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
  /** The latest snapshot kept in the page (published for storage), and whether one is being read. */
  snapshot = $state.raw<LabSnapshot | null>(null);
  #snapshotting = false;
  /** The snapshot failed once (an engine that cannot export): recovery replays instead. */
  #snapshotProblem = '';
  #watchdog: Watchdog | null = null;
  /** After a resume the kept frames reach past the run's start: a reset keeps those up to here only. */
  #startStep: number | null = null;
  /** Runs started in workers so far: a reused worker's earlier listener is ignored. */
  #launches = 0;
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
    this.#pacer.request();
  }
  /** Paced (redraw-pacer.ts): at most one redraw per animation frame, spaced by what the last one cost. */
  #pacer = new RedrawPacer(() => {
    // synchronously, so that the pacer measures what the views' redraw cost
    flushSync(() => {
      this.frames = this.#history.drawn().slice();
      this.allFrames = this.#history.all().slice();
      this.framesRun = this.#runId;
      this.traces = this.#latestTraces;
    });
  }, browserClock());
  /** The latest batch's traces, published with the frames (views pair them with the latest frame). */
  #latestTraces: SampleTrace[] = [];
  get playing(): boolean {
    return this.phase === 'running' && !this.pausing;
  }
  get ready(): boolean {
    return !!this.status && !['loading', 'pretraining', 'error'].includes(this.status.phase);
  }

  async start(init: LabInit): Promise<void> {
    this.#init = init;
    this.snapshot = null;
    await this.#launch(init);
  }

  /**
   * Pick up an interrupted run (a reload): its known frames show at once, the worker continues from
   * the plan's snapshot or replays from step 0 (recovery.ts), `traces` are the last step's.
   */
  async resume(plan: RecoveryPlan, frames: readonly MetricsFrame[], traces: SampleTrace[]): Promise<void> {
    const { resume, ...original } = plan.init;
    // the running worker takes the resumed run (its engine runtime is warm: a fresh worker would
    // start onnxruntime's WASM threads again)
    const reuse = this.#worker;
    this.#watchdog?.stop();
    this.#watchdog = null;
    this.#init = original;
    this.#startStep = original.fork?.step ?? 0;
    this.#prefix = frames.filter((f) => f.step <= plan.keepTo);
    this.snapshot = resume?.snapshot ?? null;
    this.#newRun(-1);
    this.status = null;
    await this.#launch({ ...plan.init, note: plan.message }, reuse ?? undefined);
    if (this.step === plan.keepTo) this.#showTraces(traces);
  }

  /** Start a run in a new worker, or in `reuse` (its previous run is disposed there). */
  async #launch(init: LabInit, reuse?: LabWorker): Promise<void> {
    const worker = reuse ?? startLabWorker(this.name);
    this.#worker = worker;
    const launch = ++this.#launches;
    if (!reuse) worker.onFailure((why) => void this.#recover(worker, why, false));
    const current = () => worker === this.#worker && launch === this.#launches;
    const listener: LabListener = {
      frames: (id, fs, traces) => current() && this.#receive(id, fs, traces),
      status: (s) => current() && this.#onStatus(s),
    };
    const s = await worker.api.init(plain(init), Comlink.proxy(listener));
    if (!current()) return;
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
    const known = this.#history.all();
    const last = known[known.length - 1];
    const start = this.#init.fork?.step ?? 0;
    const plan = recoveryPlan({
      original: this.#init, snapshot: this.snapshot, step: last?.step ?? start, timeline: this.status?.timeline ?? [],
      ...(last ? { expect: last } : {}), why, deviceLost, failedAt: Math.max(this.step, last?.step ?? 0),
    });
    this.recoveries++;
    this.#startStep = this.#init.fork?.step ?? 0;
    this.pausing = false;
    this.#prefix = known.filter((f) => f.step <= plan.keepTo);
    const traces = this.traces;
    this.#newRun(-1);
    if (this.status) this.status = { ...this.status, phase: 'loading', message: `${plan.message.split(':')[0]}: restarting the worker…` };
    await this.#launch({ ...plan.init, note: plan.message });
    if (this.step === plan.keepTo) this.#showTraces(traces);
  }

  /** The traces of the latest step kept across a restart (the worker's new run has none yet). */
  #showTraces(traces: SampleTrace[]): void {
    this.#latestTraces = traces;
    this.traces = traces;
  }

  /** Keep the run's snapshot (one readback; never two at once). */
  async #takeSnapshot(): Promise<void> {
    const worker = this.#worker;
    if (!worker || this.#snapshotting || this.#snapshotProblem) return;
    this.#snapshotting = true;
    const id = this.#runId;
    try {
      const snap = await worker.api.snapshot();
      if (worker === this.#worker && id === this.#runId) this.snapshot = snap;
    } catch (e) {
      // a failing worker is the watchdog's business; an engine that cannot export says so once
      const why = e instanceof Error ? e.message : String(e);
      if (/cannot export/.test(why)) this.#snapshotProblem = why;
    } finally {
      this.#snapshotting = false;
    }
  }

  #newRun(id: number): void {
    this.#runId = id;
    this.#history.reset(this.#prefix);
    this.#latestTraces = [];
    this.#publish();
    this.traces = [];
    this.traced = [];
    // a snapshot past the kept prefix belongs to the run that just ended
    const kept = this.#prefix.length ? this.#prefix[this.#prefix.length - 1].step : 0;
    if (this.snapshot && this.snapshot.step > kept) this.snapshot = null;
  }

  #receive(id: number, fs: MetricsFrame[], traces: SampleTrace[]): void {
    if (id < this.#runId) return;
    if (id > this.#runId) this.#newRun(id);
    this.#history.push(fs);
    this.#latestTraces = traces;
    // paced while playing; a step taken while idle (Step, the last frames of a pause) shows at once
    if (this.phase === 'running') this.#publish();
    else this.#pacer.flush();
    const last = fs[fs.length - 1]?.step ?? 0;
    if (traces.length) this.traced = keepTraced(this.traced, last, traces.map((t) => t.fields));
    if (snapshotDue(last, this.snapshot?.step ?? 0, false)) void this.#takeSnapshot();
  }

  #onStatus(s: LabStatus): void {
    if (s.runId < this.#runId) return;
    if (s.runId > this.#runId) this.#newRun(s.runId);
    // one step-0 frame per run (statuses arrive ~10/s; the plots need not redraw for an equal one)
    if (!s.baseScalars !== !this.#baseFrame || this.#baseRun !== s.runId) {
      this.#baseRun = s.runId;
      this.#baseFrame = s.baseScalars ? ({ step: 0, version: 0, scalars: s.baseScalars, series: {}, ratioEdges: [], perf: {}, changes: {}, trace: [] } satisfies MetricsFrame) : null;
    }
    this.status = s;
    if (s.phase !== 'running') {
      this.pausing = false; // the worker stopped (pause, end, checkpoint, NaN)
      this.#pacer.flush(); // idle: the views and exports show every frame now, not after the redraw gap
    }
    if (s.fault === 'device-lost' && this.#worker) void this.#recover(this.#worker, s.message.replace(/^WebGPU device lost: /, ''), true);
    // a run that stopped (pause, Step, done) is kept as it stands: a reload then resumes right here
    else if (['ready', 'paused', 'done'].includes(s.phase) && !s.needsReset && snapshotDue(s.step, this.snapshot?.step ?? 0, true)) void this.#takeSnapshot();
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
  /** A resumed run's next reset starts at its start (step 0, a fork's fork step): keep only frames up to it. */
  #toStart(): void {
    const start = this.#startStep;
    if (start === null) return;
    this.#prefix = this.#history.all().filter((f) => f.step <= start);
    this.#startStep = null;
  }
  reset = async (config?: Config): Promise<void> => {
    this.#toStart();
    this.#onStatus(await this.#api().reset(config && plain(config)));
  };
  reseed = async (seed: number) => {
    this.#toStart();
    this.#onStatus(await this.#api().reseed(seed));
  };
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
    this.#startStep = null;
    this.#onStatus(await this.#api().refork(point));
    if (point) {
      // the run restarted at the fork point (fresh moments and streams): keep that state at once
      this.snapshot = null;
      await this.#takeSnapshot();
    }
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
    this.#startStep = null;
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
