import { errorText } from '../../core/unknown';
/**
 * Liveness of a worker: ping it every `intervalMs`. A worker busy with long work that does not
 * yield (pretraining on a loaded machine runs for minutes without reading a message) cannot answer,
 * but it still reports progress: `heard()` says it did. The worker is declared gone (terminated,
 * crashed or stuck) only when a ping stays unanswered and nothing was heard from it for a whole
 * `timeoutMs`. A dead worker answers nothing, so without this a run would look "playing" forever
 * with a frozen counter. Pure of the DOM (timers injectable).
 */
export interface WatchdogOptions {
  intervalMs?: number;
  timeoutMs?: number;
  setTimer?: (fn: () => void, ms: number) => () => void;
}

export interface Watchdog {
  /** The worker said something (a status, frames): it is alive, whether or not it answers pings. */
  heard(): void;
  stop(): void;
}

const defaultTimer = (fn: () => void, ms: number): (() => void) => {
  const id = setTimeout(fn, ms);
  return () => clearTimeout(id);
};

export function startWatchdog(ping: () => Promise<unknown>, onDead: (why: string) => void, opts: WatchdogOptions = {}): Watchdog {
  const intervalMs = opts.intervalMs ?? 2_000;
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const timer = opts.setTimer ?? defaultTimer;
  let stopped = false;
  /** Something was heard since the current silence window began. */
  let heard = false;
  let cancel: () => void = () => undefined;
  const die = (why: string): void => {
    stopped = true;
    cancel();
    onDead(why);
  };
  /** One window of `timeoutMs` for the unanswered ping: a worker heard from in it gets another. */
  const awaitAnswer = (answered: () => boolean): void => {
    heard = false;
    cancel = timer(() => {
      if (answered() || stopped) return;
      if (heard) awaitAnswer(answered);
      else die(`no answer from the worker for ${Math.round(timeoutMs / 1000)} s`);
    }, timeoutMs);
  };
  const tick = (): void => {
    if (stopped) return;
    let answered = false;
    awaitAnswer(() => answered);
    ping().then(
      () => {
        answered = true;
        cancel();
        if (!stopped) cancel = timer(tick, intervalMs);
      },
      (e: unknown) => {
        answered = true;
        if (!stopped) die(`the worker failed a call: ${errorText(e)}`);
      },
    );
  };
  cancel = timer(tick, intervalMs);
  return {
    heard() {
      heard = true;
    },
    stop() {
      stopped = true;
      cancel();
    },
  };
}
