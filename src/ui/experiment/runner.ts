/**
 * Where experiment cells train: ONE function, so that moving to P seeds in one graph later is a
 * local change. Today: one worker per variant (cells of different variants may differ in task or
 * model shape), training that variant's seeds in lockstep (src/core/run/population.ts).
 */
import * as Comlink from 'comlink';
import type { CellFrames, CellInit, ExperimentApi, ExperimentListener, GroupStatus } from '../../../workers/experiment.api';
import type { BackendPreference } from '../../../workers/lab.api';

export interface CellRunnerOptions {
  prefer: BackendPreference;
  baseUrl: string;
  pretrainSteps?: number;
}

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

/** `variantOf(cell)` groups cells; each group gets its worker. */
export async function startCellRunner(cells: (CellInit & { variant: number })[], opts: CellRunnerOptions, listener: CellRunnerListener): Promise<CellRunner> {
  const byVariant = new Map<number, (CellInit & { variant: number })[]>();
  for (const c of cells) byVariant.set(c.variant, [...(byVariant.get(c.variant) ?? []), c]);
  const groups = [...byVariant.values()];
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
        const init = { cells: g.map(({ variant: _v, ...c }) => c), prefer: opts.prefer, baseUrl: opts.baseUrl, ...(opts.pretrainSteps !== undefined ? { pretrainSteps: opts.pretrainSteps } : {}) };
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
