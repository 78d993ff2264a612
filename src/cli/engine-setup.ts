// The engine and base weights of a CLI run: the transformer on WASM holding the shipped base
// checkpoint when one fits the config, else a base pretrained in process; or the pure-TS tabular
// reference engine (src/engine/tabular: quick checks and tests, no onnxruntime).
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import type { Config } from '../core/config';
import type { PolicyEngine } from '../core/engine';
import type { PopulationEngine } from '../core/population';
import { policyShape, pretrainBase } from '../core/pretrain';
import { hasShippedBase, taskLabel, taskOf } from '../core/tasks/registry';
import { initParams, paramLayout } from '../model/layout';
import { createTabularEngine } from '../engine/tabular/tabular-engine';
import { TabularPopulation } from '../engine/tabular/tabular-population';
import { shippedBase } from './checkpoints';

export type EngineKind = 'wasm' | 'tabular';

export interface BaseOptions {
  /** Raw little-endian Float32 base weights. */
  base?: string;
  pretrainSteps?: number;
  pretrainLr?: number;
}

export async function createCliEngine(kind: EngineKind, cfg: Config): Promise<PolicyEngine> {
  const shape = policyShape(cfg);
  if (kind === 'tabular') return createTabularEngine(shape);
  const { createNodeEngine } = await import('../engine/node'); // the one import of the real engine
  return createNodeEngine(shape, { seed: cfg.seed });
}

/**
 * Put an engine that trained before back into the state createCliEngine gives one for `cfg`: the
 * seed's init weights (the WASM engine; an empty table on the tabular one), no optimizer moments,
 * step 0 — so that a reused engine (engine-reuse.ts) trains a cell as a fresh one does.
 */
export async function freshState(engine: PolicyEngine, kind: EngineKind, cfg: Config): Promise<void> {
  await engine.setWeights(kind === 'tabular' ? new Float32Array(0) : initParams(paramLayout(engine.shape), cfg.seed));
}

/** WASM threads of this process's engines (onnxruntime-web reads it when it starts: before the first engine). */
export async function setWasmThreads(threads: number): Promise<void> {
  const { ort } = await import('../engine/node');
  ort.env.wasm.numThreads = threads;
}

/** V8's budget for tiering up a WASM function (Node 20's V8 11.3 default, `node --v8-options`). */
const WASM_TIERING_BUDGET = 1_800_000;

/**
 * Before `isolates` threads of this process start engines (experiment --jobs): V8 compiles
 * onnxruntime's WASM module once per process and every thread's instance spends one tier-up budget
 * per function. Scaled by the thread count, a function tiers up after as much work per thread as with
 * one; unscaled, code each thread runs once (onnxruntime's start, in a function of 887 KB) exhausts
 * the budget with two and costs seconds of TurboFan CPU (docs/performance.md). Frames do not change.
 */
export function shareWasmTiering(isolates: number): void {
  if (isolates > 1) setFlagsFromString(`--wasm-tiering-budget=${isolates * WASM_TIERING_BUDGET}`);
}

/** A population of `size` policies (an ensemble: one graph call per phase for all members). */
export async function createCliPopulation(kind: EngineKind, cfg: Config, size: number): Promise<PopulationEngine> {
  const shape = policyShape(cfg);
  if (kind === 'tabular') return new TabularPopulation(shape, size);
  const { createNodePopulation } = await import('../engine/node');
  return createNodePopulation(shape, { size, seed: cfg.seed });
}

/** A --base file (raw little-endian float32, as getWeights gives them) into the engine; else an error naming the file. */
async function setBase(engine: PolicyEngine, kind: EngineKind, file: string): Promise<void> {
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch (e) {
    throw new Error(`--base ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  const what = `raw little-endian float32 weights of the ${kind} engine's policy`;
  if (buf.byteLength === 0 || buf.byteLength % 4 !== 0) throw new Error(`--base ${file}: ${buf.byteLength} bytes is no whole number of float32 values (${what})`);
  try {
    await engine.setWeights(new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength)));
  } catch (e) {
    throw new Error(`--base ${file}: not ${what}: ${(e as Error).message}`);
  }
}

/** Put the base weights into a fresh engine; returns where they came from. */
export async function loadBase(engine: PolicyEngine, kind: EngineKind, cfg: Config, o: BaseOptions = {}): Promise<string> {
  if (o.base) {
    await setBase(engine, kind, o.base);
    return `base weights: ${o.base}`;
  }
  const shipped = !hasShippedBase(cfg) ? `a custom task (${taskLabel(cfg)}) has no shipped checkpoint` : kind === 'wasm' && o.pretrainSteps === undefined ? shippedBase(cfg.task, engine.shape, cfg.temperature) : 'pretrain asked for';
  if (typeof shipped !== 'string') {
    await engine.setWeights(shipped.weights);
    return `base weights: ${shipped.file}`;
  }
  const steps = o.pretrainSteps ?? 400;
  const lr = o.pretrainLr ?? (kind === 'tabular' ? 0.05 : 3e-3);
  const losses = await pretrainBase(engine, taskOf(cfg), cfg.seed, { steps, batch: 64, lr, temperature: cfg.temperature });
  await engine.setWeights(await engine.getWeights()); // fresh optimizer state for RL
  return `pretrained the ${taskLabel(cfg)} base in process (${shipped}): ${steps} SFT steps, loss ${losses[0]?.toFixed(3)} → ${losses.at(-1)?.toFixed(3)}`;
}
