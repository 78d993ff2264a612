/**
 * The experiment worker: a comlink adapter over a population session (src/core/run/population.ts):
 * one variant's seeds trained in lockstep as one population on the chosen backend. Same engine and
 * base rules as the lab worker.
 */
import * as Comlink from 'comlink';
import { PopulationSession } from '../src/core/run/population';
import { createBrowserEngine, createBrowserPopulation, defaultWasmThreads } from '../src/engine/browser';
import { BASE_SEED } from '../src/core/pretrain';
import { loadBase } from './base';
import type { ExperimentApi, ExperimentInit, ExperimentListener } from './experiment.api';

let session: PopulationSession | null = null;

function need(): PopulationSession {
  if (!session) throw new Error('experiment worker: call init() first');
  return session;
}

const api: ExperimentApi = {
  async init(init: ExperimentInit, listener: ExperimentListener) {
    if (session) await session.dispose();
    // the runner's share of the cores, never more than this page may use (cross-origin isolation)
    const numThreads = Math.min(init.numThreads ?? Infinity, defaultWasmThreads());
    session = new PopulationSession(
      {
        createEngine: (shape) => createBrowserEngine(shape, { prefer: init.prefer, seed: BASE_SEED, numThreads }),
        // the variant's seeds as one population (one graph of P members), probed at that size
        createPopulation: (shape, size) =>
          createBrowserPopulation(shape, { prefer: init.prefer, seed: BASE_SEED, numThreads, size, probeBatch: init.cells[0]?.config.rolloutBatch }),
        loadBase: (engine, config, progress) => loadBase(init, engine, config, progress),
      },
      listener,
    );
    return session.init(init.cells);
  },
  play: () => need().play(),
  pause: () => need().pause(),
  step: (n) => need().step(n),
  weights: async (index) => {
    const w = await need().weights(index);
    const data = new Float32Array(w.data); // a copy of our own to hand over without copying again
    return Comlink.transfer({ step: w.step, data }, [data.buffer]);
  },
  traces: async (index) => need().traces(index),
  status: async () => need().status(),
  async dispose() {
    await session?.dispose();
    session = null;
  },
};

// ORT's WASM pthreads are module workers named 'em-pthread' (of ORT's own chunk, loaded by
// src/engine/ort-builds.ts): should one ever run this chunk, only the real worker exposes the API.
if (!self.name.startsWith('em-pthread')) Comlink.expose(api);
