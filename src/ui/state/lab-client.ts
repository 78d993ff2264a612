/** Starts a lab worker (one run) and wraps it with comlink. */
import * as Comlink from 'comlink';
import type { LabApi } from '../../../workers/lab.api';

export interface LabWorker {
  api: Comlink.Remote<LabApi>;
  terminate(): void;
}

export function startLabWorker(name: string): LabWorker {
  const worker = new Worker(new URL('../../../workers/lab.worker.ts', import.meta.url), { type: 'module', name: `lab-${name}` });
  const api = Comlink.wrap<LabApi>(worker);
  return {
    api,
    terminate() {
      api[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}
