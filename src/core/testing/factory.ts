// Engine factory for tests: a tabular reference engine holding a pretrained base, cached per task.
import type { Config } from '../config';
import { pretrainBase, policyShape } from '../pretrain';
import { TASKS } from '../tasks/index';
import { createTabularEngine, type TabularOptions } from './tabular-engine';
import type { EngineFactory } from './fidelity';

export function tabularFactory(o: TabularOptions & { pretrainSteps?: number; pretrainLr?: number } = {}): EngineFactory {
  const cache = new Map<string, Float32Array>();
  return async (cfg: Config) => {
    const engine = createTabularEngine(policyShape(cfg), o);
    let w = cache.get(cfg.task);
    if (!w) {
      const tmp = createTabularEngine(policyShape(cfg));
      await pretrainBase(tmp, TASKS[cfg.task], 0, { steps: o.pretrainSteps ?? 400, batch: 64, lr: o.pretrainLr ?? 0.05, temperature: cfg.temperature });
      w = await tmp.getWeights();
      cache.set(cfg.task, w);
    }
    await engine.setWeights(w);
    return engine;
  };
}
