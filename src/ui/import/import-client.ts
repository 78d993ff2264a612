/** Starts the import worker and wraps it with comlink (one per Import panel, ended with it). */
import * as Comlink from 'comlink';
import type { ImportApi } from '../../../workers/import.api';

export interface ImportWorker {
  api: Comlink.Remote<ImportApi>;
  terminate(): void;
}

export function startImportWorker(): ImportWorker {
  const worker = new Worker(new URL('../../../workers/import.worker.ts', import.meta.url), { type: 'module', name: 'import' });
  const api = Comlink.wrap<ImportApi>(worker);
  return {
    api,
    terminate() {
      api[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}
