/**
 * The population session: a group of experiment cells trained in lockstep — one core Run per cell,
 * every live cell takes one step per round, so all seeds of a variant advance together and the bands
 * grow as they train. With `createPopulation` (the browser worker) the cells are the members of ONE
 * population engine (one graph of P members: each phase of a round is one engine call for all
 * cells, src/core/population.ts); without it, one engine per cell. Play / pause / step are the run session's (transport.ts: one
 * lock, one status, one play loop); a step here is a round. A cell stopped by a non-finite metric or
 * an error stops alone and says why; the others go on. Pure of the browser and of onnxruntime.
 */
import type { PolicyEngine, PolicyShape } from '../engine';
import { lazyEngine } from '../lazy-engine';
import type { Run } from '../loop';
import { nonFinite, type MetricsFrame, type SampleTrace } from '../metrics';
import { Population, type PopulationEngine } from '../population';
import { policyShape } from '../pretrain';
import { systemClock } from './clock';
import { baseKey, type BaseWeights, type SessionDeps } from './deps';
import { errorText } from '../unknown';
import { createCoalescer, streamed, type Coalescer } from './frames';
import type { CellFrames, CellInit, CellPhase, CellStatus, ExperimentListener, GroupStatus } from './population-types';
import { startRun } from './start';
import { Transport } from './transport';

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

export interface PopulationDeps extends SessionDeps {
  /** One engine for all cells of one model shape (P members); absent: one engine per cell. */
  createPopulation?: (shape: PolicyShape, size: number) => Promise<PopulationEngine>;
}

export class PopulationSession {
  private cells: Cell[] = [];
  private bases = new Map<string, BaseWeights>();
  private readonly coalescer: Coalescer<Queued>;
  private readonly transport: Transport<GroupStatus, CellPhase>;
  /** The cells' population (cell i = member i), where one trains them. */
  private population: Population | null = null;

  constructor(
    private readonly deps: PopulationDeps,
    private readonly listener: ExperimentListener,
  ) {
    const clock = deps.clock ?? systemClock;
    this.coalescer = createCoalescer<Queued>((qs) => this.emitFrames(qs), deps.coalescer ?? { maxPerSecond: 10, now: clock.now });
    this.transport = new Transport<GroupStatus, CellPhase>({
      stepper: {
        advance: () => this.round(),
        mayPlay: () => this.mayPlay(),
        stopped: () => this.finished(),
        stepped: () => this.transport.emit('paused', ''),
        flush: () => this.coalescer.flush(),
        moved: (phase) => {
          for (const c of this.live()) c.phase = phase;
        },
      },
      status: () => this.status(),
      report: (s) => this.listener.status(s),
      clock,
      phase: 'loading',
      message: 'warming up engines…',
      statusEveryMs: 250,
    });
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
      phase: this.transport.phase,
      message: this.transport.message,
      backend: e?.backend ?? '',
      backendNote: e?.backendNote ?? '',
      baseSource: [...this.bases.values()][0]?.source ?? '',
      roundsPerSecond: this.transport.rate,
      cells: this.cells.map((c): CellStatus => ({ index: c.init.index, phase: c.phase, step: c.offset + c.run.stepCount, message: c.message })),
    };
  }

  /** Engines, bases (once per task and shape) and one Run per cell. */
  init(cells: CellInit[]): Promise<GroupStatus> {
    return this.transport.exclusive(async () => {
      try {
        const shapes = new Set(cells.map((c) => JSON.stringify(policyShape(c.config))));
        if (this.deps.createPopulation && shapes.size === 1 && cells.length) await this.startPopulation(cells);
        else for (const init of cells) this.cells.push(await this.startCell(init, await this.deps.createEngine(policyShape(init.config))));
        return this.transport.emit('ready', '');
      } catch (e) {
        return this.transport.emit('error', `experiment cells failed to start: ${errorText(e)}`);
      }
    });
  }

  /** The base of a config (once per task, shape and temperature), loaded with `engine`. */
  private async baseOf(config: CellInit['config'], engine: PolicyEngine): Promise<BaseWeights> {
    const key = baseKey(config);
    let base = this.bases.get(key);
    if (!base) {
      base = await this.deps.loadBase(engine, config, (m) => this.transport.emit('loading', m));
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
    // As a fork: the frozen base stays the task's base; the trainer continues from the stored weights.
    const run = await startRun(engine, config, base.weights, init.resume?.weights);
    const message = init.resume ? `continued from stored weights at step ${init.resume.step}` : '';
    const offset = init.resume?.step ?? 0;
    const done = offset >= config.steps;
    return { init, engine, run, offset, phase: done ? 'done' : 'ready', message, traces: [] };
  }

  private live(): Cell[] {
    return this.cells.filter((c) => c.phase !== 'done' && c.phase !== 'stopped' && c.phase !== 'error');
  }

  private mayPlay(): boolean {
    if (!this.cells.length) return false;
    if (this.live().length) return true;
    this.finished();
    return false;
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
      c.traces = frame.trace;
      const shown = streamed(frame, c.offset);
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
    return this.transport.emit('done', stopped ? `${stopped} cell(s) stopped early` : '');
  }

  play(): Promise<void> {
    return this.transport.play();
  }

  pause(): Promise<GroupStatus> {
    return this.transport.pause();
  }

  /** n lockstep rounds (paused afterwards). */
  step(n: number): Promise<GroupStatus> {
    return this.transport.step(n);
  }

  weights(index: number): Promise<{ step: number; data: Float32Array }> {
    return this.transport.exclusive(async () => {
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
    await this.transport.exclusive(async () => {
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
