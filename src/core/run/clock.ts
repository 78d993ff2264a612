/**
 * The time a session sees: `now` paces status reports and measures steps/s, `sleep` spaces the
 * steps while playing. Injected, so that the tests and the CLI run sessions without waiting.
 */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise<void>((r) => setTimeout(r, ms)),
};

/** The system's time, no waiting between steps (tests, CLI). */
export const eagerClock: Clock = { now: systemClock.now, sleep: async () => undefined };

/**
 * A long computation's pause: call it often; once `sliceMs` have passed since it last gave the event
 * loop back, it gives it back (a timer's turn), so that what shares the thread (a follower, a server)
 * goes on between the slices.
 */
export function slicer(sliceMs: number, clock: Clock = systemClock): () => Promise<void> {
  let since = clock.now();
  return async () => {
    if (clock.now() - since < sliceMs) return;
    await clock.sleep(0);
    since = clock.now();
  };
}
