/**
 * What a session is given by whoever runs it (the lab and experiment workers, the CLI, the tests):
 * an engine factory, a base loader and a clock. The session itself knows nothing of the browser or
 * of onnxruntime.
 */
import type { Config } from '../config';
import type { PolicyEngine, PolicyShape } from '../engine';
import { policyShape } from '../pretrain';
import type { Clock } from './clock';
import type { CoalescerOptions } from './frames';

export interface BaseWeights {
  weights: Float32Array;
  /** e.g. "shipped checkpoint checkpoints/strategies.bin" or "pretrained in the worker (400 steps)". */
  source: string;
}

/** Which base a config trains from: runs whose keys are equal share one (task, spec, model shape, temperature). */
export function baseKey(config: Config): string {
  return JSON.stringify([config.task, config.taskSpec, policyShape(config), config.temperature]);
}

export interface SessionDeps {
  createEngine(shape: PolicyShape): Promise<PolicyEngine>;
  /** The base weights for a task and shape (checkpoint or pretraining); may report progress. */
  loadBase(engine: PolicyEngine, config: Config, progress: (message: string) => void): Promise<BaseWeights>;
  coalescer?: CoalescerOptions;
  /** Default systemClock (real waits between steps while playing at a set speed). */
  clock?: Clock;
}
