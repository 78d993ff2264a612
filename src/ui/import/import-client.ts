/**
 * Starts the import worker and wraps it with comlink (one per Import panel, ended with it). Every
 * call goes through `call`, which watches the regex budget (src/io/regex/guard-shared.ts): a match
 * past its deadline ends the worker, the call fails with the budget message, and the next call
 * starts a fresh worker.
 */
import * as Comlink from 'comlink';
import type { ImportApi } from '../../../workers/import.api';
import { GUARD_BYTES, overBudget } from '../../io/regex/guard-shared';

export interface ImportWorker {
  call<T>(f: (api: Comlink.Remote<ImportApi>) => Promise<T>): Promise<T>;
  terminate(): void;
}

const WATCH_MS = 100;

interface Live {
  worker: Worker;
  api: Comlink.Remote<ImportApi>;
  sab: SharedArrayBuffer | null;
}

function start(): Live {
  const worker = new Worker(new URL('../../../workers/import.worker.ts', import.meta.url), { type: 'module', name: 'import' });
  const api = Comlink.wrap<ImportApi>(worker);
  // shared memory needs a cross-origin isolated page (the lab's COOP/COEP headers)
  const sab = globalThis.crossOriginIsolated ? new SharedArrayBuffer(GUARD_BYTES) : null;
  if (sab) void api.guard(sab);
  return { worker, api, sab };
}

function end(live: Live): void {
  live.api[Comlink.releaseProxy]();
  live.worker.terminate();
}

export function startImportWorker(): ImportWorker {
  let live: Live | null = null;
  return {
    call<T>(f: (api: Comlink.Remote<ImportApi>) => Promise<T>): Promise<T> {
      const now = (live ??= start());
      return new Promise<T>((resolve, reject) => {
        const watch = now.sab
          ? setInterval(() => {
              const why = overBudget(now.sab!);
              if (!why) return;
              clearInterval(watch);
              end(now);
              if (live === now) live = null;
              reject(new Error(why));
            }, WATCH_MS)
          : 0;
        f(now.api).then(resolve, reject).finally(() => clearInterval(watch));
      });
    },
    terminate() {
      if (live) end(live);
      live = null;
    },
  };
}
