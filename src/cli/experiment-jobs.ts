// `npm run experiment -- --all --jobs N`: the experiment's groups of cells trained on N worker
// threads of this process (experiment-worker.ts, started by ts-worker.ts), each taking the next group
// as soon as it is free (src/core/experiment/jobs.ts: the scheduling and the cell order of the
// results); one job trains in this process. Threads rather than processes: a worker skips a
// process's start (Node, the tsx loader, a V8 of its own): less CPU and memory per worker
// (docs/performance.md); V8's tier-up of onnxruntime's WASM is still paid per worker. A worker holds one
// engine, reused from cell to cell (engine-reuse.ts), and a population while it trains one; it runs
// the cores' share of WASM threads (one thread once there are as many workers as cores, so that N
// workers do not start N × ORT's default) and sends back its cells' runs (structured clone: NaN and
// -0 arrive as they left), so its memory stays that of one cell.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { runOnWorkers, threadsPerWorker } from '../core/experiment/jobs';
import { EngineReuse } from './engine-reuse';
import { cpuSeconds, threadCpuSeconds, trainGroup, type TrainReport, type TrainSettings, type TrainedCell } from './experiment-train';
import { tsWorker } from './ts-worker';

/** Parent → worker. */
export interface TrainMessage {
  kind: 'train';
  settings: TrainSettings;
  group: number[];
  together: boolean;
  /** WASM threads of the worker (set before its first engine). */
  threads: number;
}

/** Worker → parent. */
export type WorkerMessage =
  | { kind: 'step'; cell: number; step: number; steps: number }
  | { kind: 'info'; line: string }
  | { kind: 'trained'; cells: TrainedCell[]; cpuSeconds: number }
  | { kind: 'failed'; message: string };

export interface JobsOutcome {
  cells: TrainedCell[];
  /** Peak resident memory of this process (every worker thread in it), MB. */
  peakRssMb: number;
  /** CPU time of each worker's own thread (with one job: this process's main thread), seconds. */
  cpuSeconds: number[];
  /** CPU time of this whole process: its workers, this thread, V8's compile and GC threads, seconds. */
  processCpuSeconds: number;
  /** Each worker's wait at the end: from its last group's results to the last worker's, seconds. */
  idleAtEndSeconds: number[];
}

/** onnxruntime-web's own cap on the WASM threads it starts in Node (one job in this process gets its default). */
const MAX_THREADS = 4;

const WORKER = new URL('./experiment-worker.ts', import.meta.url);

/** One worker thread; `train` sends it a group and resolves with the group's cells. */
class WorkerThread {
  private readonly thread: Worker;
  private pending: { resolve: (c: TrainedCell[]) => void; reject: (e: Error) => void } | null = null;
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
      this.cpuSeconds = m.cpuSeconds;
      this.doneAt = performance.now();
      this.settle(m.cells);
    } else this.settle(new Error(`worker ${this.id}: ${m.message}`));
  }

  private settle(r: TrainedCell[] | Error): void {
    const p = this.pending;
    this.pending = null;
    if (!p) return;
    if (r instanceof Error) p.reject(r);
    else p.resolve(r);
  }

  train(msg: TrainMessage): Promise<TrainedCell[]> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.thread.postMessage(msg);
    });
  }

  close(): Promise<number> {
    return this.thread.terminate();
  }
}

/** Train `groups` on `jobs` workers; `released` gets the trained cells in cell order as they come. */
export async function trainOnJobs(s: TrainSettings, groups: number[][], together: boolean, jobs: number, report: TrainReport, released: (cells: TrainedCell[]) => void): Promise<JobsOutcome> {
  const peakRssMb = () => process.resourceUsage().maxRSS / 1024;
  if (jobs === 1) {
    const engines = new EngineReuse();
    try {
      const cells = await runOnWorkers(groups, 1, (_w, g) => trainGroup(s, g, together, report, engines), released);
      return { cells, peakRssMb: peakRssMb(), cpuSeconds: [threadCpuSeconds()], processCpuSeconds: cpuSeconds(), idleAtEndSeconds: [0] };
    } finally {
      await engines.dispose();
    }
  }
  const workers: WorkerThread[] = [];
  const threads = Math.min(MAX_THREADS, threadsPerWorker(availableParallelism(), jobs));
  try {
    const cells = await runOnWorkers(groups, jobs, (w, g) => (workers[w] ??= new WorkerThread(w, report)).train({ kind: 'train', settings: s, group: [...g], together, threads }), released);
    const end = Math.max(...workers.map((w) => w.doneAt));
    return { cells, peakRssMb: peakRssMb(), cpuSeconds: workers.map((w) => w.cpuSeconds), processCpuSeconds: cpuSeconds(), idleAtEndSeconds: workers.map((w) => (end - w.doneAt) / 1000) };
  } finally {
    await Promise.all(workers.map((w) => w?.close()));
  }
}
