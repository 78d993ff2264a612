/**
 * The base weights a worker's runs start from (lab and experiment workers): the task's shipped
 * checkpoint when one fits the model shape (public/checkpoints/manifest.json, from `npm run
 * pretrain`; src/model/checkpoint.ts holds the one fit rule), else pretrained in the worker with the
 * core's routine, and the source says which.
 */
import type { Config } from '../src/core/config';
import type { PolicyEngine } from '../src/core/engine';
import { BASE_SEED, pretrainBase } from '../src/core/pretrain';
import { hasShippedBase, taskLabel, taskOf } from '../src/core/tasks/registry';
import { checkpointMismatch, decodeCheckpoint, type CheckpointEntry, type Manifest } from '../src/model/checkpoint';
import { initParams, paramLayout } from '../src/model/layout';
import type { BaseWeights } from '../src/core/run/deps';
import { errorText } from '../src/core/unknown';

/** Where checkpoints are fetched from, and an explicit pretraining budget (URL `pretrain=N`). */
export interface BaseSource {
  baseUrl: string;
  pretrainSteps?: number;
}

export const DEFAULT_PRETRAIN_STEPS = 400;

async function fetchJson(url: string): Promise<unknown> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

/**
 * The shipped base for this task when it fits (src/model/checkpoint.ts: the one rule the CLI, the
 * fidelity suite and the lab share), else a reason why not.
 */
async function shippedBase(init: BaseSource, engine: PolicyEngine, config: Config): Promise<BaseWeights | string> {
  if (!hasShippedBase(config)) return `a custom task (${taskLabel(config)}) has no shipped checkpoint`;
  const dir = new URL('checkpoints/', init.baseUrl);
  let entry: CheckpointEntry | undefined;
  try {
    entry = ((await fetchJson(new URL('manifest.json', dir).href)) as Manifest)[config.task];
  } catch (e) {
    return `no checkpoint manifest (${errorText(e)})`;
  }
  if (!entry) return `no shipped checkpoint for ${config.task}`;
  const mismatch = checkpointMismatch(entry, engine.shape, config.temperature);
  if (mismatch) return mismatch;
  try {
    const res = await fetch(new URL(entry.file, dir).href);
    if (!res.ok) return `checkpoint ${entry.file}: HTTP ${res.status}`;
    return { weights: decodeCheckpoint(await res.arrayBuffer(), entry), source: `shipped checkpoint checkpoints/${entry.file}` };
  } catch (e) {
    return `checkpoint ${entry.file} unusable: ${errorText(e)}`;
  }
}

export async function loadBase(init: BaseSource, engine: PolicyEngine, config: Config, progress: (m: string) => void): Promise<BaseWeights> {
  // An explicit pretraining budget (URL `pretrain=N`) always pretrains, as the CLI's --pretrain-steps.
  const shipped = init.pretrainSteps === undefined ? await shippedBase(init, engine, config) : 'pretraining budget set in the URL';
  if (typeof shipped !== 'string') return shipped;
  const why = shipped;
  const steps = init.pretrainSteps ?? DEFAULT_PRETRAIN_STEPS;
  progress(`${why}: pretraining the base in the worker (0/${steps})…`);
  let last = 0;
  // From the init of BASE_SEED, as `npm run pretrain` on its fresh engine: the engine handed in may
  // hold a run already (a restored run before "Start fresh", the previous task's base in an
  // experiment), and pretraining from those weights gave another base in every browser profile.
  await engine.setWeights(initParams(paramLayout(engine.shape), BASE_SEED));
  await pretrainBase(engine, taskOf(config), BASE_SEED, {
    steps,
    batch: 64,
    lr: 3e-3,
    temperature: config.temperature,
    onStep: (s, loss) => {
      const now = performance.now();
      if (now - last > 250 || s + 1 === steps) {
        last = now;
        progress(`${why}: pretraining the base in the worker (${s + 1}/${steps}, loss ${loss.toFixed(3)})…`);
      }
    },
  });
  return { weights: await engine.getWeights(), source: `pretrained in the worker (${steps} SFT steps; ${why})` };
}
