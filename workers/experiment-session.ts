/**
 * A group of experiment cells trained in lockstep: one core Run per cell, every live cell takes one
 * step per round, so all seeds of a variant advance together and the bands grow as they train. With
 * `createPopulation` (the browser worker) the cells are the members of ONE population engine (one
 * graph of P members: each phase of a round is one engine call for all cells, src/core/population.ts);
 * without it, one engine per cell. Pure of the browser and of onnxruntime (the worker supplies the
 * engine factories and the base loader; the Node tests run it on the tabular engine). A cell stopped by a non-finite metric
 * or an error stops alone and says why; the others go on.
 */
import type { PolicyEngine, PolicyShape } from '../src/core/engine';
import { lazyEngine } from '../src/core/lazy-engine';
import { Run } from '../src/core/loop';
import { nonFinite, type MetricsFrame, type SampleTrace } from '../src/core/metrics';
import { Population, type PopulationEngine } from '../src/core/population';
import { policyShape } from '../src/core/pretrain';
import type { CellFrames, CellInit, CellPhase, CellStatus, ExperimentListener, GroupStatus } from './experiment.api';
import { createCoalescer, type Coalescer, type CoalescerOptions } from '../src/core/run/frames';
import { errorText, withFirstSnapshot, type BaseWeights, type SessionDeps } from '../src/core/run/deps';

interface Cell {
  init: CellInit;
  engine: PolicyEngine;
  run: Run;
  /** Steps before this Run (a continuation from stored weights). */
  offset: number;
  phase: CellPhase;
  message: string;
  traces: SampleTrace[];
}

type Queued = { index: number; frame: MetricsFrame };

export class ExperimentSession {
  private cells: Cell[] = [];
  private bases = new Map<string, BaseWeights>();
  private phase: CellPhase = 'loading';
  private message = 'warming up engines…';
  private playing = false;
  private loop: Promise<void> | null = null;
  private rate = 0;
  private lock: Promise<unknown> = Promise.resolve();
  private readonly coalescer: Coalescer<Queued>;
  private readonly sleep: (ms: number) => Promise<void>;
  /** The cells' population (cell i = member i), where one trains them. */
  private population: Population | null = null;

  constructor(
    private readonly deps: Pick<SessionDeps, 'createEngine' | 'loadBase' | 'clock'> & {
      coalescer?: CoalescerOptions;
      /** One engine for all cells of one model shape (P members); absent: one engine per cell. */
      createPopulation?: (shape: PolicyShape, size: number) => Promise<PopulationEngine>;
    },
    private readonly listener: ExperimentListener,
  ) {
    this.sleep = deps.clock?.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.coalescer = createCoalescer<Queued>((qs) => this.emitFrames(qs), deps.coalescer ?? { maxPerSecond: 10 });
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.lock.then(fn, fn);
    this.lock = next.catch(() => undefined);
    return next;
  }

  private emitFrames(qs: Queued[]): void {
    const by = new Map<number, MetricsFrame[]>();
    for (const q of qs) by.set(q.index, [...(by.get(q.index) ?? []), q.frame]);
    const batch: CellFrames[] = [...by].map(([index, frames]) => ({ index, frames, timeline: this.timeline(this.cell(index)) }));
    this.listener.frames(batch);
  }

  private timeline(c: Cell) {
    return c.run.timeline.map((e) => ({ step: e.step + c.offset, patch: e.patch }));
  }

  private cell(index: number): Cell {
    const c = this.cells.find((x) => x.init.index === index);
    if (!c) throw new Error(`no cell ${index} in this worker`);
    return c;
  }

  status(): GroupStatus {
    const e = this.cells[0]?.engine;
    return {
      phase: this.phase,
      message: this.message,
      backend: e?.backend ?? '',
      backendNote: e?.backendNote ?? '',
      baseSource: [...this.bases.values()][0]?.source ?? '',
      roundsPerSecond: this.rate,
      cells: this.cells.map((c): CellStatus => ({ index: c.init.index, phase: c.phase, step: c.offset + c.run.stepCount, message: c.message })),
    };
  }

  private emitStatus(phase?: CellPhase, message?: string): GroupStatus {
    if (phase !== undefined) this.phase = phase;
    if (message !== undefined) this.message = message;
    const s = this.status();
    this.listener.status(s);
    return s;
  }

  /** Engines, bases (once per task and shape) and one Run per cell. */
  init(cells: CellInit[]): Promise<GroupStatus> {
    return this.exclusive(async () => {
      try {
        const shapes = new Set(cells.map((c) => JSON.stringify(policyShape(c.config))));
        if (this.deps.createPopulation && shapes.size === 1 && cells.length) await this.startPopulation(cells);
        else for (const init of cells) this.cells.push(await this.startCell(init, await this.deps.createEngine(policyShape(init.config))));
        return this.emitStatus('ready', '');
      } catch (e) {
        return this.emitStatus('error', `experiment cells failed to start: ${errorText(e)}`);
      }
    });
  }

  /** The base of a config (once per task, shape and temperature), loaded with `engine`. */
  private async baseOf(config: CellInit['config'], engine: PolicyEngine): Promise<BaseWeights> {
    const key = `${config.task}|${config.taskSpec}|${JSON.stringify(policyShape(config))}|${config.temperature}`;
    let base = this.bases.get(key);
    if (!base) {
      base = await this.deps.loadBase(engine, config, (m) => this.emitStatus('loading', m));
      this.bases.set(key, base);
    }
    return base;
  }

  /**
   * All cells as one population: the bases first (through a single engine made only if a base must
   * be pretrained), then every cell's start (weights, frozen base, SFT) as batched population calls.
   */
  private async startPopulation(cells: CellInit[]): Promise<void> {
    const shape = policyShape(cells[0].config);
    const population = new Population(await this.deps.createPopulation!(shape, cells.length));
    this.population = population;
    const loader = lazyEngine(shape, () => this.deps.createEngine(shape));
    try {
      for (const init of cells) await this.baseOf(init.config, loader);
    } finally {
      await loader.dispose();
    }
    const started = await population.together(cells.map((init) => (engine) => this.startCell(init, engine)));
    this.cells.push(...(started as Cell[]));
  }

  private async startCell(init: CellInit, engine: PolicyEngine): Promise<Cell> {
    const config = init.config;
    const base = await this.baseOf(config, engine);
    await engine.setWeights(base.weights);
    let run: Run;
    let message = '';
    if (init.resume) {
      // As a fork: the frozen base stays the task's base; the trainer continues from the stored weights.
      const baseHandle = engine.snapshot();
      await engine.setWeights(init.resume.weights);
      run = await Run.create(withFirstSnapshot(engine, baseHandle), { ...config, sftGoldSteps: 0 });
      message = `continued from stored weights at step ${init.resume.step}`;
    } else run = await Run.create(engine, config);
    const offset = init.resume?.step ?? 0;
    const done = offset >= config.steps;
    return { init, engine, run, offset, phase: done ? 'done' : 'ready', message, traces: [] };
  }

  private live(): Cell[] {
    return this.cells.filter((c) => c.phase !== 'done' && c.phase !== 'stopped' && c.phase !== 'error');
  }

  /** One step of each live cell: together (one population call per phase) where a population trains them. */
  private async stepLive(live: Cell[]): Promise<({ frame: MetricsFrame } | { error: unknown })[]> {
    const step = (c: Cell) => c.run.step().then((frame) => ({ frame }), (error: unknown) => ({ error }));
    if (!this.population) {
      const out = [];
      for (const c of live) out.push(await step(c));
      return out;
    }
    const results = await this.population.together(this.cells.map((c) => (live.includes(c) ? () => step(c) : null)));
    return live.map((c) => results[this.cells.indexOf(c)]!);
  }

  /** One lockstep round: every live cell takes one step. Returns false when none is left. */
  private async round(): Promise<boolean> {
    const live = this.live();
    const results = await this.stepLive(live);
    for (const [i, c] of live.entries()) {
      const r = results[i];
      if ('error' in r) {
        c.phase = 'error';
        c.message = `step failed: ${errorText(r.error)}`;
        continue;
      }
      const frame = r.frame;
      const { trace, ...rest } = frame;
      c.traces = trace;
      const shown: MetricsFrame = { ...rest, step: frame.step + c.offset, trace: [] };
      this.coalescer.push({ index: c.init.index, frame: shown });
      const bad = nonFinite(frame);
      if (bad) {
        c.phase = 'stopped';
        c.message = `non-finite metric ${bad} at step ${shown.step}`;
      } else if (shown.step >= c.init.config.steps) {
        c.phase = 'done';
      }
    }
    return this.live().length > 0;
  }

  private finished(): GroupStatus {
    this.coalescer.flush();
    const stopped = this.cells.filter((c) => c.phase !== 'done').length;
    return this.emitStatus('done', stopped ? `${stopped} cell(s) stopped early` : '');
  }

  async play(): Promise<void> {
    if (this.playing || !this.cells.length) return;
    if (!this.live().length) {
      this.finished();
      return;
    }
    this.playing = true;
    for (const c of this.live()) c.phase = 'running';
    this.emitStatus('running', '');
    this.loop = this.playLoop();
  }

  private async playLoop(): Promise<void> {
    const t0 = performance.now();
    let n = 0;
    let lastStatus = 0;
    while (this.playing) {
      const more = await this.exclusive(() => this.round());
      n++;
      this.rate = (n / (performance.now() - t0)) * 1000;
      if (!more) {
        this.playing = false;
        this.finished();
        break;
      }
      if (performance.now() - lastStatus > 250) {
        lastStatus = performance.now();
        this.emitStatus();
      }
      await this.sleep(0);
    }
    this.coalescer.flush();
  }

  async pause(): Promise<void> {
    this.playing = false;
    await this.loop;
    this.loop = null;
    for (const c of this.live()) c.phase = 'paused';
    if (this.phase === 'running') this.emitStatus('paused', '');
  }

  async step(n: number): Promise<GroupStatus> {
    await this.pause();
    for (let i = 0; i < n; i++) {
      if (!(await this.exclusive(() => this.round()))) return this.finished();
    }
    this.coalescer.flush();
    for (const c of this.live()) c.phase = 'paused';
    return this.emitStatus('paused', '');
  }

  weights(index: number): Promise<{ step: number; data: Float32Array }> {
    return this.exclusive(async () => {
      const c = this.cell(index);
      return { step: c.offset + c.run.stepCount, data: await c.engine.getWeights() };
    });
  }

  traces(index: number): { step: number; traces: SampleTrace[] } {
    const c = this.cell(index);
    return { step: c.offset + c.run.stepCount, traces: c.traces };
  }

  async dispose(): Promise<void> {
    await this.pause();
    await this.exclusive(async () => {
      this.coalescer.dispose();
      for (const c of this.cells) {
        c.run.dispose();
        await c.engine.dispose(); // a population member's is a no-op: the population goes below
      }
      await this.population?.engine.dispose();
      this.population = null;
      this.cells = [];
    });
  }
}

