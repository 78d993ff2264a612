/**
 * The page's host of one lab run: it starts the run's worker (lab-client.ts), follows its status
 * and frames (the frames: run-feed.ts), keeps a snapshot of the run every SNAPSHOT_EVERY steps and
 * at every stop, watches the worker (watchdog.ts) and replaces one that errors out, stops answering
 * or loses its WebGPU device by a fresh one that resumes from that snapshot (the plan and its
 * words: src/core/run/recovery-plan.ts). Plain TypeScript: what the views read is mirrored into
 * rune state by the `view` it is given (run.svelte.ts), every field as the host sets it.
 */
import * as Comlink from 'comlink';
import type { Config } from '../../core/config';
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import { baseFrameOf, framesUpTo } from '../../core/run/frames';
import { snapshotDue, snapshotOnStatus, snapshotRefusal, snapshotWithin } from '../../core/run/recovery';
import { deviceLostWhy, failurePlan, restartingStatus, type RecoveryPlan } from '../../core/run/recovery-plan';
import type { ForkPoint, LabInit, LabListener, LabSnapshot, LabStatus } from '../../core/run/types';
import type { TracedStep } from '../gates/traced';
import { startLabWorker, type LabWorker } from './lab-client';
import { RunFeed } from './run-feed';
import { startWatchdog, type Watchdog } from './watchdog';

/** What the views read of a run, as the host keeps it. */
export interface RunMirror {
  status: LabStatus | null;
  /** Pause was pressed and the worker has not reported idle yet (the page shows paused at once). */
  pausing: boolean;
  /** The latest snapshot kept in the page (published for storage). */
  snapshot: LabSnapshot | null;
  /** Recoveries so far (worker failures and device losses). */
  recoveries: number;
  /** The base before SFT and RL as a step-0 frame (behavior metrics only); null for a fork. */
  baseFrame: MetricsFrame | null;
  /** The gate fields of the traced samples of recent steps (the gate editor replays drafts on them). */
  traced: TracedStep[];
  /** The latest batch's traces (views pair them with the latest frame). */
  traces: SampleTrace[];
  /** The frames to draw (history.ts), every frame of the run (export), and the run they belong to. */
  frames: MetricsFrame[];
  allFrames: MetricsFrame[];
  framesRun: number;
}

/** The fields the host itself keeps (the frames and traces: run-feed.ts). */
type Mirrored = Pick<RunMirror, 'status' | 'pausing' | 'snapshot' | 'recoveries' | 'baseFrame'>;

export interface RunView {
  /** Mirror the fields that changed. */
  set(changed: Partial<RunMirror>): void;
  /** A paced redraw's fields: set synchronously, so that the pacer measures what the redraw cost. */
  draw(changed: Pick<RunMirror, 'frames' | 'allFrames' | 'framesRun' | 'traces'>): void;
}

export class RunHost {
  #mirror: Mirrored = { status: null, pausing: false, snapshot: null, recoveries: 0, baseFrame: null };
  readonly #feed: RunFeed;
  #worker: LabWorker | null = null;
  /** Frames a restarted run keeps (those up to its fork point). */
  #prefix: MetricsFrame[] = [];
  /** How this run was started (recovery falls back to it when no snapshot was kept yet). */
  #init: LabInit | null = null;
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
  #baseRun = -1;
  /** Counts play/pause presses: a pause's reply is stale once Play was pressed after it. */
  #transport = 0;
  /**
   * Runs up to this id were left by a reset (another lesson, task or seed): their late frames are
   * not shown, and until the new run reports, its status shows the start it goes back to — never
   * the old run's step, chart or rate under the new lesson's title.
   */
  #left = -1;

  constructor(
    readonly name: string,
    private readonly view: RunView,
  ) {
    this.#feed = new RunFeed(view);
  }

  /** Keep a change and mirror it (the host reads its own copy; the views read the rune one). */
  #set(changed: Partial<Mirrored>): void {
    Object.assign(this.#mirror, changed);
    this.view.set(changed);
  }

  get phase() {
    return this.#mirror.status?.phase ?? 'loading';
  }
  get step(): number {
    return this.#mirror.status?.step ?? 0;
  }

  async start(init: LabInit): Promise<void> {
    this.#init = init;
    this.#set({ snapshot: null });
    await this.#launch(init);
  }

  /**
   * Pick up an interrupted run (a reload): its known frames show at once, the worker continues from
   * the plan's snapshot or replays from step 0 (recovery-plan.ts), `traces` are the last step's.
   */
  async resume(plan: RecoveryPlan, frames: readonly MetricsFrame[], traces: SampleTrace[]): Promise<void> {
    const { resume, ...original } = plan.init;
    // the running worker takes the resumed run (its engine runtime is warm: a fresh worker would
    // start onnxruntime's WASM threads again)
    const reuse = this.#worker;
    this.#stopWatchdog();
    this.#init = original;
    this.#startStep = original.fork?.step ?? 0;
    this.#prefix = framesUpTo(frames, plan.keepTo);
    this.#set({ snapshot: resume?.snapshot ?? null });
    this.#newRun(-1);
    this.#set({ status: null });
    await this.#launch({ ...plan.init, note: plan.message }, reuse ?? undefined);
    if (this.step === plan.keepTo) this.#feed.showTraces(traces);
  }

  /** Start a run in a new worker, or in `reuse` (its previous run is disposed there). */
  async #launch(init: LabInit, reuse?: LabWorker): Promise<void> {
    const worker = reuse ?? startLabWorker(this.name);
    this.#worker = worker;
    this.#left = -1; // a worker's session counts its runs from 0
    const launch = ++this.#launches;
    if (!reuse) worker.onFailure((why) => void this.#recover(worker, why, false));
    const current = () => worker === this.#worker && launch === this.#launches;
    const listener: LabListener = {
      frames: (id, fs, traces) => current() && this.#receive(id, fs, traces),
      status: (s) => current() && this.#onStatus(s),
    };
    const s = await worker.api.init(init, Comlink.proxy(listener));
    if (!current()) return;
    this.#onStatus(s);
    this.#watchdog?.stop();
    this.#watchdog = startWatchdog(() => worker.api.status(), (why) => worker.fail(why));
    if (this.#speed) await worker.api.setSpeed(this.#speed);
    if (this.#pauseAt !== null) await worker.api.setPauseAt(this.#pauseAt);
  }

  #stopWatchdog(): void {
    this.#watchdog?.stop();
    this.#watchdog = null;
  }

  /** Replace a failed worker: resume from the last snapshot (or replay from the start), saying which. */
  async #recover(worker: LabWorker, why: string, deviceLost: boolean): Promise<void> {
    if (worker !== this.#worker || !this.#init) return;
    this.#stopWatchdog();
    worker.terminate();
    this.#worker = null;
    const known = this.#feed.all();
    const traces = this.#feed.traces;
    const { status, snapshot } = this.#mirror;
    const plan = failurePlan({ original: this.#init, snapshot, known, status, why, deviceLost });
    this.#set({ recoveries: this.#mirror.recoveries + 1 });
    this.#startStep = this.#init.fork?.step ?? 0;
    this.#set({ pausing: false });
    this.#prefix = framesUpTo(known, plan.keepTo);
    this.#newRun(-1);
    if (status) this.#set({ status: restartingStatus(status, plan) });
    await this.#launch({ ...plan.init, note: plan.message });
    if (this.step === plan.keepTo) this.#feed.showTraces(traces);
  }

  /** Keep the run's snapshot (one readback; never two at once). */
  async #takeSnapshot(): Promise<void> {
    const worker = this.#worker;
    if (!worker || this.#snapshotting || this.#snapshotProblem) return;
    this.#snapshotting = true;
    const id = this.#feed.runId;
    try {
      const snap = await worker.api.snapshot();
      if (worker === this.#worker && id === this.#feed.runId) this.#set({ snapshot: snap });
    } catch (e) {
      // a failing worker is the watchdog's business; an engine that cannot export says so once
      this.#snapshotProblem = snapshotRefusal(e);
    } finally {
      this.#snapshotting = false;
    }
  }

  #newRun(id: number): void {
    this.#feed.startOver(id, this.#prefix);
    // a snapshot past the kept prefix belongs to the run that just ended
    const kept = this.#prefix.length ? this.#prefix[this.#prefix.length - 1].step : 0;
    this.#set({ snapshot: snapshotWithin(this.#mirror.snapshot, kept) });
  }

  #receive(id: number, fs: MetricsFrame[], traces: SampleTrace[]): void {
    if (id < this.#feed.runId || id <= this.#left) return;
    if (id > this.#feed.runId) this.#newRun(id);
    // paced while playing; a step taken while idle (Step, the last frames of a pause) shows at once
    const last = this.#feed.push(fs, traces, this.phase === 'running');
    if (snapshotDue(last, this.#mirror.snapshot?.step ?? 0, false)) void this.#takeSnapshot();
  }

  #onStatus(reported: LabStatus): void {
    if (reported.runId < this.#feed.runId) return;
    const s = reported.runId <= this.#left ? this.#leftStatus(reported) : reported;
    if (s.runId > this.#feed.runId) this.#newRun(s.runId);
    // one step-0 frame per run (statuses arrive ~10/s; the plots need not redraw for an equal one)
    if (!s.baseScalars !== !this.#mirror.baseFrame || this.#baseRun !== s.runId) {
      this.#baseRun = s.runId;
      this.#set({ baseFrame: baseFrameOf(s) });
    }
    this.#set({ status: s });
    if (s.phase !== 'running') {
      this.#set({ pausing: false }); // the worker stopped (pause, end, checkpoint, NaN)
      this.#feed.flush(); // idle: the views and exports show every frame now, not after the redraw gap
    }
    const lost = deviceLostWhy(s);
    if (lost !== null && this.#worker) void this.#recover(this.#worker, lost, true);
    else if (snapshotOnStatus(s, this.#mirror.snapshot?.step ?? 0)) void this.#takeSnapshot();
  }

  #api() {
    if (!this.#worker) throw new Error(`run ${this.name} not started`);
    return this.#worker.api;
  }

  async play(): Promise<void> {
    this.#transport++;
    this.#set({ pausing: false });
    await this.#api().play();
  }

  /** Shows paused at once; resolves when the worker is idle (the step in flight completed and kept). */
  async pause(): Promise<void> {
    const press = ++this.#transport;
    if (this.phase === 'running') this.#set({ pausing: true });
    try {
      const s = await this.#api().pause();
      if (press === this.#transport) this.#onStatus(s);
    } finally {
      if (press === this.#transport) this.#set({ pausing: false });
    }
  }

  async stepN(n: number): Promise<void> {
    this.#onStatus(await this.#api().step(n));
  }

  /** A resumed run's next reset starts at its start (step 0, a fork's fork step): keep only frames up to it. */
  #toStart(): void {
    const start = this.#startStep;
    if (start === null) return;
    this.#prefix = framesUpTo(this.#feed.all(), start);
    this.#startStep = null;
  }

  async reset(config?: Config): Promise<void> {
    this.#toStart();
    this.#leave();
    this.#onStatus(await this.#api().reset(config));
  }

  async reseed(seed: number): Promise<void> {
    this.#toStart();
    this.#leave();
    this.#onStatus(await this.#api().reseed(seed));
  }

  /** A reset was asked for: the views drop the current run at once (not when the worker has the new one). */
  #leave(): void {
    this.#left = this.#feed.runId;
    this.#feed.startOver(this.#feed.runId, this.#prefix);
    this.#feed.showNow(); // in the same update as the counter, not at the next animation frame
    this.#set({ baseFrame: null });
    if (this.#mirror.status) this.#set({ status: this.#leftStatus({ ...this.#mirror.status, phase: 'loading', message: 'starting the new run…' }) });
  }

  /** A status of a run the page left: at the start it goes back to, without the old run's base point, rate or timeline. */
  #leftStatus(s: LabStatus): LabStatus {
    const start = this.#prefix[this.#prefix.length - 1]?.step ?? 0;
    return { ...s, step: start, stepsPerSecond: 0, baseScalars: null, timeline: s.timeline.filter((e) => e.step <= start) };
  }

  setSpeed(stepsPerSecond: number): Promise<void> {
    this.#speed = stepsPerSecond;
    return this.#api().setSpeed(stepsPerSecond);
  }

  setPauseAt(step: number | null): Promise<void> {
    this.#pauseAt = step;
    return this.#api().setPauseAt(step);
  }

  forkPoint(): Promise<ForkPoint> {
    return this.#api().forkPoint();
  }

  /** Continue from a fork point beside the fork (history up to it is kept); null: undo on the next reset. */
  async refork(point: ForkPoint | null): Promise<void> {
    this.#prefix = point ? framesUpTo(this.#feed.all(), point.step) : [];
    this.#startStep = null;
    this.#onStatus(await this.#api().refork(point));
    if (point) {
      // the run restarted at the fork point (fresh moments and streams): keep that state at once
      this.#set({ snapshot: null });
      await this.#takeSnapshot();
    }
  }

  /** A live patch for the next step: the worker's refusal, or null. */
  patch(patch: Partial<Config>): Promise<string | null> {
    return this.#api().setConfig(patch);
  }

  /** A fresh worker (e.g. another backend): the current run and its history are dropped. */
  async restart(init: LabInit): Promise<void> {
    this.dispose();
    this.#set({ status: null });
    this.#prefix = [];
    this.#startStep = null;
    this.#newRun(-1);
    await this.start(init);
  }

  dispose(): void {
    this.#stopWatchdog();
    this.#worker?.terminate();
    this.#worker = null;
  }
}
