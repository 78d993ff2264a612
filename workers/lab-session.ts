/**
 * One training run with transport (play, pause, step, reset, reseed, speed), config patches, a
 * presenter checkpoint and coalesced frame streaming. Pure of the browser and of onnxruntime: the
 * worker (`lab.worker.ts`) supplies the engine factory and the base loader, and the Node tests run
 * it on the core's tabular engine.
 */
import { makeConfig, runFixingIn, type Config } from '../src/core/config';
import type { PolicyEngine, PolicyShape, WeightsHandle } from '../src/core/engine';
import { Run } from '../src/core/loop';
import { nonFinite, type MetricsFrame, type SampleTrace } from '../src/core/metrics';
import { policyShape } from '../src/core/pretrain';
import { createCoalescer, type Coalescer, type CoalescerOptions } from './frames';
import type { ForkPoint, LabListener, LabPhase, LabSnapshot, LabStatus, ResumeFrom } from './lab.api';
import { firstFrameDifference } from '../src/core/experiment/bundle';

export interface BaseWeights {
  weights: Float32Array;
  /** e.g. "shipped checkpoint checkpoints/strategies.bin" or "pretrained in the worker (400 steps)". */
  source: string;
}

export interface SessionDeps {
  createEngine(shape: PolicyShape): Promise<PolicyEngine>;
  /** The base weights for a task and shape (checkpoint or pretraining); may report progress. */
  loadBase(engine: PolicyEngine, config: Config, progress: (message: string) => void): Promise<BaseWeights>;
  coalescer?: CoalescerOptions;
  /** Wait between steps while playing (default setTimeout). */
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));


const shapeKey = (c: Config) => JSON.stringify(policyShape(c));

export class LabSession {
  private engine: PolicyEngine | null = null;
  private run: Run | null = null;
  private base: BaseWeights | null = null;
  private baseKey = '';
  private engineShape = '';
  private lastStatusAt = 0;
  private fork: ForkPoint | null = null;
  /** Step the current run started from (its fork point, else 0); kept when the fork is let go. */
  private origin = 0;
  /** Set when a step produced a non-finite metric: the weights are not trusted until a reset. */
  private poisoned = '';
  private runId = 0;
  private phase: LabPhase = 'loading';
  private message = 'warming up engine…';
  private playing = false;
  private loop: Promise<void> | null = null;
  private speed = 0;
  private pauseAt: number | null = null;
  private rate = 0;
  private latestTraces: SampleTrace[] = [];
  private readonly coalescer: Coalescer<MetricsFrame>;
  /** Serializes every operation on the run (a step never interleaves with a reset or a patch). */
  private lock: Promise<unknown> = Promise.resolve();
  private fault: LabStatus['fault'];
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly deps: SessionDeps,
    private readonly listener: LabListener,
    private config: Config,
  ) {
    this.sleep = deps.sleep ?? defaultSleep;
    this.coalescer = createCoalescer<MetricsFrame>((frames) => this.listener.frames(this.runId, frames, this.latestTraces), deps.coalescer);
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.lock.then(fn, fn);
    this.lock = next.catch(() => undefined);
    return next;
  }

  private get offset(): number {
    return this.origin;
  }

  status(): LabStatus {
    return {
      runId: this.runId,
      phase: this.phase,
      message: this.message,
      step: this.offset + (this.run?.stepCount ?? 0),
      backend: this.engine?.backend ?? '',
      backendNote: this.engine?.backendNote ?? '',
      baseSource: this.base?.source ?? '',
      stepsPerSecond: this.rate,
      timeline: (this.run?.timeline ?? []).map((e) => ({ step: e.step + this.offset, patch: e.patch })),
      config: this.config,
      needsReset: this.poisoned !== '',
      baseScalars: this.run && !this.origin ? this.run.baseScalars : null,
      ...(this.fault ? { fault: this.fault } : {}),
    };
  }

  private emitStatus(phase?: LabPhase, message?: string): LabStatus {
    if (phase !== undefined) this.phase = phase;
    if (message !== undefined) this.message = message;
    const s = this.status();
    this.listener.status(s);
    return s;
  }

  /**
   * Engine + base + run; a fork starts from its parent's weights at the fork step. `resume` picks up
   * an interrupted run: from its snapshot exactly, or by replaying its timeline from the start.
   */
  async init(fork?: ForkPoint, note?: string, resume?: ResumeFrom): Promise<LabStatus> {
    return this.exclusive(async () => {
      try {
        if (fork) {
          this.fork = fork;
          // Same task, model and seed as the parent; every other setting may differ.
          this.config = makeConfig({ ...this.config, task: fork.config.task, seed: fork.config.seed, ...shapeOf(fork.config) });
        }
        if (resume?.snapshot) await this.resumeFrom(resume.snapshot);
        else await this.start(this.config);
        const check = resume ? await this.replay(resume) : '';
        const said = note ?? (this.fork ? `forked at step ${this.fork.step}` : '');
        return this.emitStatus(this.poisoned ? 'paused' : 'ready', [said, check, this.poisoned].filter(Boolean).join(' '));
      } catch (e) {
        return this.emitStatus('error', `engine failed to start: ${errorText(e)}`);
      }
    });
  }

  /** A run exactly as a snapshot left it (weights, optimizer moments, RNG streams, timeline). */
  private async resumeFrom(snap: LabSnapshot): Promise<void> {
    const engine = await this.engineFor(snap.run.config);
    await this.disposeRun();
    this.run = await Run.resume(engine, snap.run);
    this.config = makeConfig({ ...snap.run.config, ...snap.run.pending });
    this.base = { weights: snap.base, source: snap.baseSource };
    this.baseKey = ''; // a reset loads the task's base again
    this.runId++;
    this.origin = snap.origin;
    this.poisoned = '';
    this.latestTraces = [];
  }

  /**
   * Take the run's steps again up to `r.step`, its timeline's setting changes at their steps, without
   * streaming them (the page shows the stored frames); returns what the check of the last one said.
   */
  private async replay(r: ResumeFrom): Promise<string> {
    const run = this.run!;
    const target = r.step - this.origin;
    if (run.stepCount > target) throw new Error(`cannot replay to step ${r.step}: the run is at step ${this.offset + run.stepCount}`);
    const patches = r.timeline.slice(1).filter((e) => e.step >= this.origin);
    let last: MetricsFrame | null = null;
    let shownAt = 0;
    while (run.stepCount < target) {
      for (const e of patches) if (e.step - this.origin === run.stepCount) run.setConfig(e.patch);
      last = await run.step();
      const bad = nonFinite(last);
      if (bad) {
        this.poisoned = `non-finite metric ${bad} at step ${this.offset + last.step} while replaying: run stopped. Press Reset (r) to start again`;
        break;
      }
      if (performance.now() - shownAt > 100) {
        shownAt = performance.now();
        this.emitStatus('loading', `replaying the stored run: step ${this.offset + run.stepCount} of ${r.step}…`);
      }
    }
    this.config = { ...run.config };
    if (!last) return '';
    this.latestTraces = last.trace;
    if (!r.expect) return '';
    const got: MetricsFrame = { ...last, step: this.offset + last.step, trace: [] };
    const d = firstFrameDifference([r.expect], [got]);
    return d
      ? `The replayed step ${d.step} differs from the stored one in ${d.key} (stored ${String(d.expected)}, now ${String(d.got)}): another engine or backend than the one that trained it?`
      : `The replayed step ${got.step} equals the stored one bit for bit.`;
  }

  /** The engine for a config's model shape (the current one when the shape is the same). */
  private async engineFor(config: Config): Promise<PolicyEngine> {
    const shape = shapeKey(config);
    if (!this.engine || shape !== this.engineShape) {
      this.emitStatus('loading', 'warming up engine…');
      await this.disposeRun();
      const old = this.engine;
      this.engine = null; // before disposing: its loss report is then ignored
      await old?.dispose();
      const engine = await this.deps.createEngine(policyShape(config));
      this.engine = engine;
      this.engineShape = shape;
      void engine.lost?.then((why) => this.deviceLost(engine, why));
      this.baseKey = '';
    }
    return this.engine;
  }

  private async start(config: Config): Promise<void> {
    const shape = shapeKey(config);
    const engine = await this.engineFor(config);
    const key = `${config.task}|${shape}|${config.temperature}`;
    if (this.fork) {
      this.base ??= { weights: this.fork.base, source: `forked from a run at step ${this.fork.step}` };
    } else if (this.baseKey !== key || !this.base) {
      this.base = await this.deps.loadBase(engine, config, (m) => this.emitStatus('pretraining', m));
      this.baseKey = key;
    }
    await this.disposeRun();
    this.config = config;
    this.runId++;
    this.origin = this.fork?.step ?? 0;
    this.poisoned = '';
    this.latestTraces = [];
    if (this.fork) {
      // The frozen base stays the task's base (OPD teacher, KL reference); the trainer starts at
      // the parent's weights. The SFT phase already happened in the parent.
      await engine.setWeights(this.fork.base);
      const baseHandle = engine.snapshot();
      await engine.setWeights(this.fork.weights);
      this.run = await Run.create(withFirstSnapshot(engine, baseHandle), { ...config, sftGoldSteps: 0 });
    } else {
      await engine.setWeights(this.base.weights);
      this.run = await Run.create(engine, config);
    }
  }

  /**
   * The engine's device is gone (WebGPU device loss): nothing more can run here. Stop, and say so
   * with `fault`, so that the page resumes the run on WASM from the last weights it read back.
   */
  private deviceLost(engine: PolicyEngine, why: string): void {
    if (engine !== this.engine) return; // an engine already replaced or disposed
    this.playing = false;
    this.fault = 'device-lost';
    this.coalescer.flush();
    this.emitStatus('error', `WebGPU device lost: ${why}`);
  }

  private async disposeRun(): Promise<void> {
    this.coalescer.flush();
    this.run?.dispose();
    this.run = null;
  }

  private done(): boolean {
    return !!this.run && this.offset + this.run.stepCount >= this.config.steps;
  }

  /** One step under the lock; returns false when the run must stop (done, NaN, error, checkpoint). */
  private async stepOnce(): Promise<boolean> {
    if (this.fault) {
      this.coalescer.flush(); // a step that was under way when the device went still reports
      return false;
    }
    const run = this.run;
    if (!run || this.done()) {
      this.emitStatus('done', `finished ${this.config.steps} steps`);
      return false;
    }
    if (this.poisoned) {
      this.emitStatus('paused', this.poisoned);
      return false;
    }
    let frame: MetricsFrame;
    try {
      frame = await run.step();
    } catch (e) {
      this.coalescer.flush();
      this.emitStatus('error', `step failed: ${errorText(e)}`);
      return false;
    }
    this.config = { ...run.config };
    const { trace, ...rest } = frame;
    this.latestTraces = trace;
    const shown: MetricsFrame = { ...rest, step: frame.step + this.offset, trace: [] };
    this.coalescer.push(shown);
    const bad = nonFinite(frame);
    if (bad) {
      this.coalescer.flush();
      // The weights that produced it are not trusted: training on stops until a reset.
      this.poisoned = `non-finite metric ${bad} at step ${shown.step}: run stopped. Press Reset (r) to start again (try a lower learning rate)`;
      this.emitStatus('paused', this.poisoned);
      return false;
    }
    if (this.pauseAt !== null && shown.step === this.pauseAt) {
      this.coalescer.flush();
      this.emitStatus('paused', `checkpoint at step ${shown.step}: predict what happens next, then press play`);
      return false;
    }
    return true;
  }

  async play(): Promise<void> {
    if (this.playing) return;
    // A pause still finishing its in-flight step: one loop at a time (two would both step, and the
    // pause would then report 'paused' while the second one plays).
    await this.loop;
    if (this.playing || !this.run || this.fault) return;
    if (this.poisoned) {
      this.emitStatus('paused', this.poisoned);
      return;
    }
    if (this.done()) {
      this.emitStatus('done', `finished ${this.config.steps} steps`);
      return;
    }
    this.playing = true;
    this.emitStatus('running', '');
    this.loop = this.playLoop();
  }

  private async playLoop(): Promise<void> {
    let t0 = performance.now();
    let n = 0;
    while (this.playing) {
      const started = performance.now();
      const go = await this.exclusive(() => this.stepOnce());
      n++;
      const now = performance.now();
      if (now - t0 > 1000 || n === 1) {
        this.rate = (n / (now - t0)) * 1000;
        if (now - t0 > 3000) {
          t0 = now;
          n = 0;
        }
      }
      if (!go) {
        this.playing = false;
        if (this.phase === 'running') this.emitStatus(this.done() ? 'done' : 'paused', this.done() ? `finished ${this.config.steps} steps` : '');
        break;
      }
      if (performance.now() - this.lastStatusAt > 100) {
        this.lastStatusAt = performance.now();
        this.emitStatus();
      }
      const wait = this.speed > 0 ? 1000 / this.speed - (performance.now() - started) : 0;
      await this.sleep(Math.max(0, wait));
    }
    this.coalescer.flush();
  }

  /**
   * Stop at the next step boundary. A step in flight completes and is kept (its frame is sent before
   * the returned status), so the run stays exactly where an uninterrupted run would be after that
   * step and a later play() continues it bit-for-bit. Resolves when the worker is idle.
   */
  async pause(): Promise<LabStatus> {
    this.playing = false;
    const loop = this.loop;
    await loop;
    if (this.loop === loop) this.loop = null;
    // a play() that came in meanwhile owns the run again: nothing to report as paused
    if (this.playing) return this.status();
    if (this.phase === 'running') return this.emitStatus('paused', '');
    return this.status();
  }

  async step(n: number): Promise<LabStatus> {
    await this.pause();
    for (let i = 0; i < n; i++) {
      if (!(await this.exclusive(() => this.stepOnce()))) {
        this.coalescer.flush(); // the frames before the stop (e.g. the end of the run) are kept
        return this.status();
      }
    }
    this.coalescer.flush();
    return this.emitStatus(this.done() ? 'done' : 'paused', this.phase === 'paused' || this.phase === 'ready' ? this.message : '');
  }

  async reset(config?: Config): Promise<LabStatus> {
    await this.pause();
    return this.exclusive(async () => {
      try {
        await this.start(config ?? this.config);
        return this.emitStatus('ready', '');
      } catch (e) {
        return this.emitStatus('error', `reset failed: ${errorText(e)}`);
      }
    });
  }

  reseed(seed: number): Promise<LabStatus> {
    return this.reset(makeConfig({ ...this.config, seed }));
  }

  setSpeed(stepsPerSecond: number): void {
    this.speed = Math.max(0, stepsPerSecond);
  }

  setPauseAt(step: number | null): void {
    this.pauseAt = step;
  }

  /** Live settings go to the run's next step; restart settings need reset() (reported). */
  setConfig(patch: Partial<Config>): Promise<string | null> {
    return this.exclusive(async () => {
      const restart = runFixingIn(patch);
      if (restart.length) return `${restart.join(', ')} fix the run: reset to apply`;
      try {
        this.run?.setConfig(patch);
        this.config = makeConfig({ ...this.config, ...patch });
        this.emitStatus();
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
    return this.exclusive(async () => {
      this.fork = point;
      if (!point) return this.emitStatus();
      try {
        await this.start(this.config);
        return this.emitStatus('ready', `continues from step ${point.step} beside its fork`);
      } catch (e) {
        return this.emitStatus('error', `restart at the fork point failed: ${errorText(e)}`);
      }
    });
  }

  forkPoint(): Promise<ForkPoint> {
    return this.exclusive(async () => {
      if (!this.engine || !this.base || !this.run) throw new Error('no run to fork');
      this.coalescer.flush(); // the page then holds every frame up to the returned step
      return { step: this.offset + this.run.stepCount, base: this.base.weights, weights: await this.engine.getWeights(), config: this.config };
    });
  }

  /** The run exactly as it stands, between two steps (the page keeps it for a resume). */
  snapshot(): Promise<LabSnapshot> {
    return this.exclusive(async () => {
      if (!this.run || !this.base) throw new Error('no run to snapshot');
      if (this.poisoned) throw new Error('the run stopped at a non-finite metric: nothing to keep');
      this.coalescer.flush(); // the page then holds every frame up to the snapshot's step
      return { step: this.offset + this.run.stepCount, origin: this.origin, baseSource: this.base.source, base: this.base.weights, run: await this.run.exportState() };
    });
  }

  async dispose(): Promise<void> {
    await this.pause();
    await this.exclusive(async () => {
      this.coalescer.dispose();
      this.run?.dispose();
      this.run = null;
      const old = this.engine;
      this.engine = null;
      await old?.dispose();
    });
  }
}

function shapeOf(c: Config): Pick<Config, 'dModel' | 'layers' | 'heads' | 'mlp'> {
  return { dModel: c.dModel, layers: c.layers, heads: c.heads, mlp: c.mlp };
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The engine, except that its first snapshot() returns `handle` (Run.create freezes it as the base). */
export function withFirstSnapshot(engine: PolicyEngine, handle: WeightsHandle): PolicyEngine {
  let used = false;
  return new Proxy(engine, {
    get(target, prop) {
      if (prop === 'snapshot' && !used) {
        return () => {
          used = true;
          return handle;
        };
      }
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
