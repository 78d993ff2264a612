/**
 * The run session: one training run as one state machine — init (fresh, fork, resume + replay),
 * play / pause / step (transport.ts), step back (rewind.ts), live patch, reset / reseed, fork point,
 * refork, snapshot — with coalesced frame streaming; what a step's frame means (stop, checkpoint):
 * step-outcome.ts. Its public methods are the run's controls: the
 * lab worker exposes them as they are (workers/lab.api.ts). Pure of the browser and of onnxruntime: whoever runs it (the lab
 * worker, the CLI, the tests) injects the engine factory, the base loader and the clock.
 *
 * Phases: loading → (pretraining →) ready ⇄ running ⇄ paused → done; a non-finite metric pauses
 * for good (needsReset) until a reset; an engine error or a lost device → error.
 */
import { applyPatch, makeConfig, runFixingIn, type Config } from '../config';
import type { Resume } from '../experiment/bundle';
import type { PolicyEngine } from '../engine';
import { Run } from '../loop';
import type { MetricsFrame } from '../metrics';
import { systemClock, type Clock } from './clock';
import type { BaseWeights, SessionDeps } from './deps';
import { EngineSlot } from './engine-slot';
import { errorText } from '../unknown';
import { createCoalescer, deliver, type Coalescer, type StreamedStep } from './frames';
import { replayTo, resumeOf } from './replay';
import { keepSnapshot, rewindTo } from './rewind';
import { startRun } from './start';
import { stepOutcome } from './step-outcome';
import { Transport } from './transport';
import type { ForkPoint, LabListener, LabPhase, LabSnapshot, LabStatus, ResumeFrom } from './types';

export class RunSession {
  private readonly slot: EngineSlot;
  private run: Run | null = null;
  /** The current run's frozen base (the task's, a fork's parent's, a snapshot's). */
  private base: BaseWeights | null = null;
  private fork: ForkPoint | null = null;
  /** Step the current run started from (its fork point, else 0); kept when the fork is let go. */
  private origin = 0;
  /** Set when a step produced a non-finite metric: the weights are not trusted until a reset. */
  private poisoned = '';
  private runId = 0;
  private pauseAt: number | null = null;
  private fault: LabStatus['fault'];
  /** How the current run came back after an interruption (null: it did not). */
  private resumed: Resume | null = null;
  /** The earlier frames the current run continues: those up to this step (LabStatus.continues). */
  private continues: number | null = null;
  /** Snapshots of the current run taken so far (the latest few), for a step back. */
  private kept: LabSnapshot[] = [];
  private readonly coalescer: Coalescer<StreamedStep>;
  private readonly clock: Clock;
  private readonly transport: Transport<LabStatus, LabPhase>;

  constructor(
    private readonly deps: SessionDeps,
    private readonly listener: LabListener,
    private config: Config,
  ) {
    this.clock = deps.clock ?? systemClock;
    this.slot = new EngineSlot(deps, {
      replacing: () => {
        this.emit('loading', 'warming up engine…');
        return this.disposeRun();
      },
      lost: (engine, why) => this.deviceLost(engine, why),
    });
    // every step's traces travel with its frame (a batch of several steps misses none of them)
    this.coalescer = createCoalescer<StreamedStep>((batch) => deliver(this.listener, this.runId, batch), deps.coalescer ?? { now: this.clock.now });
    this.transport = new Transport<LabStatus, LabPhase>({
      stepper: {
        advance: () => this.stepOnce(),
        mayPlay: () => this.mayPlay(),
        stopped: () => (this.transport.phase === 'running' ? this.emit(this.done() ? 'done' : 'paused', this.done() ? this.finishedText() : '') : this.status()),
        stepped: () => this.emit(this.done() ? 'done' : 'paused', ['paused', 'ready'].includes(this.transport.phase) ? this.transport.message : ''),
        flush: () => this.coalescer.flush(),
      },
      status: () => this.status(),
      report: (s) => this.listener.status(s),
      clock: this.clock,
      phase: 'loading',
      message: 'warming up engine…',
      statusEveryMs: 100,
    });
  }

  private emit(phase?: LabPhase, message?: string): LabStatus {
    return this.transport.emit(phase, message);
  }

  private finishedText(): string {
    return `finished ${this.config.steps} steps`;
  }

  status(): LabStatus {
    return {
      runId: this.runId,
      phase: this.transport.phase,
      message: this.transport.message,
      step: this.origin + (this.run?.stepCount ?? 0),
      backend: this.slot.engine?.backend ?? '',
      backendNote: this.slot.engine?.backendNote ?? '',
      baseSource: this.base?.source ?? '',
      stepsPerSecond: this.transport.rate,
      timeline: (this.run?.timeline ?? []).map((e) => ({ step: e.step + this.origin, patch: e.patch })),
      config: this.config,
      continues: this.continues,
      needsReset: this.poisoned !== '',
      baseScalars: this.run && !this.origin ? this.run.baseScalars : null,
      ...(this.fault ? { fault: this.fault } : {}),
      ...(this.resumed ? { resumed: this.resumed } : {}),
    };
  }

  /**
   * Engine + base + run; a fork starts from its parent's weights at the fork step. `resume` picks up
   * an interrupted run: from its snapshot exactly, or by replaying its timeline from the start.
   */
  async init(fork?: ForkPoint, note?: string, resume?: ResumeFrom): Promise<LabStatus> {
    return this.transport.exclusive(async () => {
      try {
        if (fork) {
          this.fork = fork;
          // Same task, model and seed as the parent; every other setting may differ.
          this.config = makeConfig({ ...this.config, task: fork.config.task, taskSpec: fork.config.taskSpec, seed: fork.config.seed, ...shapeOf(fork.config) });
        }
        if (resume?.snapshot) await this.resumeFrom(resume.snapshot);
        else await this.start(this.config);
        if (resume) this.continues = resume.step; // before the replay's statuses
        const replayed = resume ? await this.replay(resume) : null;
        if (resume) this.resumed = resumeOf(resume, this.origin, replayed?.same ?? null);
        const check = replayed?.check ?? '';
        const said = note ?? (this.fork ? `forked at step ${this.fork.step}` : '');
        return this.emit(this.poisoned ? 'paused' : 'ready', [said, check, this.poisoned].filter(Boolean).join(' '));
      } catch (e) {
        return this.emit('error', `engine failed to start: ${errorText(e)}`);
      }
    });
  }

  /** A run exactly as a snapshot left it (weights, optimizer moments, RNG streams, timeline). */
  private async resumeFrom(snap: LabSnapshot): Promise<void> {
    const engine = await this.slot.engineFor(snap.run.config);
    await this.disposeRun();
    this.config = makeConfig({ ...snap.run.config, ...snap.run.pending });
    this.base = { weights: snap.base, source: snap.baseSource };
    this.newRun(await Run.resume(engine, snap.run), snap.origin, snap.step, keepSnapshot([], snap));
  }

  /** `run` is the current run now, under a new id: it starts at `origin` and continues the earlier frames up to `continues`. */
  private newRun(run: Run, origin: number, continues: number, kept: LabSnapshot[]): void {
    Object.assign(this, { run, origin, continues, kept, resumed: null, poisoned: '' });
    this.runId++;
    this.transport.rate = 0; // the rate measured on the run before is not this run's
  }

  /**
   * Take the steps up to `r.step` again, silently (replay.ts); returns what the check of the last one
   * said, and whether it was equal bit for bit (null: nothing was replayed).
   */
  private async replay(r: ResumeFrom): Promise<{ check: string; same: boolean | null }> {
    let shownAt = 0;
    const done = await replayTo(this.run!, this.origin, r, (step) => {
      if (this.clock.now() - shownAt > 100) {
        shownAt = this.clock.now();
        this.emit('loading', `replaying the stored run: step ${step} of ${r.step}…`);
      }
    });
    this.config = { ...this.run!.config };
    this.poisoned = done.poisoned;
    return { check: done.check, same: done.last ? done.same : null };
  }

  private async start(config: Config): Promise<void> {
    const engine = await this.slot.engineFor(config);
    if (this.fork) this.base ??= { weights: this.fork.base, source: `forked from a run at step ${this.fork.step}` };
    else this.base = await this.slot.baseFor(config, (m) => this.emit('pretraining', m));
    await this.begin(engine, config, this.base);
  }

  /** A new run of `config` on `base` (a fork: from the fork point's weights) at its first step. */
  private async begin(engine: PolicyEngine, config: Config, base: BaseWeights): Promise<void> {
    await this.disposeRun();
    this.config = config;
    const origin = this.fork?.step ?? 0;
    // A fork: the frozen base stays the task's base; the trainer starts at the parent's weights.
    this.newRun(await startRun(engine, config, this.fork ? this.fork.base : base.weights, this.fork?.weights), origin, origin, []);
  }

  /**
   * The engine's device is gone (WebGPU device loss): nothing more can run here. Stop, and say so
   * with `fault`, so that the page resumes the run on WASM from the last weights it read back.
   */
  private deviceLost(engine: PolicyEngine, why: string): void {
    if (engine !== this.slot.engine) return; // an engine already replaced or disposed
    this.transport.halt();
    this.fault = 'device-lost';
    this.coalescer.flush();
    this.emit('error', `WebGPU device lost: ${why}`);
  }

  private async disposeRun(): Promise<void> {
    this.coalescer.flush();
    this.run?.dispose();
    this.run = null;
  }

  private done(): boolean {
    return !!this.run && this.origin + this.run.stepCount >= this.config.steps;
  }

  private mayPlay(): boolean {
    if (!this.run || this.fault) return false;
    if (this.poisoned) {
      this.emit('paused', this.poisoned);
      return false;
    }
    if (this.done()) {
      this.emit('done', this.finishedText());
      return false;
    }
    return true;
  }

  /** One step (under the lock); returns false when the run must stop (done, NaN, error, checkpoint). */
  private async stepOnce(): Promise<boolean> {
    if (this.fault) this.coalescer.flush(); // a step that was under way when the device went still reports
    const run = this.run;
    if (!run || !this.mayPlay()) return false;
    let frame: MetricsFrame;
    try {
      frame = await run.step();
    } catch (e) {
      this.coalescer.flush();
      this.emit('error', `step failed: ${errorText(e)}`);
      return false;
    }
    this.config = { ...run.config };
    const { shown, poisoned, checkpoint } = stepOutcome(frame, this.origin, this.pauseAt);
    this.coalescer.push({ frame: shown, traces: frame.trace });
    if (poisoned) this.poisoned = poisoned;
    const stop = poisoned ?? checkpoint;
    if (!stop) return true;
    this.coalescer.flush();
    this.emit('paused', stop);
    return false;
  }

  /** Step on until done, a pause, a checkpoint or a non-finite metric (at the set speed). */
  play(): Promise<void> {
    return this.transport.play();
  }

  /** Stop at the next step boundary; the step in flight completes and is kept (transport.ts). */
  pause(): Promise<LabStatus> {
    return this.transport.pause();
  }

  /** Take n steps (paused afterwards). */
  step(n: number): Promise<LabStatus> {
    return this.transport.step(n);
  }

  /**
   * Back one step: the run exactly as it stood before its last step, paused there (rewind.ts). It
   * is a new run id that continues the earlier frames up to that step.
   */
  async stepBack(): Promise<LabStatus> {
    await this.pause();
    return this.transport.exclusive(async () => {
      const { step: at, timeline } = this.status();
      const { base, resumed } = this;
      const engine = this.slot.engine;
      if (!this.run || !engine || !base || this.fault) return this.emit();
      if (at <= this.origin) return this.emit(undefined, `step ${at} is where this run starts: nothing to step back to`);
      const target = at - 1;
      const { snapshot, resume, pending } = rewindTo(this.kept, timeline, target);
      const kept = this.kept.filter((s) => s.step <= target);
      if (!snapshot && this.origin !== (this.fork?.step ?? 0)) return this.emit(undefined, 'no state of this run before its last step is kept: cannot step back');
      try {
        if (snapshot) await this.resumeFrom(snapshot);
        else await this.begin(engine, makeConfig(timeline[0].patch), base);
        this.continues = target; // before the replay's statuses
        await this.replay(resume);
        if (pending) this.run.setConfig(pending);
        // the same run, one step earlier: its base, the snapshots up to here and how it came back stay
        Object.assign(this, { config: { ...this.config, ...pending }, kept, resumed, base });
        return this.emit('paused', this.poisoned || `stepped back to step ${target}`);
      } catch (e) {
        return this.emit('error', `step back failed: ${errorText(e)}`);
      }
    });
  }

  /** Restart from the base with `config` (default: the current one, same seed). */
  async reset(config?: Config): Promise<LabStatus> {
    await this.pause();
    return this.transport.exclusive(async () => {
      try {
        await this.start(config ?? this.config);
        return this.emit('ready', '');
      } catch (e) {
        return this.emit('error', `reset failed: ${errorText(e)}`);
      }
    });
  }

  /** Restart with another seed. */
  reseed(seed: number): Promise<LabStatus> {
    return this.reset(applyPatch(this.config, { seed }));
  }

  /** Steps per second while playing; 0 = as fast as possible. */
  setSpeed(stepsPerSecond: number): void {
    this.transport.speed = Math.max(0, stepsPerSecond);
  }

  /** Pause automatically after this step (presenter checkpoint); null = never. */
  setPauseAt(step: number | null): void {
    this.pauseAt = step;
  }

  /**
   * Live settings go to the run's next step; restart settings need reset() (reported). The patch
   * comes from outside (the page's message, a CLI flag): it is checked here, once; the run takes it
   * as a typed value.
   */
  setConfig(patch: Partial<Config>): Promise<string | null> {
    return this.transport.exclusive(async () => {
      const restart = runFixingIn(patch);
      if (restart.length) return `${restart.join(', ')} fix the run: reset to apply`;
      try {
        const next = applyPatch(this.config, patch);
        this.run?.setConfig(patch);
        this.config = next;
        this.emit();
        return null;
      } catch (e) {
        return errorText(e);
      }
    });
  }

  /**
   * Compare: restart this run from a fork point, so that it and its fork continue from the same
   * state (weights at t, frozen base, seed; fresh optimizer moments and random streams) and differ
   * only by the fork's settings. null: later resets start from step 0 again (no restart now).
   */
  async refork(point: ForkPoint | null): Promise<LabStatus> {
    await this.pause();
    return this.transport.exclusive(async () => {
      this.fork = point;
      if (!point) return this.emit();
      try {
        await this.start(this.config);
        return this.emit('ready', `continues from step ${point.step} beside its fork`);
      } catch (e) {
        return this.emit('error', `restart at the fork point failed: ${errorText(e)}`);
      }
    });
  }

  /** The weights to fork a second run from (Compare), at the current step. */
  forkPoint(): Promise<ForkPoint> {
    return this.transport.exclusive(async () => {
      const engine = this.slot.engine;
      if (!engine || !this.base || !this.run) throw new Error('no run to fork');
      this.coalescer.flush(); // the listener then holds every frame up to the returned step
      return { step: this.origin + this.run.stepCount, base: this.base.weights, weights: await engine.getWeights(), config: this.config };
    });
  }

  /** The run exactly as it stands, between two steps (for a resume); rejects where the engine cannot export its state. */
  snapshot(): Promise<LabSnapshot> {
    return this.transport.exclusive(async () => {
      if (!this.run || !this.base) throw new Error('no run to snapshot');
      if (this.poisoned) throw new Error('the run stopped at a non-finite metric: nothing to keep');
      this.coalescer.flush(); // the listener then holds every frame up to the snapshot's step
      const snap = { step: this.origin + this.run.stepCount, origin: this.origin, baseSource: this.base.source, base: this.base.weights, run: await this.run.exportState() };
      this.kept = keepSnapshot(this.kept, snap);
      return snap;
    });
  }

  async dispose(): Promise<void> {
    await this.pause();
    await this.transport.exclusive(async () => {
      this.coalescer.dispose();
      this.run?.dispose();
      this.run = null;
      await this.slot.dispose();
    });
  }
}

const shapeOf = ({ dModel, layers, heads, mlp }: Config): Pick<Config, 'dModel' | 'layers' | 'heads' | 'mlp'> => ({ dModel, layers, heads, mlp });
