import { errorText } from '../../core/unknown';
/**
 * Liveness of a worker: ping it every `intervalMs`; a ping unanswered after `timeoutMs` means the
 * worker is gone (terminated, crashed, or stuck). A dead worker answers nothing, so without this a
 * run would look "playing" forever with a frozen counter. Pure of the DOM (timers injectable).
 */
export interface WatchdogOptions {
  intervalMs?: number;
  timeoutMs?: number;
  setTimer?: (fn: () => void, ms: number) => () => void;
}

export interface Watchdog {
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
  let cancel: () => void = () => undefined;
  const tick = (): void => {
    if (stopped) return;
    let answered = false;
    cancel = timer(() => {
      if (answered || stopped) return;
      stopped = true;
      onDead(`no answer from the worker for ${Math.round(timeoutMs / 1000)} s`);
    }, timeoutMs);
    ping().then(
      () => {
        answered = true;
        cancel();
        if (!stopped) cancel = timer(tick, intervalMs);
      },
      (e: unknown) => {
        answered = true;
        cancel();
        if (stopped) return;
        stopped = true;
        onDead(`the worker failed a call: ${errorText(e)}`);
      },
    );
  };
  cancel = timer(tick, intervalMs);
  return {
    stop() {
      stopped = true;
      cancel();
    },
  };
}
