/**
 * The lab worker: a comlink adapter over one run session (src/core/run/session.ts). It supplies the
 * engine (onnxruntime-web, WebGPU first, WASM fallback) and the base (workers/base.ts).
 */
import * as Comlink from 'comlink';
import { RunSession } from '../src/core/run/session';
import { createBrowserEngine } from '../src/engine/browser';
import { BASE_SEED, loadBase } from './base';
import type { LabApi, LabInit, LabListener } from './lab.api';

let session: RunSession | null = null;

function need(): RunSession {
  if (!session) throw new Error('lab worker: call init() first');
  return session;
}

const api: LabApi = {
  async init(init: LabInit, listener: LabListener) {
    if (session) await session.dispose();
    session = new RunSession(
      {
        createEngine: (shape) => createBrowserEngine(shape, { prefer: init.prefer, seed: BASE_SEED, numThreads: init.numThreads, probeBatch: init.config.rolloutBatch, reason: init.backendReason }),
        loadBase: (engine, config, progress) => loadBase(init, engine, config, progress),
      },
      listener,
      init.config,
    );
    return session.init(init.fork, init.note, init.resume);
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
  snapshot: () => need().snapshot(),
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
