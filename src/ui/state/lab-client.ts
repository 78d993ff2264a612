/**
 * Starts a lab worker (one run) and wraps it with comlink. A worker that reports an uncaught error
 * (or a message it cannot decode) is treated as gone: `failed` rejects with the reason, every call
 * still waiting on it rejects too (comlink alone would leave them pending forever), and
 * `onFailure` listeners hear it once.
 */
import * as Comlink from 'comlink';
import type { LabApi } from '../../../workers/lab.api';
import { WorkerStopped } from './recovery';

export interface LabWorker {
  api: Comlink.Remote<LabApi>;
  /** Called once when the worker errors out or `fail()` is called (e.g. by the watchdog). */
  onFailure(listener: (why: string) => void): void;
  /** Declare the worker dead (e.g. no answer): pending calls reject with `why`. */
  fail(why: string): void;
  terminate(): void;
}

export function startLabWorker(name: string): LabWorker {
  const worker = new Worker(new URL('../../../workers/lab.worker.ts', import.meta.url), { type: 'module', name: `lab-${name}` });
  const remote = Comlink.wrap<LabApi>(worker);
  const listeners: ((why: string) => void)[] = [];
  let failure: string | null = null;
  let rejectDead: (e: Error) => void = () => undefined;
  const dead = new Promise<never>((_, reject) => (rejectDead = reject));
  dead.catch(() => undefined);
  const fail = (why: string): void => {
    if (failure !== null) return;
    failure = why;
    rejectDead(new WorkerStopped(`lab worker ${name} stopped: ${why}`));
    for (const l of listeners) l(why);
  };
  worker.addEventListener('error', (e) => {
    e.preventDefault();
    fail(`uncaught error in the worker: ${(e.message || 'unknown error').replace(/^Uncaught /, '')}`);
  });
  worker.addEventListener('messageerror', () => fail('a message from the worker could not be decoded'));
  // Every API call races the worker's death, so a caller never waits on a dead worker.
  const api = new Proxy(remote, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof prop === 'symbol' || typeof v !== 'function') return v;
      return (...args: unknown[]) => Promise.race([(v as (...a: unknown[]) => Promise<unknown>)(...args), dead]);
    },
  });
  return {
    api,
    onFailure(l) {
      if (failure !== null) l(failure);
      else listeners.push(l);
    },
    fail,
    terminate() {
      failure ??= 'terminated';
      remote[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}
