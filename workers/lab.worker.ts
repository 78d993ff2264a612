/**
 * The lab worker: a comlink adapter over one run session (src/core/run/session.ts). It supplies the
 * engine (onnxruntime-web, WebGPU first, WASM fallback) and the base (workers/base.ts).
 */
import * as Comlink from 'comlink';
import { RunSession } from '../src/core/run/session';
import { createBrowserEngine } from '../src/engine/browser';
import { BASE_SEED } from '../src/core/pretrain';
import { loadBase } from './base';
import type { LabApi, LabInit, LabListener } from './lab.api';

let session: RunSession | null = null;

function need(): RunSession {
  if (!session) throw new Error('lab worker: call init() first');
  return session;
}

/** The worker's own calls: every other name is a control of the session, forwarded to it as it is. */
const own: Pick<LabApi, 'init' | 'dispose'> = {
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
  async dispose() {
    await session?.dispose();
    session = null;
  },
};

const api = new Proxy(own, {
  get(target, name) {
    if (typeof name !== 'string' || name in target) return Reflect.get(target, name) as unknown;
    return async (...args: unknown[]) => {
      const control = (need() as unknown as Record<string, unknown>)[name];
      if (typeof control !== 'function') throw new Error(`lab worker: no control ${name}`);
      return (control as (...a: unknown[]) => unknown).apply(session, args);
    };
  },
}) as LabApi;

// A rejection nobody handles leaves the run in an unknown state: rethrow it as an uncaught error,
// which reaches the page as the Worker's 'error' event (the page then replaces this worker).
self.addEventListener('unhandledrejection', (e) => {
  const reason: unknown = e.reason;
  setTimeout(() => {
    throw reason instanceof Error ? reason : new Error(String(reason));
  });
});

// ORT's WASM pthreads are module workers named 'em-pthread' (of ORT's own chunk, loaded by
// src/engine/ort-builds.ts): should one ever run this chunk, only the real worker exposes the API.
if (!self.name.startsWith('em-pthread')) Comlink.expose(api);
