// What a RunSession / ExperimentSession needs in the Node tests: the tabular reference engine, a base
// pretrained briefly in process, no waiting between steps.
import type { PolicyEngine } from '../../src/core/engine';
import { pretrainBase } from '../../src/core/pretrain';
import { taskOf } from '../../src/core/tasks/registry';
import type { MetricsFrame } from '../../src/core/metrics';
import { eagerClock } from '../../src/core/run/clock';
import type { SessionDeps } from '../../src/core/run/deps';
import type { LabListener, LabStatus } from '../../src/core/run/types';
import { createTabularEngine } from '../../src/engine/tabular/tabular-engine';

export interface TestDepsOptions {
  /** Wrap each engine (slow it down, inject a fault). */
  wrap?: (engine: PolicyEngine) => PolicyEngine;
  /** The base's source as the session reports it. */
  source?: string;
  /** Called at each base load with the session's progress callback. */
  onLoad?: (progress: (message: string) => void) => void;
}

export function tabularSessionDeps(o: TestDepsOptions = {}): SessionDeps {
  return {
    createEngine: async (shape) => (o.wrap ?? ((e) => e))(createTabularEngine(shape)),
    loadBase: async (engine, c, progress) => {
      o.onLoad?.(progress);
      await pretrainBase(engine, taskOf(c), 0, { steps: 10, batch: 32, lr: 0.05, temperature: c.temperature });
      return { weights: await engine.getWeights(), source: o.source ?? 'test' };
    },
    clock: eagerClock,
  };
}

/** A listener that keeps the current run's frames (a new run id starts over) and every status. */
export function recorder() {
  const frames: MetricsFrame[] = [];
  const statuses: LabStatus[] = [];
  let runId = -1;
  const listener: LabListener = {
    frames(id, fs) {
      if (id !== runId) frames.length = 0;
      runId = id;
      frames.push(...fs);
    },
    status: (s) => void statuses.push(s),
  };
  return { frames, statuses, listener };
}
