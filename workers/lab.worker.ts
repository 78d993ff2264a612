/**
 * The lab worker: one training run per worker (see lab.api.ts). The engine is onnxruntime-web
 * (WebGPU first, WASM fallback); the base is the task's shipped checkpoint when one fits the model
 * shape, else it is pretrained here with the core's routine (and the status says so).
 */
import * as Comlink from 'comlink';
import type { Config } from '../src/core/config';
import type { PolicyEngine } from '../src/core/engine';
import { pretrainBase } from '../src/core/pretrain';
import { TASKS } from '../src/core/tasks/index';
import { createBrowserEngine } from '../src/engine/browser';
import type { LabApi, LabInit, LabListener } from './lab.api';
import { LabSession, errorText, type BaseWeights } from './lab-session';

/** Seed of the base: the same for every run seed (a shipped checkpoint is one fixed model too). */
export const BASE_SEED = 0;
export const DEFAULT_PRETRAIN_STEPS = 400;

async function fetchCheckpoint(url: string, expected: number): Promise<Float32Array | string> {
  try {
    const res = await fetch(url);
    if (!res.ok) return `no checkpoint at ${url} (HTTP ${res.status})`;
    const buf = await res.arrayBuffer();
    if (buf.byteLength !== expected * 4) return `checkpoint ${url} has ${buf.byteLength / 4} values, this model needs ${expected}`;
    return new Float32Array(buf);
  } catch (e) {
    return `checkpoint ${url} unreadable: ${errorText(e)}`;
  }
}

async function loadBase(init: LabInit, engine: PolicyEngine, config: Config, progress: (m: string) => void): Promise<BaseWeights> {
  const expected = (await engine.getWeights()).length;
  const url = new URL(`checkpoints/${config.task}.bin`, init.baseUrl).href;
  const got = await fetchCheckpoint(url, expected);
  if (typeof got !== 'string') return { weights: got, source: `shipped checkpoint checkpoints/${config.task}.bin` };
  const steps = init.pretrainSteps ?? DEFAULT_PRETRAIN_STEPS;
  const why = got.startsWith('no checkpoint') ? `no shipped checkpoint for ${config.task}` : got;
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
    return session.init(init.fork);
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
  status: async () => need().status(),
  async dispose() {
    await session?.dispose();
    session = null;
  },
};

// ORT's bundled build starts its WASM pthreads as module workers of *this* chunk
// (new Worker(import.meta.url, { name: 'em-pthread' })): only the real worker exposes the API.
if (!self.name.startsWith('em-pthread')) Comlink.expose(api);
