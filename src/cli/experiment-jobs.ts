// `npm run experiment -- --all --jobs N`: the experiment's groups of cells trained on N worker
// processes (experiment-worker.ts, forked with this process's tsx loader), each taking the next group
// as soon as it is free (src/core/experiment/jobs.ts: the scheduling and the cell order of the
// results); one job trains in this process. A worker holds one engine, reused from cell to cell
// (engine-reuse.ts), and a population while it trains one; it runs the cores' share of WASM threads
// (one thread once there are as many workers as cores, so that N workers do not start N × ORT's
// default) and sends back its cells' runs (structured clone: NaN and -0 arrive as they left), so its
// memory stays that of one cell; each reports its peak RSS.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';
import { runOnWorkers, threadsPerWorker } from '../core/experiment/jobs';
import { EngineReuse } from './engine-reuse';
import { cpuSeconds, trainGroup, type TrainReport, type TrainSettings, type TrainedCell } from './experiment-train';

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
  | { kind: 'trained'; cells: TrainedCell[]; maxRssKb: number; cpuSeconds: number }
  | { kind: 'failed'; message: string };

export interface JobsOutcome {
  cells: TrainedCell[];
  /** Peak resident memory of each worker process (of this process with one job), MB. */
  peakRssMb: number[];
  /** CPU time of each worker process (of this process with one job), seconds. */
  cpuSeconds: number[];
}

/** onnxruntime-web's own cap on the WASM threads it starts in Node (one job in this process gets its default). */
const MAX_THREADS = 4;

const WORKER = fileURLToPath(new URL('./experiment-worker.ts', import.meta.url));

/** One worker process; `train` sends it a group and resolves with the group's cells. */
class WorkerProcess {
  private readonly child: ChildProcess;
  private pending: { resolve: (c: TrainedCell[]) => void; reject: (e: Error) => void } | null = null;
  peakRssKb = 0;
  cpuSeconds = 0;

  constructor(
    private readonly id: number,
    private readonly report: TrainReport,
  ) {
    // execArgv is inherited: the tsx loader this process runs under loads the worker's TypeScript too
    this.child = fork(WORKER, [], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (m: WorkerMessage) => this.onMessage(m));
    this.child.on('exit', (code, signal) => this.settle(new Error(`worker ${this.id} exited (${signal ?? `code ${code}`}) before its cells were done`)));
  }

  private onMessage(m: WorkerMessage): void {
    if (m.kind === 'step') this.report.step(m.cell, m.step, m.steps);
    else if (m.kind === 'info') this.report.info(m.line);
    else if (m.kind === 'trained') {
      this.peakRssKb = Math.max(this.peakRssKb, m.maxRssKb);
      this.cpuSeconds = m.cpuSeconds;
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
      this.child.send(msg);
    });
  }

  close(): void {
    if (this.child.connected) this.child.disconnect(); // the worker exits when its channel closes
  }
}

/** Train `groups` on `jobs` workers; `released` gets the trained cells in cell order as they come. */
export async function trainOnJobs(s: TrainSettings, groups: number[][], together: boolean, jobs: number, report: TrainReport, released: (cells: TrainedCell[]) => void): Promise<JobsOutcome> {
  if (jobs === 1) {
    const engines = new EngineReuse();
    try {
      const cells = await runOnWorkers(groups, 1, (_w, g) => trainGroup(s, g, together, report, engines), released);
      return { cells, peakRssMb: [process.resourceUsage().maxRSS / 1024], cpuSeconds: [cpuSeconds()] };
    } finally {
      await engines.dispose();
    }
  }
  const workers: WorkerProcess[] = [];
  const threads = Math.min(MAX_THREADS, threadsPerWorker(availableParallelism(), jobs));
  try {
    const cells = await runOnWorkers(groups, jobs, (w, g) => (workers[w] ??= new WorkerProcess(w, report)).train({ kind: 'train', settings: s, group: [...g], together, threads }), released);
    return { cells, peakRssMb: workers.map((w) => w.peakRssKb / 1024), cpuSeconds: workers.map((w) => w.cpuSeconds) };
  } finally {
    for (const w of workers) w?.close();
  }
}
