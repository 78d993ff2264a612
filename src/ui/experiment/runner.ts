/**
 * Where experiment cells train: as many workers as the machine has cores (at most MAX_PAGE_WORKERS)
 * (`navigator.hardwareConcurrency`), each training its cells in lockstep as one population
 * (src/core/run/population.ts). Which cells go to which worker is the core's rule, shared with the
 * CLI's --jobs (src/core/experiment/jobs.ts): a variant's seeds per group (one model shape), split
 * in halves while there are fewer groups than cores; a cell's frames are the same on any worker.
 */
import * as Comlink from 'comlink';
import { planWorkers } from '../../core/experiment/jobs';
import type { CellFrames, CellInit, ExperimentApi, ExperimentListener, GroupStatus } from '../../../workers/experiment.api';
import type { BackendPreference } from '../../../workers/lab.api';

export interface CellRunnerOptions {
  prefer: BackendPreference;
  baseUrl: string;
  pretrainSteps?: number;
  /** Workers at most (default: navigator.hardwareConcurrency, at most MAX_PAGE_WORKERS). */
  workers?: number;
}

/**
 * A worker holds one engine (or population) of its own. Lesson l (32 cells, WASM) peaked at
 * 0.7–0.9 GB of renderer memory on 1 or 2 workers and 1.5–2.7 GB on 4 or 8
 * (`npm run bench -- --only page-workers`, docs/performance.md). Eight is as far as the page goes on
 * a many-core machine; the spare cores become their WASM threads.
 */
export const MAX_PAGE_WORKERS = 8;

export interface CellRunnerListener {
  frames(batch: CellFrames[]): void;
  /** Status of one worker group (`group` = its position in `groups`). */
  status(group: number, status: GroupStatus): void;
}

export interface CellRunner {
  /** Cell indices per worker group. */
  readonly groups: number[][];
  play(): Promise<void>;
  pause(): Promise<void>;
  step(n: number): Promise<void>;
  weights(index: number): Promise<{ step: number; data: Float32Array }>;
  dispose(): void;
}

/** Start the workers of `cells` (their variants group them) and initialise each with its cells. */
export async function startCellRunner(cells: (CellInit & { variant: number })[], opts: CellRunnerOptions, listener: CellRunnerListener): Promise<CellRunner> {
  const plan = planWorkers(cells, navigator.hardwareConcurrency || 1, opts.workers ?? Math.min(MAX_PAGE_WORKERS, navigator.hardwareConcurrency || 1));
  const byIndex = new Map(cells.map((c) => [c.index, c]));
  const groups = plan.cells.map((w) => w.map((i) => byIndex.get(i)!));
  const workers = groups.map((_, g) => new Worker(new URL('../../../workers/experiment.worker.ts', import.meta.url), { type: 'module', name: `experiment-${g}` }));
  const apis = workers.map((w) => Comlink.wrap<ExperimentApi>(w));
  const owner = new Map<number, number>();
  groups.forEach((g, i) => g.forEach((c) => owner.set(c.index, i)));
  const dispose = () => {
    for (const a of apis) a[Comlink.releaseProxy]();
    for (const w of workers) w.terminate();
  };
  try {
    await Promise.all(
      groups.map((g, i) => {
        const l: ExperimentListener = { frames: (b) => listener.frames(b), status: (s) => listener.status(i, s) };
        const init = { cells: g.map(({ variant: _v, ...c }) => c), prefer: opts.prefer, baseUrl: opts.baseUrl, numThreads: plan.threads, ...(opts.pretrainSteps !== undefined ? { pretrainSteps: opts.pretrainSteps } : {}) };
        const transfer = g.flatMap((c) => (c.resume ? [c.resume.weights.buffer] : []));
        return apis[i].init(Comlink.transfer(init, transfer), Comlink.proxy(l)).then((s) => listener.status(i, s));
      }),
    );
  } catch (e) {
    dispose();
    throw e;
  }
  const api = (index: number) => {
    const g = owner.get(index);
    if (g === undefined) throw new Error(`no cell ${index}`);
    return apis[g];
  };
  return {
    groups: groups.map((g) => g.map((c) => c.index)),
    play: async () => void (await Promise.all(apis.map((a) => a.play()))),
    pause: async () => void (await Promise.all(apis.map((a) => a.pause()))),
    step: async (n) => void (await Promise.all(apis.map((a) => a.step(n)))),
    weights: (index) => api(index).weights(index),
    dispose,
  };
}
