/**
 * The lab's own run stored as it trains: a one-cell experiment record of kind 'run' (config, seed,
 * timeline, frames in batches, one transaction each), the run's latest snapshot (weights, optimizer
 * state, RNG positions; optional, its size on the record) and the traces of the steps the user
 * opened in the sample inspector. A new run id (reset, reseed, new settings) or a replaced history
 * (fork) starts a new record; the meta key 'lab-run' names the record a reload restores
 * (lab-restore.ts). A write that fails (quota, a closed database) stops the recording with a
 * message; what was stored before stays whole.
 */
import type { Config } from '../../core/config';
import type { ExperimentSpec } from '../../core/experiment/spec';
import type { TimelineEntry } from '../../core/loop';
import { taskLabel } from '../../core/tasks/registry';
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import type { LabSnapshot } from '../../../workers/lab.api';
import { RunStore, newId, storeError, type StoredExperiment } from './store';

export interface LabRunView {
  runId: number;
  config: Config;
  timeline: TimelineEntry[];
  backend: string;
}

export class LabRunRecording {
  private store: Promise<RunStore | null>;
  private queue: Promise<void> = Promise.resolve();
  private runId = -1;
  private id = '';
  private first: MetricsFrame | null = null;
  private stored = 0;
  /** Step of the last frame handed to the queue (a snapshot waits until the frames reach it). */
  private storedStep = 0;
  private pendingSnapshot: LabSnapshot | null = null;
  private savedSnapshot: LabSnapshot | null = null;
  private tracesSaved = new Set<number>();
  private pendingTraces: { step: number; traces: SampleTrace[] } | null = null;
  /** A restored record to continue (set by `adopt`, used by the update that shows its frames). */
  private adopting: { id: string; frames: number; first: MetricsFrame } | null = null;
  /** The record continued is a restored one (see update). */
  private adopted = false;
  private failed = false;
  /** Keep the run's snapshot for a resume (off: a reload restarts it from step 0 and replays it). */
  keepSnapshot = true;

  constructor(
    private readonly onError: (message: string) => void,
    open: () => Promise<RunStore> = () => RunStore.open(),
    /** After each write (e.g. to show the stored size). */
    private readonly onWritten: (rec: StoredExperiment | undefined) => void = () => undefined,
  ) {
    this.store = open().catch((e: unknown) => {
      this.onError(`${storeError(e, 'opening the run store').message} This run is not stored.`);
      return null;
    });
  }

  /** Continue a restored record: its first `frames` frames (from `first` on) are the run's first ones (no new record). */
  adopt(id: string, frames: number, first: MetricsFrame): void {
    this.adopting = { id, frames, first };
  }

  /**
   * Call with the run (`runId`: the run the frames belong to) and every frame of the run
   * (allFrames) whenever either changes.
   */
  update(run: LabRunView, frames: readonly MetricsFrame[]): void {
    // run id −1: frames kept while a worker (re)starts, not yet a run's
    if (this.failed || !frames.length || run.runId < 0) return;
    if (this.adopting && frames[0] === this.adopting.first && frames.length >= this.adopting.frames) {
      Object.assign(this, { runId: run.runId, first: frames[0], stored: this.adopting.frames, id: this.adopting.id, storedStep: frames[this.adopting.frames - 1]?.step ?? 0 });
      this.adopting = null;
      this.adopted = true;
      this.tracesSaved.clear();
    }
    // a restored run's worker goes through run ids while it starts: its frames tell it apart
    const replaced = (run.runId !== this.runId && !this.adopted) || frames[0] !== this.first || frames.length < this.stored;
    this.runId = run.runId;
    if (replaced) {
      this.adopted = false;
      this.runId = run.runId;
      this.first = frames[0];
      this.stored = 0;
      this.storedStep = 0;
      this.pendingSnapshot = null;
      this.savedSnapshot = null;
      this.pendingTraces = null;
      this.tracesSaved.clear();
      const previous = this.id;
      this.id = newId();
      const rec = { ...labRunRecord(this.id, run), keepWeights: this.keepSnapshot };
      const id = this.id;
      this.enqueue(async (s) => {
        await s.put(rec);
        await s.setLabRun(id);
        // only the lab's current run is resumed: the previous one's snapshot would only fill the disk
        if (previous) await s.dropWeights(previous);
      });
    }
    const fresh = frames.slice(this.stored);
    if (!fresh.length) return;
    this.stored = frames.length;
    this.storedStep = fresh[fresh.length - 1].step;
    const id = this.id;
    this.enqueue((s) => s.appendFrames(id, 0, fresh.map((f) => ({ ...f, trace: [] })), { timeline: run.timeline, engine: run.backend }));
    this.writeSnapshot();
    this.writeTraces();
  }

  /** The run's latest snapshot: stored once the stored frames reach its step (never ahead of them). */
  snapshot(snap: LabSnapshot | null): void {
    if (!snap || !this.keepSnapshot || snap === this.savedSnapshot) return;
    this.pendingSnapshot = snap;
    this.writeSnapshot();
  }

  private writeSnapshot(): void {
    const snap = this.pendingSnapshot;
    if (!snap || !this.id || snap.step > this.storedStep) return;
    this.pendingSnapshot = null;
    this.savedSnapshot = snap;
    const id = this.id;
    this.enqueue((s) => s.saveSnapshot(id, 0, snap));
  }

  /** Traces of a step the user looked at in the sample inspector (once per step, after its frame). */
  traces(step: number, traces: readonly SampleTrace[]): void {
    if (!traces.length || this.tracesSaved.has(step)) return;
    this.pendingTraces = { step, traces: structuredClone(traces as SampleTrace[]) };
    this.writeTraces();
  }

  private writeTraces(): void {
    const t = this.pendingTraces;
    if (!t || !this.id || t.step > this.storedStep) return;
    this.pendingTraces = null;
    this.tracesSaved.add(t.step);
    const id = this.id;
    this.enqueue((s) => s.saveTraces(id, 0, t.step, t.traces));
  }

  /** Stop keeping snapshots and drop the stored ones of this run (frees space; a reload then replays). */
  dropSnapshots(): void {
    this.keepSnapshot = false;
    this.pendingSnapshot = null;
    const id = this.id;
    if (id) this.enqueue((s) => s.dropWeights(id));
  }

  private enqueue(write: (s: RunStore) => Promise<void>): void {
    this.queue = this.queue.then(async () => {
      const s = await this.store;
      if (!s || this.failed) return;
      try {
        await write(s);
        this.onWritten(await s.get(this.id).catch(() => undefined));
      } catch (e) {
        this.failed = true;
        this.onError(`${storeError(e, 'storing the lab run').message} Recording stopped; training goes on unstored.`);
      }
    });
  }

  flush(): Promise<void> {
    return this.queue;
  }

  async close(): Promise<void> {
    await this.queue;
    (await this.store)?.close();
  }
}

export function labRunRecord(id: string, run: LabRunView, now = Date.now()): StoredExperiment {
  const { seed, steps, ...base } = run.config;
  const spec: ExperimentSpec = { version: 1, name: `lab run: ${taskLabel(run.config)}, ${run.config.method}, seed ${seed}`, base, variants: [{ name: 'run', patch: {} }], seeds: [seed], steps };
  return {
    id, name: `${spec.name} (${new Date(now).toISOString().slice(11, 19)})`, kind: 'run', createdAt: now, updatedAt: now, spec, keepWeights: true,
    cells: [{ variant: 0, seed, config: run.config, timeline: run.timeline, frameCount: 0, batches: 0, step: 0 }],
  };
}
