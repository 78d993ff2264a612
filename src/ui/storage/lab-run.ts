/**
 * The lab's own run stored as it trains: a one-cell experiment record of kind 'run' (config, seed,
 * timeline, frames in batches). A new run id (reset, reseed, new settings) or a replaced history
 * (fork, recovery) starts a new record. The Runs panel of the experiments page lists it; it is shown
 * as stored there (live setting changes on its timeline cannot be replayed by a restart).
 */
import type { Config } from '../../core/config';
import type { ExperimentSpec } from '../../core/experiment/spec';
import type { TimelineEntry } from '../../core/loop';
import type { MetricsFrame } from '../../core/metrics';
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
  private failed = false;

  constructor(
    private readonly onError: (message: string) => void,
    open: () => Promise<RunStore> = () => RunStore.open(),
  ) {
    this.store = open().catch((e: unknown) => {
      this.onError(`${storeError(e, 'opening the run store').message} This run is not stored.`);
      return null;
    });
  }

  /** Call with the run's status and frames whenever either changes. */
  update(run: LabRunView, frames: readonly MetricsFrame[]): void {
    if (this.failed || !frames.length) return;
    const replaced = run.runId !== this.runId || frames[0] !== this.first || frames.length < this.stored;
    if (replaced) {
      this.runId = run.runId;
      this.first = frames[0];
      this.stored = 0;
      this.id = newId();
      const rec = labRunRecord(this.id, run);
      this.enqueue((s) => s.put(rec));
    }
    const fresh = frames.slice(this.stored);
    if (!fresh.length) return;
    this.stored = frames.length;
    const id = this.id;
    this.enqueue((s) => s.appendFrames(id, 0, fresh.map((f) => ({ ...f, trace: [] })), { timeline: run.timeline, engine: run.backend }));
  }

  private enqueue(write: (s: RunStore) => Promise<void>): void {
    this.queue = this.queue.then(async () => {
      const s = await this.store;
      if (!s || this.failed) return;
      try {
        await write(s);
      } catch (e) {
        this.failed = true;
        this.onError(`${storeError(e, 'storing the lab run').message} Recording stopped.`);
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
  const spec: ExperimentSpec = { version: 1, name: `lab run: ${run.config.task}, ${run.config.method}, seed ${seed}`, base, variants: [{ name: 'run', patch: {} }], seeds: [seed], steps };
  return {
    id, name: `${spec.name} (${new Date(now).toISOString().slice(11, 19)})`, kind: 'run', createdAt: now, updatedAt: now, spec, keepWeights: false,
    cells: [{ variant: 0, seed, config: run.config, timeline: run.timeline, frameCount: 0, batches: 0, step: 0 }],
  };
}
