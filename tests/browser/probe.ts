/**
 * Page script of the engine probe (test harness). Exposes `window.probe` for Playwright:
 * every `run` spawns a fresh probe worker (clean ORT state), runs the request, terminates it.
 */
import * as Comlink from 'comlink';
import type { ProbeApi, ProbeEnv, ProbeRunRequest, ProbeRunResult } from './workers/probe.api';
import { fromBase64, matmulAddModel, toBase64 } from './models';

/** `ProbeRunRequest` with the model as base64 (Playwright-serializable). */
export type ProbeRunRequestJson = Omit<ProbeRunRequest, 'model'> & { model: string };

export interface ProbePage {
  env(): Promise<ProbeEnv>;
  run(req: ProbeRunRequestJson): Promise<ProbeRunResult>;
  /** Models built in the page itself (proves onnx-proto works in the Vite build). */
  models: { matmulAdd(n?: number): string };
}

async function withWorker<T>(fn: (api: Comlink.Remote<ProbeApi>) => Promise<T>): Promise<T> {
  const worker = new Worker(new URL('./workers/probe.worker.ts', import.meta.url), {
    type: 'module',
    name: 'probe',
  });
  const api = Comlink.wrap<ProbeApi>(worker);
  try {
    return await fn(api);
  } finally {
    api[Comlink.releaseProxy]();
    worker.terminate();
  }
}

const probe: ProbePage = {
  env: () => withWorker((api) => api.env()),
  run: (req) => withWorker((api) => api.run({ ...req, model: fromBase64(req.model) })),
  models: { matmulAdd: (n?: number) => toBase64(matmulAddModel(n)) },
};

declare global {
  interface Window {
    probe: ProbePage;
  }
}

window.probe = probe;
const status = document.getElementById('status');
if (status) status.textContent = `ready (crossOriginIsolated=${String(crossOriginIsolated)})`;
document.body.dataset.ready = '1';
