// Pause at max speed (issue 10 §3): the worker stops at the next step boundary; a step in flight
// completes and is kept, so pausing anywhere and playing on gives bit-for-bit the frames of an
// uninterrupted run, and a Play pressed while a pause is still finishing starts no second loop.
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../config';
import type { PolicyEngine } from '../engine';
import type { MetricsFrame } from '../metrics';
import { tabularSessionDeps } from '../../../tests/support/session-deps';
import type { LabListener, LabStatus } from './types';
import { RunSession } from './session';

const config = makeConfig({ lr: 0.05, behaviorSamples: 8, rolloutBatch: 8, steps: 40 });

/** A session whose trainStep takes a real macrotask (like a WASM step) and reports when it starts. */
function session() {
  const frames: MetricsFrame[] = [];
  const statuses: LabStatus[] = [];
  let onTrain: (() => void) | null = null;
  const slow = (e: PolicyEngine): PolicyEngine =>
    new Proxy(e, {
      get(t, p) {
        if (p === 'trainStep')
          return async (...a: Parameters<PolicyEngine['trainStep']>) => {
            onTrain?.();
            await new Promise((r) => setTimeout(r, 2));
            return t.trainStep(...a);
          };
        const v = Reflect.get(t, p, t) as unknown;
        return typeof v === 'function' ? (v as () => unknown).bind(t) : v;
      },
    });
  const listener: LabListener = { frames: (_id, fs) => void frames.push(...fs), status: (s) => void statuses.push(s) };
  const s = new RunSession(
    tabularSessionDeps({ wrap: slow }),
    listener,
    config,
  );
  /** Resolves when a trainStep starts (a step is in flight) at or after step `n`. */
  const inFlight = (n: number) =>
    new Promise<void>((resolve) => {
      onTrain = () => {
        if (frames.length >= n) {
          onTrain = null;
          resolve();
        }
      };
    });
  return { s, frames, statuses, inFlight };
}

const within = <T>(p: Promise<T>, what: string, ms = 20_000): Promise<T> =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not finish in ${ms} ms`)), ms))]);

describe('RunSession pause at a step boundary', () => {
  it('a step in flight when pausing is kept; play on continues exactly like an uninterrupted run', async () => {
    const ref = session();
    await ref.s.init();
    await ref.s.step(12);
    const uninterrupted = ref.frames.map((f) => ({ step: f.step, scalars: f.scalars }));
    await ref.s.dispose();

    const { s, frames, inFlight } = session();
    await s.init();
    await s.play();
    await inFlight(3);
    const paused = await within(s.pause(), 'pause');
    expect(paused.phase).toBe('paused');
    // the step that was in flight completed and its frame came before the paused status
    expect(paused.step).toBe(frames.at(-1)?.step);
    expect(paused.step).toBeGreaterThanOrEqual(4);
    const n = frames.length;
    await new Promise((r) => setTimeout(r, 30));
    expect(frames.length).toBe(n); // idle: nothing appended after the pause resolved
    await s.step(12 - paused.step);
    expect(frames.map((f) => ({ step: f.step, scalars: f.scalars }))).toEqual(uninterrupted);
    await s.dispose();
  });

  it('Play pressed while a pause is finishing: one loop, the status stays running, a later pause is clean', async () => {
    const { s, frames, statuses, inFlight } = session();
    await s.init();
    await s.play();
    await inFlight(2);
    await within(Promise.all([s.pause(), s.play()]), 'pause + play');
    expect(s.status().phase).toBe('running');
    expect(statuses.at(-1)?.phase).toBe('running');
    await inFlight(6);
    const p = await within(s.pause(), 'second pause');
    expect(p.phase).toBe('paused');
    expect(p.step).toBe(frames.at(-1)?.step);
    // every step once, in order (two loops would still be serialized, but the pause would hang)
    expect(frames.map((f) => f.step)).toEqual(frames.map((_, i) => i + 1));
    await s.dispose();
  });

  it("a reset's new run reports no steps/s until it plays (not the old run's rate)", async () => {
    const { s, inFlight } = session();
    await s.init();
    await s.play();
    await inFlight(3);
    const paused = await within(s.pause(), 'pause');
    expect(paused.stepsPerSecond).toBeGreaterThan(0);
    expect((await s.reset()).stepsPerSecond).toBe(0);
    await s.dispose();
  });
});
