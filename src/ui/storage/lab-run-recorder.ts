/**
 * The lab's own run stored as it trains: a one-cell record of kind 'run' (config, seed, timeline,
 * frames in batches), the run's latest snapshot (optional, its size on the record) and the traces of
 * the steps the user opened in the sample inspector. A new run id (reset, reseed, new settings) or a
 * replaced history (fork) starts a new record; the meta key 'lab-run' names the record a reload
 * restores (lab-restore.ts).
 *
 * One writer per run: this tab writes a record only while it holds the run's writer lock; a restored
 * run another tab is writing is recorded here as a copy (a new record), and the page says so.
 * The writes go through the write queue (write-queue.ts: one in flight, the rest in the next one,
 * at once when the page goes away, a full disk retried), each one transaction: frames, record,
 * snapshot, traces. On a full disk the page says which steps are stored.
 */
import type { Config } from '../../core/config';
import type { Resume } from '../../core/experiment/bundle';
import type { ExperimentSpec } from '../../core/experiment/spec';
import type { TimelineEntry } from '../../core/loop';
import { taskLabel } from '../../core/tasks/registry';
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import type { LabPhase, LabSnapshot } from '../../../workers/lab.api';
import { newId, storeError, type StoredExperiment } from './db';
import { LabRunStore, snapshotBytes, type LabRunWrite } from './lab-run-store';
import { busyRuns, claimWriter, type Locks, type WriterLock } from './writer-lock';
import { WriteQueue } from './write-queue';

export interface LabRunView {
  runId: number;
  /**
   * The run's phase: a run still starting (a worker warming up, a restore replaying) or failed to
   * start has no timeline yet, or part of it — nothing of it is recorded until it is a run.
   */
  phase: LabPhase;
  config: Config;
  timeline: TimelineEntry[];
  backend: string;
  /** How the run came back after an interruption (the session's status says it): noted on the record once. */
  resumed?: Resume;
}

/** A record's resumes with `r` added, unless it is there already (the same list when nothing is new). */
export function withResume(list: Resume[] | undefined, r: Resume | undefined): Resume[] | undefined {
  if (!r || list?.some((x) => x.step === r.step && x.from === r.from && x.exact === r.exact)) return list;
  return [...(list ?? []), { step: r.step, exact: r.exact, from: r.from }];
}

/** What the recording tells the page: '' (all well), a copy of a run another tab writes, a full disk, a stop. */
export type RecordingState = 'ok' | 'copy' | 'full' | 'stopped';


interface Adopting {
  id: string;
  frames: number;
  first: MetricsFrame;
}

/** The phases of a run that is one: what its status says is the run's (timeline, engine). */
const RECORDED_PHASES: ReadonlySet<LabPhase> = new Set(['ready', 'running', 'paused', 'done']);

export class LabRunRecorder {
  private store: Promise<LabRunStore | null>;
  private db: LabRunStore | null = null;
  private runId = -1;
  private first: MetricsFrame | null = null;
  private frames: readonly MetricsFrame[] = [];
  private view: LabRunView | null = null;
  /** The record as this tab writes it (null: none yet, or waiting for its lock). */
  private record: StoredExperiment | null = null;
  /** Frames of `frames` stored; index of the batch key the next frames go under. */
  private written = 0;
  private batch = 0;
  /** The record is new (no write has landed yet): its first write makes it the one a reload restores. */
  private fresh = false;
  private lock: WriterLock | null = null;
  /** This tab writes `record` (its writer lock is held, or requested first for a new record). */
  private writing = false;
  private pendingSnapshot: LabSnapshot | null = null;
  private savedSnapshot: LabSnapshot | null = null;
  private dropSnapshot = false;
  private tracesSaved = new Set<number>();
  private pendingTraces: { step: number; traces: SampleTrace[] } | null = null;
  private adopting: Adopting | null = null;
  /** The record continued is a restored one (see update). */
  private adopted = false;
  private readonly queue: WriteQueue;
  /** Lock claims and reads not settled yet (flush waits for them too). */
  private settling = new Set<Promise<unknown>>();
  /** The disk is full: snapshots wait (the frames go first once there is space). */
  private full = false;
  private stopped = false;
  /** Keep the run's snapshot for a resume (off: a reload restarts it from step 0 and replays it). */
  keepSnapshot = true;

  constructor(
    /** What to tell the user ('' when all is well again). */
    private readonly onMessage: (message: string, state: RecordingState) => void,
    open: () => Promise<LabRunStore> = () => LabRunStore.open(),
    /** After each write (e.g. to show the stored size). */
    private readonly onWritten: (rec: StoredExperiment | undefined) => void = () => undefined,
    private readonly opts: { locks?: Locks; retryMs?: number; leave?: (flush: () => void) => () => void } = {},
  ) {
    this.store = open().then(
      (s) => {
        this.db = s;
        this.kick();
        return s;
      },
      (e: unknown) => {
        this.stopped = true;
        this.onMessage(`${storeError(e, 'opening the run store').message} This run is not stored.`, 'stopped');
        return null;
      },
    );
    this.queue = new WriteQueue(
      {
        pending: () => !this.stopped && !!this.db && !!this.nextWrite(false),
        write: (leaving) => (leaving ? this.writeLeaving() : this.writeNext()),
        full: (_, retryMs) => this.diskFull(retryMs),
        recovered: () => {
          this.full = false;
          this.onMessage('', 'ok');
        },
        failed: (e) => this.stop(e.message),
      },
      { doing: 'storing the lab run', retryMs: opts.retryMs, leave: opts.leave },
    );
  }

  private kick(): void {
    this.queue.kick();
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
    // run id −1: frames kept while a worker (re)starts, not yet a run's; a run still starting: its
    // status has no timeline yet (or a replay's part of it), which must not overwrite the stored one
    if (this.stopped || !frames.length || run.runId < 0 || !RECORDED_PHASES.has(run.phase)) return;
    const a = this.adopting;
    if (a && frames[0] === a.first && frames.length >= a.frames) {
      this.adopting = null;
      this.adopted = true;
      this.runId = run.runId;
      this.first = frames[0];
      this.releaseRecord();
      this.view = run;
      this.frames = frames;
      this.continueStored(a);
      return;
    }
    // a restored run's worker goes through run ids while it starts: its frames tell it apart
    const replaced = (run.runId !== this.runId && !this.adopted) || frames[0] !== this.first || frames.length < this.frames.length;
    this.runId = run.runId;
    if (replaced) this.releaseRecord();
    this.view = run;
    this.frames = frames;
    if (replaced) this.startRecord(frames[0]);
    this.kick();
  }

  /** The run's latest snapshot: stored once the stored frames reach its step (never ahead of them). */
  snapshot(snap: LabSnapshot | null): void {
    if (!snap || !this.keepSnapshot || snap === this.savedSnapshot) return;
    this.pendingSnapshot = snap;
    this.kick();
  }

  /** Traces of a step the user looked at in the sample inspector (once per step, after its frame). */
  traces(step: number, traces: readonly SampleTrace[]): void {
    if (!traces.length || this.tracesSaved.has(step)) return;
    this.pendingTraces = { step, traces: structuredClone(traces as SampleTrace[]) };
    this.kick();
  }

  /** Stop keeping snapshots and drop the stored ones of this run (frees space; a reload then replays). */
  dropSnapshots(): void {
    this.keepSnapshot = false;
    this.pendingSnapshot = null;
    this.dropSnapshot = true;
    this.kick();
  }

  /** Try a write now (after a full disk: the user freed space). */
  retry(): void {
    this.queue.retry();
  }

  /** Resolves when everything handed over so far is written (or waits for space, or failed). */
  async flush(): Promise<void> {
    await this.store;
    while (this.settling.size) await Promise.all([...this.settling]);
    await this.queue.written();
    if (this.settling.size) await this.flush();
  }

  private settle(p: Promise<unknown>): void {
    this.settling.add(p);
    void p.finally(() => this.settling.delete(p));
  }

  async close(): Promise<void> {
    this.queue.close();
    await this.flush();
    this.lock?.release();
    (await this.store)?.close();
  }

  // ---- records and their lock -------------------------------------------------------------

  /** A new record for a new run: its lock (a new id: free), then its first write. */
  private startRecord(first: MetricsFrame): void {
    this.releaseRecord();
    this.adopted = false;
    this.first = first;
    this.resetCounters();
    const id = newId();
    this.record = { ...labRunRecord(id, this.view!), keepWeights: this.keepSnapshot };
    this.fresh = true;
    // A new id is unknown to other tabs until its first write lands, and the lock is requested
    // before that write: this tab writes it from now on.
    this.writing = true;
    this.settle(
      claimWriter(id, this.opts.locks)
        .catch(() => null)
        .then((lock) => {
          if (this.record?.id !== id) return lock?.release();
          if (!lock) return this.stop(`Another tab writes the new run ${id}.`);
          this.lock = lock;
        }),
    );
  }

  /** Leave the record written so far: what is pending of it is written, then its lock goes. */
  private releaseRecord(): void {
    const lock = this.lock;
    const last = this.writing && !this.stopped ? this.nextWrite(false) : null;
    // (no longer the run a reload restores: the next record is)
    const wrote = last ? this.store.then((db) => db?.write({ ...last.write, current: false })).catch(() => undefined) : Promise.resolve();
    if (last) this.settle(wrote);
    void wrote.then(() => lock?.release());
    this.lock = null;
    this.writing = false;
    this.record = null;
  }

  /** A restored record: continued when this tab gets its lock, else recorded as a copy. */
  private continueStored(a: Adopting): void {
    this.resetCounters();
    this.settle(this.store.then(async (db) => {
      if (!db) return;
      const lock = await claimWriter(a.id, this.opts.locks).catch(() => null);
      const rec = lock ? await db.get(a.id).catch(() => undefined) : undefined;
      if (this.first !== a.first || this.stopped) return lock?.release();
      if (lock && rec) {
        this.lock = lock;
        this.writing = true;
        this.record = rec;
        this.written = a.frames;
        this.batch = rec.cells[0]?.batches ?? 0;
        this.fresh = false;
        this.kick();
        return;
      }
      lock?.release();
      // the snapshot and traces handed over meanwhile are this run's: the copy takes them
      const { pendingSnapshot, pendingTraces } = this;
      this.startRecord(a.first);
      // still the restored run (its worker goes through run ids while it starts): no new record for those
      Object.assign(this, { pendingSnapshot, pendingTraces, adopted: true });
      const step = this.frames[a.frames - 1]?.step ?? 0;
      this.onMessage(`This run is being recorded by another tab of the lab. This tab stores it as a copy (a new run in the Runs panel, the same up to step ${step}); the other tab's record stays as it is.`, 'copy');
      this.kick();
    }));
  }

  private resetCounters(): void {
    this.written = 0;
    this.batch = 0;
    this.pendingSnapshot = null;
    this.savedSnapshot = null;
    this.dropSnapshot = false;
    this.pendingTraces = null;
    this.tracesSaved.clear();
  }

  // ---- writing ----------------------------------------------------------------------------

  /** The next write from what is stored (counters) and what is pending; null: nothing to write. */
  private nextWrite(leaving: boolean): { write: LabRunWrite; done: () => void } | null {
    const base = this.record;
    const view = this.view;
    if (!base || !view || !this.writing) return null;
    const news = this.frames.slice(this.written);
    const storedStep = (news.at(-1) ?? this.frames[this.written - 1])?.step ?? 0;
    const snap = this.pendingSnapshot && this.keepSnapshot && !this.full && this.pendingSnapshot.step <= storedStep ? this.pendingSnapshot : undefined;
    const traces = this.pendingTraces && this.pendingTraces.step <= storedStep ? this.pendingTraces : undefined;
    const c = base.cells[0];
    const timelineChanged = JSON.stringify(c.timeline) !== JSON.stringify(view.timeline) || c.engine !== view.backend;
    const resumed = withResume(c.resumed, view.resumed);
    if (!news.length && !snap && !traces && !this.fresh && !this.dropSnapshot && !timelineChanged && resumed === c.resumed && base.keepWeights === this.keepSnapshot) return null;
    const frameCount = this.written + news.length;
    const batches = this.batch + (news.length ? 1 : 0);
    const weights = this.dropSnapshot || !this.keepSnapshot ? undefined : snap ? { step: snap.step, bytes: snapshotBytes(snap), exact: true } : c.weights;
    const cell = { ...c, timeline: view.timeline, engine: view.backend, frameCount, batches, step: storedStep, weights, resumed };
    if (!weights) delete cell.weights;
    if (!resumed) delete cell.resumed;
    const record: StoredExperiment = { ...base, keepWeights: this.keepSnapshot, updatedAt: Date.now(), cells: [cell] };
    const write: LabRunWrite = { record, current: this.fresh, dropSnapshot: this.dropSnapshot && !snap };
    if (news.length) write.batch = { index: this.batch, frames: news.map((f) => ({ ...f, trace: [] })) };
    if (snap) write.snapshot = snap;
    if (traces) write.traces = traces;
    const done = (): void => {
      // a later write (the page going away) may have landed the same frames and more already
      if (frameCount < this.written || this.record?.id !== record.id) return;
      const createdNow = this.fresh;
      Object.assign(this, { record, written: frameCount, batch: batches, fresh: false });
      if (write.dropSnapshot) this.dropSnapshot = false;
      if (snap) {
        this.savedSnapshot = snap;
        if (this.pendingSnapshot === snap) this.pendingSnapshot = null;
      }
      if (traces) {
        this.tracesSaved.add(traces.step);
        if (this.pendingTraces === traces) this.pendingTraces = null;
      }
      if (createdNow) void this.dropOldSnapshots(record.id);
    };
    return { write, done };
  }

  /** The next regular write (the queue's): the record's name as stored first, then the write built and issued whole. */
  private async writeNext(): Promise<void> {
    const db = this.db!;
    // a rename in the Runs panel (another tab) is kept: the name is read first, then the write is
    // built and issued whole (no read inside it: it needs no more of this page once issued)
    const id = this.record?.id;
    const stored = id && !this.fresh ? await db.get(id).catch(() => undefined) : undefined;
    if (this.queue.leaving || !this.record || this.record.id !== id) return;
    if (stored) this.record = { ...this.record, name: stored.name };
    const job = this.nextWrite(false);
    if (!job) return;
    await db.write(job.write);
    job.done();
    this.onWritten(this.record ?? undefined);
  }

  /** The page is hidden or going away: everything pending at once (it holds the frames of a write in flight too: same batch key). */
  private async writeLeaving(): Promise<void> {
    const job = this.nextWrite(true);
    if (!job) return;
    await this.db!.write(job.write);
    job.done();
  }

  private diskFull(retryMs: number): void {
    this.full = true;
    const stored = this.frames[this.written - 1]?.step ?? 0;
    const kept = stored ? `steps 1–${stored} of this run are stored` : 'nothing of this run is stored yet';
    this.onMessage(`Browser storage is full: ${kept}; the steps after it stay in this tab and are stored as soon as there is space (next try in ${Math.round(retryMs / 1000)} s). Free space in the Runs panel (experiments page: delete old runs or their weights) or untick "keep state".`, 'full');
  }

  private stop(why: string): void {
    this.stopped = true;
    this.queue.stop();
    this.onMessage(`${why} Recording stopped; training goes on unstored.`, 'stopped');
  }

  /** Only the current run keeps its snapshot: the other lab runs' go, unless a tab writes them now. */
  private async dropOldSnapshots(keep: string): Promise<void> {
    try {
      await this.db?.dropOtherSnapshots(keep, await busyRuns(this.opts.locks));
    } catch {
      // housekeeping only: a failure leaves the old snapshots, shown with their size in the Runs panel
    }
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
