// `npm run experiment -- --all --jobs N`: the experiment's groups of cells trained by N jobs: this
// process's main thread (its module graph is loaded already) and N − 1 worker threads
// (experiment-worker.ts, started by ts-worker.ts before the first group, so that their start overlaps
// it), each taking the next group from one queue in shared memory as soon as it is free
// (src/core/experiment/jobs.ts: the scheduling and the cell order of the results). Threads rather
// than processes: a worker skips a process's start (Node, the tsx loader, a V8 of its own), and V8's
// compiled code of onnxruntime's WASM module is the process's: every thread's instance runs the
// code the first compiled and tiered up (docs/performance.md). Each job holds one engine, reused from
// cell to cell (engine-reuse.ts), and a population while it trains one; it runs the cores' share of
// WASM threads (one thread once there are as many jobs as cores, so that N jobs do not start N ×
// ORT's default; one job keeps the default) and a worker sends back its cells' runs (structured
// clone: NaN and -0 arrive as they left), so its memory stays that of one cell.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { drainGroups, runOnQueue, threadsPerWorker, type GroupRunner } from '../core/experiment/jobs';
import { EngineReuse } from './engine-reuse';
import { setWasmThreads, shareWasmTiering } from './engine-setup';
import { cpuSeconds, threadCpuSeconds, trainGroup, type TrainReport, type TrainSettings, type TrainedCell } from './experiment-train';
import { tsWorker } from './ts-worker';

/** Parent → worker: train groups from the shared queue until it is empty. */
export interface TrainMessage {
  kind: 'train';
  settings: TrainSettings;
  groups: number[][];
  together: boolean;
  /** The queue's shared memory (GroupQueue.shared). */
  queue: SharedArrayBuffer;
  /** WASM threads of the worker (set before its first engine). */
  threads: number;
}

/** Worker → parent. */
export type WorkerMessage =
  | { kind: 'step'; cell: number; step: number; steps: number }
  | { kind: 'info'; line: string }
  | { kind: 'trained'; group: number; cells: TrainedCell[] }
  | { kind: 'done'; cpuSeconds: number }
  | { kind: 'failed'; message: string };

export interface JobsOutcome {
  cells: TrainedCell[];
  /** Peak resident memory of this process (every worker thread in it), MB. */
  peakRssMb: number;
  /** CPU time of each job's own thread (the first: this process's main thread, with the CLI's start), seconds. */
  cpuSeconds: number[];
  /** CPU time of this whole process: its workers, this thread, V8's compile and GC threads, seconds. */
  processCpuSeconds: number;
  /** Each job's wait at the end: from its last group's results to the last job's, seconds. */
  idleAtEndSeconds: number[];
}

/** onnxruntime-web's own cap on the WASM threads it starts in Node (one job in this process gets its default). */
const MAX_THREADS = 4;

const WORKER = new URL('./experiment-worker.ts', import.meta.url);

/** One worker thread, started at once (its start overlaps this thread's first group); `run` hands it the queue. */
class WorkerThread {
  private readonly thread: Worker;
  private pending: { trained: (group: number, cells: TrainedCell[]) => void; resolve: () => void; reject: (e: Error) => void } | null = null;
  cpuSeconds = 0;
  /** When its last group's results came (performance.now()). */
  doneAt = 0;

  constructor(
    private readonly id: number,
    private readonly report: TrainReport,
  ) {
    this.thread = tsWorker(WORKER);
    this.thread.on('message', (m: WorkerMessage) => this.onMessage(m));
    this.thread.on('error', (e) => this.settle(new Error(`worker ${this.id}: ${e.message}`)));
    this.thread.on('exit', (code) => this.settle(new Error(`worker ${this.id} exited (code ${code}) before its cells were done`)));
  }

  private onMessage(m: WorkerMessage): void {
    if (m.kind === 'step') this.report.step(m.cell, m.step, m.steps);
    else if (m.kind === 'info') this.report.info(m.line);
    else if (m.kind === 'trained') {
      this.doneAt = performance.now();
      try {
        this.pending?.trained(m.group, m.cells);
      } catch (e) {
        this.settle(e as Error);
      }
    } else if (m.kind === 'done') {
      this.cpuSeconds = m.cpuSeconds;
      this.settle(null);
    } else this.settle(new Error(`worker ${this.id}: ${m.message}`));
  }

  private settle(r: Error | null): void {
    const p = this.pending;
    this.pending = null;
    if (!p) return;
    if (r) p.reject(r);
    else p.resolve();
  }

  /** Trains groups from `queue` in the worker until none is left. */
  run(msg: TrainMessage, trained: (group: number, cells: TrainedCell[]) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending = { trained, resolve, reject };
      this.thread.postMessage(msg);
    });
  }

  close(): Promise<number> {
    return this.thread.terminate();
  }
}

/** A macrotask's turn: the events waiting (a worker's messages) are handled before it resolves. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The report this thread trains with: with worker threads beside it, it yields to the event loop
 * after every step, so that their progress lines and results are handled as they come, not all
 * once this thread's last group is trained (then a worker's cells sat frozen on the progress line,
 * and its end time, hence its idle time at the end, read as this thread's).
 */
export function mainThreadReport(report: TrainReport, jobs: number): TrainReport {
  return jobs > 1 ? { ...report, afterStep: nextTurn } : report;
}

/**
 * Train `groups` on `jobs` jobs: this thread and jobs − 1 worker threads, each taking the next group
 * from one shared queue as soon as it is free; `released` gets the trained cells in cell order as they come.
 */
export async function trainOnJobs(s: TrainSettings, groups: number[][], together: boolean, jobs: number, report: TrainReport, released: (cells: TrainedCell[]) => void): Promise<JobsOutcome> {
  const wasm = s.engine === 'wasm';
  if (wasm) shareWasmTiering(jobs); // before any engine: the module's tier-up budget is set when it is compiled
  // started first: a worker's start (tsx, its module graph) overlaps this thread's first group
  const workers = Array.from({ length: jobs - 1 }, (_, w) => new WorkerThread(w + 1, report));
  const threads = Math.min(MAX_THREADS, threadsPerWorker(availableParallelism(), jobs));
  const engines = new EngineReuse();
  let mainDoneAt = 0;
  const hereReport = mainThreadReport(report, jobs);
  const here: GroupRunner<TrainedCell> = async (queue, trained) => {
    if (wasm && jobs > 1) await setWasmThreads(threads); // one job keeps onnxruntime-web's default
    await drainGroups(queue, groups, (g) => trainGroup(s, g, together, hereReport, engines), (g, cells) => {
      mainDoneAt = performance.now();
      trained(g, cells);
    });
  };
  const away = workers.map((w): GroupRunner<TrainedCell> => (queue, trained) => w.run({ kind: 'train', settings: s, groups, together, queue: queue.shared, threads }, trained));
  try {
    const cells = await runOnQueue(groups, [here, ...away], released);
    const ends = [mainDoneAt, ...workers.map((w) => w.doneAt)];
    const end = Math.max(...ends);
    return {
      cells,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      cpuSeconds: [threadCpuSeconds(), ...workers.map((w) => w.cpuSeconds)],
      processCpuSeconds: cpuSeconds(),
      idleAtEndSeconds: ends.map((t) => (end - t) / 1000),
    };
  } finally {
    await Promise.all([engines.dispose(), ...workers.map((w) => w.close())]);
  }
}
