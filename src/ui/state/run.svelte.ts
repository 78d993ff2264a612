/**
 * One run in a lab worker, as rune state: status (phase, backend, steps/s, timeline), the frame
 * history and the latest batch's traces. Named mutators forward to the worker's comlink API.
 */
import * as Comlink from 'comlink';
import type { Config } from '../../core/config';
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import type { ForkPoint, LabInit, LabListener, LabStatus } from '../../../workers/lab.api';
import { startLabWorker, type LabWorker } from './lab-client';

/** Rune state is proxied: only plain snapshots cross postMessage. */
const plain = <T>(x: T): T => $state.snapshot(x) as T;

export class RunState {
  status = $state<LabStatus | null>(null);
  /** Every frame of the current run, in step order (replaced, never mutated: $state.raw). */
  frames = $state.raw<MetricsFrame[]>([]);
  traces = $state.raw<SampleTrace[]>([]);
  /** Last refusal of a control change (e.g. a restart setting), shown next to the controls. */
  notice = $state('');
  #worker: LabWorker | null = null;
  #runId = -1;
  /** Frames a restarted run keeps (those up to its fork point). */
  #prefix: MetricsFrame[] = [];

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
    const s = this.status?.baseScalars;
    return s ? { step: 0, version: 0, scalars: s, series: {}, ratioEdges: [], perf: {}, changes: {}, trace: [] } : null;
  }
  get playing(): boolean {
    return this.phase === 'running';
  }
  get ready(): boolean {
    return !!this.status && !['loading', 'pretraining', 'error'].includes(this.status.phase);
  }

  async start(init: LabInit): Promise<void> {
    this.#worker = startLabWorker(this.name);
    const listener: LabListener = {
      frames: (id, fs, traces) => this.#receive(id, fs, traces),
      status: (s) => this.#onStatus(s),
    };
    this.#onStatus(await this.#worker.api.init(plain(init), Comlink.proxy(listener)));
  }

  #newRun(id: number): void {
    this.#runId = id;
    this.frames = this.#prefix;
    this.traces = [];
  }

  #receive(id: number, fs: MetricsFrame[], traces: SampleTrace[]): void {
    if (id < this.#runId) return;
    if (id > this.#runId) this.#newRun(id);
    this.frames = [...this.frames, ...fs];
    this.traces = traces;
  }

  #onStatus(s: LabStatus): void {
    if (s.runId < this.#runId) return;
    if (s.runId > this.#runId) this.#newRun(s.runId);
    this.status = s;
  }

  #api() {
    if (!this.#worker) throw new Error(`run ${this.name} not started`);
    return this.#worker.api;
  }

  play = () => this.#api().play();
  pause = () => this.#api().pause();
  toggle = () => (this.playing ? this.pause() : this.play());
  stepN = async (n: number) => this.#onStatus(await this.#api().step(n));
  reset = async (config?: Config) => this.#onStatus(await this.#api().reset(config && plain(config)));
  reseed = async (seed: number) => this.#onStatus(await this.#api().reseed(seed));
  setSpeed = (stepsPerSecond: number) => this.#api().setSpeed(stepsPerSecond);
  setPauseAt = (step: number | null) => this.#api().setPauseAt(step);
  forkPoint = (): Promise<ForkPoint> => this.#api().forkPoint();

  /** Continue from a fork point beside the fork (history up to it is kept); null: undo on the next reset. */
  async refork(point: ForkPoint | null): Promise<void> {
    this.#prefix = point ? this.frames.filter((f) => f.step <= point.step) : [];
    this.#onStatus(await this.#api().refork(point));
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
    this.#worker?.terminate();
    this.#worker = null;
  }
}
