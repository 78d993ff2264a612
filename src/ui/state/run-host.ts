/**
 * The page's host of one lab run: it starts the run's worker (lab-client.ts), follows its status
 * and frames (the frames: run-feed.ts), keeps a snapshot of the run every SNAPSHOT_EVERY steps and
 * at every stop, watches the worker (watchdog.ts) and replaces one that errors out, stops answering
 * or loses its WebGPU device by a fresh one that resumes from that snapshot (the plan and its
 * words: src/core/run/recovery-plan.ts). Plain TypeScript: what the views read is mirrored into
 * rune state by the `view` it is given (run.svelte.ts), every field as the host sets it.
 *
 * The run's controls are the worker's (workers/lab.api.ts, the session's methods): `control` sends
 * any of them and takes the status it answers, whose `continues` says which frames a new run keeps.
 * The host's own methods are the controls with more to do in the page (play/pause, the settings a
 * replaced worker must get again, the snapshot after a refork).
 */
import * as Comlink from 'comlink';
import type { Config } from '../../core/config';
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import { baseFrameOf, framesUpTo } from '../../core/run/frames';
import { snapshotDue, snapshotOnStatus, snapshotRefusal, snapshotWithin } from '../../core/run/recovery';
import { deviceLostWhy, failurePlan, restartingStatus, type RecoveryPlan } from '../../core/run/recovery-plan';
import type { ForkPoint, LabInit, LabListener, LabStatus } from '../../core/run/types';
import type { LabControl, LabControls } from '../../../workers/lab.api';
import { startLabWorker, type LabWorker } from './lab-client';
import { RunFeed } from './run-feed';
import type { RunMirror, RunView } from './run-view';
import { startWatchdog, type Watchdog } from './watchdog';

/** The fields the host itself keeps (the frames and traces: run-feed.ts). */
type Mirrored = Pick<RunMirror, 'status' | 'pausing' | 'snapshot' | 'recoveries' | 'baseFrame'>;

const isStatus = (x: unknown): x is LabStatus => typeof x === 'object' && x !== null && 'runId' in x && 'phase' in x && 'timeline' in x;

export class RunHost {
  #mirror: Mirrored = { status: null, pausing: false, snapshot: null, recoveries: 0, baseFrame: null };
  readonly #feed: RunFeed;
  #worker: LabWorker | null = null;
  /** How this run was started (recovery falls back to it when no snapshot was kept yet). */
  #init: LabInit | null = null;
  #snapshotting = false;
  /** The snapshot failed once (an engine that cannot export): recovery replays instead. */
  #snapshotProblem = '';
  #watchdog: Watchdog | null = null;
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
  /** The step the left run's views went back to. */
  #leftAt = 0;
  /** Where the next reset starts when it is not the run's own start (after Close compare: step 0). */
  #resetsTo: number | null = null;

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
    this.#init = this.view.plain(init);
    this.#set({ snapshot: null });
    await this.#launch(this.#init);
  }

  /**
   * Pick up an interrupted run (a reload): its known frames show at once, the worker continues from
   * the plan's snapshot or replays from step 0 (recovery-plan.ts), `traces` are the last step's.
   */
  async resume(reactivePlan: RecoveryPlan, frames: readonly MetricsFrame[], traces: SampleTrace[]): Promise<void> {
    const plan = this.view.plain(reactivePlan);
    const { resume, ...original } = plan.init;
    // the running worker takes the resumed run (its engine runtime is warm: a fresh worker would
    // start onnxruntime's WASM threads again)
    const reuse = this.#worker;
    this.#stopWatchdog();
    this.#init = original;
    this.#set({ snapshot: resume?.snapshot ?? null });
    this.#startOver(-1, framesUpTo(frames, plan.keepTo));
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
    // whatever the worker reports proves it alive, also while long work keeps it from answering pings
    const listener: LabListener = {
      frames: (id, fs, traces) => {
        if (!current()) return;
        this.#watchdog?.heard();
        this.#receive(id, fs, traces);
      },
      status: (s) => {
        if (!current()) return;
        this.#watchdog?.heard();
        this.#onStatus(s);
      },
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
    this.#set({ pausing: false });
    this.#startOver(-1, framesUpTo(known, plan.keepTo));
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

  /** Run `id` (-1: none yet) from the frames it keeps. */
  #startOver(id: number, kept: MetricsFrame[]): void {
    this.#feed.startOver(id, kept);
    // a snapshot past the kept frames belongs to the run that just ended
    this.#set({ snapshot: snapshotWithin(this.#mirror.snapshot, kept.at(-1)?.step ?? 0) });
  }

  /** A new run `id` that continues the frames shown up to step `continues` (null: all of them). */
  #newRun(id: number, continues: number | null): void {
    const all = this.#feed.all();
    this.#startOver(id, continues === null ? [...all] : framesUpTo(all, continues));
  }

  #receive(id: number, fs: MetricsFrame[], traces: SampleTrace[][]): void {
    if (id < this.#feed.runId || id <= this.#left) return;
    // (a new run's status comes before its frames; were it not so, its first frame says where it starts)
    if (id > this.#feed.runId) this.#newRun(id, (fs[0]?.step ?? 1) - 1);
    // paced while playing; a step taken while idle (Step, the last frames of a pause) shows at once
    const last = this.#feed.push(fs, traces, this.phase === 'running');
    if (snapshotDue(last, this.#mirror.snapshot?.step ?? 0, false)) void this.#takeSnapshot();
  }

  #onStatus(reported: LabStatus): void {
    if (reported.runId < this.#feed.runId) return;
    const s = reported.runId <= this.#left ? this.#leftStatus(reported) : reported;
    if (s.runId > this.#feed.runId) this.#newRun(s.runId, s.continues);
    // one step-0 frame per run (statuses arrive ~10/s; the plots need not redraw for an equal one);
    // a run that continues this one's history from a later step (A beside its fork, or reset back to
    // the fork point) keeps the step-0 point of the frames it continues
    const later = (s.timeline[0]?.step ?? 0) > 0;
    if (this.#baseRun !== s.runId || (!later && !s.baseScalars !== !this.#mirror.baseFrame)) {
      this.#baseRun = s.runId;
      this.#set({ baseFrame: baseFrameOf(s) ?? (later ? this.#mirror.baseFrame : null) });
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

  /**
   * Send a control to the run (any of the session's: workers/lab.api.ts) with plain copies of its
   * arguments; a status it answers is taken (a new run keeps the frames its `continues` says).
   */
  async control<K extends LabControl>(name: K, ...args: Parameters<LabControls[K]>): Promise<Awaited<ReturnType<LabControls[K]>>> {
    const send = this.#api()[name] as unknown as (...a: unknown[]) => Promise<Awaited<ReturnType<LabControls[K]>>>;
    const answer = await send(...args.map((a) => this.view.plain(a)));
    if (isStatus(answer)) this.#onStatus(answer);
    return answer;
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

  /** Restart from the base with `config` (default: the current one, same seed); the views leave the run at once. */
  async reset(config?: Config): Promise<void> {
    this.#leave();
    await this.control('reset', config);
  }

  /** Restart with another seed; the views leave the run at once. */
  async reseed(seed: number): Promise<void> {
    this.#leave();
    await this.control('reseed', seed);
  }

  /** A reset was asked for: the views drop the current run at once (not when the worker has the new one). */
  #leave(): void {
    this.#left = this.#feed.runId;
    // where the reset goes back to: the run's start (its timeline's first entry), or step 0 after a compare closed
    this.#leftAt = this.#resetsTo ?? this.#mirror.status?.timeline[0]?.step ?? 0;
    this.#resetsTo = null;
    this.#feed.startOver(this.#feed.runId, framesUpTo(this.#feed.all(), this.#leftAt));
    this.#feed.showNow(); // in the same update as the counter, not at the next animation frame
    if (this.#leftAt === 0) this.#set({ baseFrame: null }); // back to a fork point: the frames before it stay, step 0 too
    if (this.#mirror.status) this.#set({ status: this.#leftStatus(this.#mirror.status) });
  }

  /**
   * A status of a run the page left: at the start it goes back to, without the old run's base point,
   * rate or timeline, and without what it said of itself ("finished 60 steps"): the new run is being
   * started (its engine warming or its base pretraining say so; a failure stays said).
   */
  #leftStatus(s: LabStatus): LabStatus {
    const start = this.#leftAt;
    const starting = ['loading', 'pretraining', 'error'].includes(s.phase) ? {} : { phase: 'loading' as const, message: 'starting the new run…' };
    return { ...s, ...starting, step: start, stepsPerSecond: 0, baseScalars: null, timeline: s.timeline.filter((e) => e.step <= start) };
  }

  /** Kept for a replaced worker too. */
  setSpeed(stepsPerSecond: number): Promise<void> {
    this.#speed = stepsPerSecond;
    return this.#api().setSpeed(stepsPerSecond);
  }

  /** Kept for a replaced worker too. */
  setPauseAt(step: number | null): Promise<void> {
    this.#pauseAt = step;
    return this.#api().setPauseAt(step);
  }

  /** Continue from a fork point beside the fork (history up to it is kept); null: undo on the next reset. */
  async refork(point: ForkPoint | null): Promise<void> {
    this.#resetsTo = point ? null : 0;
    await this.control('refork', point);
    if (point) {
      // the run restarted at the fork point (fresh moments and streams): keep that state at once
      this.#set({ snapshot: null });
      await this.#takeSnapshot();
    }
  }

  /** A fresh worker (e.g. another backend): the current run and its history are dropped. */
  async restart(init: LabInit): Promise<void> {
    this.dispose();
    this.#set({ status: null });
    this.#startOver(-1, []);
    await this.start(init);
  }

  dispose(): void {
    this.#stopWatchdog();
    this.#worker?.terminate();
    this.#worker = null;
  }
}
