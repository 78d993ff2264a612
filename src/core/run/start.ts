/**
 * How a session's run starts on an engine: from the task's base, or continued from other weights
 * (a fork, a cell continued from stored weights), the one rule for both sessions.
 */
import type { Config } from '../config';
import type { PolicyEngine } from '../engine';
import { Run } from '../loop';

/**
 * A run whose frozen base (OPD teacher, KL reference) is `base`; the trainer starts at `trainer`
 * when given (fresh optimizer moments and random streams; the SFT phase already happened), else at
 * the base itself (the SFT phase runs when configured).
 */
export async function startRun(engine: PolicyEngine, config: Config, base: Float32Array, trainer?: Float32Array): Promise<Run> {
  await engine.setWeights(base);
  if (!trainer) return Run.create(engine, config);
  const frozen = engine.snapshot();
  await engine.setWeights(trainer);
  return Run.create(engine, { ...config, sftGoldSteps: 0 }, { base: frozen });
}
