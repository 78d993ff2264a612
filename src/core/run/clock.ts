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
