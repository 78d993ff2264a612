/**
 * The experiment open in the lab, as rune state: its spec and cells, every cell's frames, the
 * workers' status, and the training transport. Frames are recorded to the store as they arrive
 * (ExperimentRecorder). A finished or imported experiment is shown without a runner.
 */
import { experimentCells, type ExperimentCell, type ExperimentSpec } from '../../core/experiment/spec';
import type { TimelineEntry } from '../../core/loop';
import type { MetricsFrame } from '../../core/metrics';
import type { CellFrames, CellInit, GroupStatus } from '../../../workers/experiment.api';
import { ExperimentRecorder } from '../storage/experiment-recorder';
import type { StoredExperiment } from '../storage/db';
import type { ExperimentStore } from '../storage/experiment-store';
import type { ExperimentBundle } from '../../core/experiment/bundle';
import { reproduceCheck, type Reproduction } from '../../core/experiment/reproduce';
import { bundleOf } from './bundle-io';
import { startCellRunner, type CellRunner, type CellRunnerOptions } from './runner';

export class OpenExperiment {
  readonly cells: ExperimentCell[];
  frames = $state.raw<MetricsFrame[][]>([]);
  timelines: TimelineEntry[][];
  groups = $state.raw<GroupStatus[]>([]);
  /** What happened on opening (restored, continued, restarted), shown above the charts. */
  message = $state('');
  reproduction = $state.raw<Reproduction | null>(null);
  running = $state(false);
  /** Workers are up (false: shown only, or still starting). */
  trainable = $state(false);
  starting = $state(false);
  /** Another tab trains and stores it: shown as stored, never trained here. */
  readOnly = false;
  /** Cells finished or stopped early. */
  #ended = $state<number[]>([]);
  #runner: CellRunner | null = null;
  #recorder: ExperimentRecorder | null = null;
  #stopped = new Set<number>();
  #disposed = false;

  constructor(
    readonly record: StoredExperiment,
    frames: MetricsFrame[][],
    /** What a re-run must reproduce (the bundle of the experiment re-run). */
    private readonly reference: ExperimentBundle | null = null,
  ) {
    this.cells = experimentCells(record.spec);
    this.frames = frames;
    this.timelines = record.cells.map((c) => c.timeline);
  }

  get spec(): ExperimentSpec {
    return this.record.spec;
  }
  get id(): string {
    return this.record.id;
  }
  get step(): number {
    return Math.min(...this.frames.map((f) => f.at(-1)?.step ?? 0));
  }
  get done(): boolean {
    return this.cells.every((c) => (this.frames[c.index]?.at(-1)?.step ?? 0) >= this.spec.steps || this.#ended.includes(c.index));
  }

  /** Why each cell ended ('done', a stop or divergence message); undefined while it trains. */
  get stoppedBy(): (string | undefined)[] {
    void this.#ended; // changes when a cell ends
    return this.record.cells.map((c) => c.stoppedBy);
  }

  /** Start workers for `inits` (cells not finished); frames are stored when a store is given. */
  async train(inits: CellInit[], opts: CellRunnerOptions, store: ExperimentStore | null, onStoreError: (m: string) => void, onWritten?: () => void): Promise<void> {
    if (!inits.length) return;
    this.starting = true;
    if (store) {
      this.#recorder = new ExperimentRecorder(store, this.id, {
        keepWeights: this.record.keepWeights,
        lastStep: this.spec.steps,
        weights: (cell) => this.#runner!.weights(cell),
        onError: onStoreError,
        onWritten,
      });
    }
    const variantOf = new Map(this.cells.map((c) => [c.index, c.variant]));
    try {
      const runner = await startCellRunner(
        inits.map((i) => ({ ...i, variant: variantOf.get(i.index)! })),
        opts,
        { frames: (b) => this.#onFrames(b), status: (g, s) => this.#onStatus(g, s) },
      );
      // closed while the workers were starting: they go too
      if (this.#disposed) return runner.dispose();
      this.#runner = runner;
      this.trainable = true;
    } finally {
      this.starting = false;
    }
  }

  #onFrames(batch: CellFrames[]): void {
    if (this.#disposed) return; // a message sent before the workers went
    const next = [...this.frames];
    for (const b of batch) {
      next[b.index] = [...(next[b.index] ?? []), ...b.frames];
      this.timelines[b.index] = b.timeline;
      this.#recorder?.frames(b.index, b.frames, b.timeline);
    }
    this.frames = next;
    if (this.reference && this.done && !this.reproduction) this.reproduction = reproduceCheck(this.reference, this.bundle().runs);
  }

  /** The experiment as the core's bundle (export, re-run reference). */
  bundle(): ExperimentBundle {
    return bundleOf(this.spec, this.record.cells, this.frames, this.timelines);
  }

  #onStatus(group: number, s: GroupStatus): void {
    const next = [...this.groups];
    next[group] = s;
    this.groups = next;
    this.running = next.some((g) => g?.phase === 'running');
    for (const c of s.cells) {
      const cell = this.record.cells[c.index];
      if (s.backend && cell && cell.engine !== s.backend) {
        cell.engine = s.backend;
        this.#recorder?.engine(c.index, s.backend);
      }
      if (this.#stopped.has(c.index)) continue;
      if (c.phase === 'stopped' || c.phase === 'error' || c.phase === 'done') {
        this.#stopped.add(c.index);
        this.#ended = [...this.#ended, c.index];
        if (cell) cell.stoppedBy = c.phase === 'done' ? 'done' : c.message;
        this.#recorder?.stopped(c.index, c.phase === 'done' ? 'done' : c.message);
      }
    }
  }

  play = async () => this.#runner?.play();
  pause = async () => this.#runner?.pause();
  stepN = async (n: number) => this.#runner?.step(n);

  /** Messages of the worker groups (engine, base, stopped cells). */
  get statusLine(): string {
    const g = this.groups.filter(Boolean);
    if (!g.length) return this.starting ? 'starting workers…' : '';
    const phases = [...new Set(g.map((x) => x.phase))].join('/');
    const stopped = g.flatMap((x) => x.cells.filter((c) => c.phase === 'stopped' || c.phase === 'error').map((c) => `cell ${c.index}: ${c.message}`));
    const why = g[0].backendNote.split('\n')[0];
    const backend = g[0].backend ? `${g[0].backend}${why ? ` (${why})` : ''}, ${g.length} worker${g.length > 1 ? 's' : ''}` : '';
    const rate = g.reduce((s, x) => s + x.roundsPerSecond, 0);
    return [phases, backend, rate ? `${rate.toFixed(2)} rounds/s` : '', g.map((x) => x.message).filter(Boolean).join(' · '), ...stopped].filter(Boolean).join(' · ');
  }

  /** Wait for pending store writes (before reading back, or in tests). */
  flush(): Promise<void> {
    return this.#recorder?.flush() ?? Promise.resolve();
  }

  /** Stop training; resolves when the recording has written what it was handed (no write after it). */
  dispose(): Promise<void> {
    this.#disposed = true;
    this.#runner?.dispose();
    this.#runner = null;
    this.running = false;
    this.trainable = false;
    return this.#recorder?.close() ?? Promise.resolve();
  }
}
