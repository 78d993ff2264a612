/**
 * The lab worker: one training run per worker (see lab.api.ts). The engine is onnxruntime-web
 * (WebGPU first, WASM fallback); the base is the task's shipped checkpoint when one fits the model
 * shape (public/checkpoints/manifest.json, from `npm run pretrain`), else it is pretrained here with
 * the core's routine (and the status says so).
 */
import * as Comlink from 'comlink';
import type { Config } from '../src/core/config';
import type { PolicyEngine } from '../src/core/engine';
import { pretrainBase } from '../src/core/pretrain';
import { TASKS } from '../src/core/tasks/index';
import { createBrowserEngine } from '../src/engine/browser';
import { checkpointMismatch, decodeCheckpoint, type CheckpointEntry, type Manifest } from '../src/model/checkpoint';
import type { LabApi, LabInit, LabListener } from './lab.api';
import { LabSession, errorText, type BaseWeights } from './lab-session';

/** Seed of the base: the same for every run seed (a shipped checkpoint is one fixed model too). */
export const BASE_SEED = 0;
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
async function shippedBase(init: LabInit, engine: PolicyEngine, config: Config): Promise<BaseWeights | string> {
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

async function loadBase(init: LabInit, engine: PolicyEngine, config: Config, progress: (m: string) => void): Promise<BaseWeights> {
  // An explicit pretraining budget (URL `pretrain=N`) always pretrains, as the CLI's --pretrain-steps.
  const shipped = init.pretrainSteps === undefined ? await shippedBase(init, engine, config) : 'pretraining budget set in the URL';
  if (typeof shipped !== 'string') return shipped;
  const why = shipped;
  const steps = init.pretrainSteps ?? DEFAULT_PRETRAIN_STEPS;
  progress(`${why}: pretraining the base in the worker (0/${steps})…`);
  let last = 0;
  await pretrainBase(engine, TASKS[config.task], BASE_SEED, {
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

let session: LabSession | null = null;

function need(): LabSession {
  if (!session) throw new Error('lab worker: call init() first');
  return session;
}

const api: LabApi = {
  async init(init: LabInit, listener: LabListener) {
    if (session) await session.dispose();
    session = new LabSession(
      {
        createEngine: (shape) => createBrowserEngine(shape, { prefer: init.prefer, seed: BASE_SEED, numThreads: init.numThreads }),
        loadBase: (engine, config, progress) => loadBase(init, engine, config, progress),
      },
      listener,
      init.config,
    );
    return session.init(init.fork, init.note);
  },
  play: () => need().play(),
  pause: () => need().pause(),
  step: (n) => need().step(n),
  reset: (config) => need().reset(config),
  reseed: (seed) => need().reseed(seed),
  setSpeed: async (s) => need().setSpeed(s),
  setPauseAt: async (s) => need().setPauseAt(s),
  setConfig: (patch) => need().setConfig(patch),
  forkPoint: () => need().forkPoint(),
  refork: (point) => need().refork(point),
  status: async () => need().status(),
  async dispose() {
    await session?.dispose();
    session = null;
  },
};

// A rejection nobody handles leaves the run in an unknown state: rethrow it as an uncaught error,
// which reaches the page as the Worker's 'error' event (the page then replaces this worker).
self.addEventListener('unhandledrejection', (e) => {
  const reason: unknown = e.reason;
  setTimeout(() => {
    throw reason instanceof Error ? reason : new Error(String(reason));
  });
});

// ORT's bundled build starts its WASM pthreads as module workers of *this* chunk
// (new Worker(import.meta.url, { name: 'em-pthread' })): only the real worker exposes the API.
if (!self.name.startsWith('em-pthread')) Comlink.expose(api);
