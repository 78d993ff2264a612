// Transport defects found in a workshop (issue 10 §1): closing a compare must not renumber run A,
// and a run paused on a non-finite metric must not train on. Issue 35: several steps streamed in one
// batch (a run played at max speed) each bring their own traces.
import { describe, expect, it } from 'vitest';
import { makeConfig, type Config } from '../config';
import type { PolicyEngine } from '../engine';
import type { MetricsFrame, SampleTrace } from '../metrics';
import type { CoalescerOptions } from './frames';
import { recorder, tabularSessionDeps } from '../../../tests/support/session-deps';
import { RunSession } from './session';

const cfg = (patch: Partial<Config> = {}) => makeConfig({ lr: 0.05, behaviorSamples: 8, rolloutBatch: 8, steps: 20, ...patch });

function session(config: Config, wrap: (e: PolicyEngine) => PolicyEngine = (e) => e) {
  const { frames, statuses, listener } = recorder();
  const s = new RunSession(
    tabularSessionDeps({ wrap }),
    listener,
    config,
  );
  return { s, frames, statuses };
}

describe('RunSession transport', () => {
  it('closing a compare (refork null) keeps the run where it is: counter, next frame, done', async () => {
    const { s, frames } = session(cfg());
    await s.init();
    await s.step(10);
    await s.refork(await s.forkPoint()); // Fork
    await s.step(2); // → →
    expect((await s.reset()).step).toBe(10); // r: back to the fork point
    await s.step(1); // →
    expect(frames.map((f) => f.step)).toEqual([11]);
    const closed = await s.refork(null); // Close compare
    expect(closed.step).toBe(11);
    expect((await s.step(1)).step).toBe(12);
    expect(frames.map((f) => f.step)).toEqual([11, 12]);
    // and the run still ends at `steps`
    const end = await s.step(20);
    expect(end.step).toBe(20);
    expect(frames.at(-1)?.step).toBe(20);
    // the next reset starts from step 0
    expect((await s.reset()).step).toBe(0);
    await s.dispose();
  });

  it('closing without a reset keeps the counter on the last frame', async () => {
    const { s, frames } = session(cfg());
    await s.init();
    await s.step(10);
    await s.refork(await s.forkPoint());
    await s.step(3);
    expect((await s.refork(null)).step).toBe(13);
    await s.step(1);
    expect(frames.map((f) => f.step)).toEqual([11, 12, 13, 14]);
    await s.dispose();
  });

  it('after a non-finite pause, play and step refuse until a reset', async () => {
    let poison = true;
    const nanLoss = (e: PolicyEngine): PolicyEngine =>
      new Proxy(e, {
        get(t, p) {
          if (p === 'trainStep') return async (...a: Parameters<PolicyEngine['trainStep']>) => ({ ...(await t.trainStep(...a)), ...(poison ? { loss: NaN } : {}) });
          const v = Reflect.get(t, p, t) as unknown;
          return typeof v === 'function' ? (v as () => unknown).bind(t) : v;
        },
      });
    const { s, frames, statuses } = session(cfg(), nanLoss);
    await s.init();
    const st = await s.step(3);
    expect(st.phase).toBe('paused');
    expect(st.needsReset).toBe(true);
    expect(frames.length).toBe(1);
    poison = false; // even if the next step were finite, the weights are not trusted
    const again = await s.step(1);
    expect(again.step).toBe(1);
    expect(again.message).toMatch(/reset/i);
    await s.play();
    expect(statuses.at(-1)?.phase).toBe('paused');
    expect(frames.length).toBe(1);
    const fresh = await s.reset();
    expect(fresh.needsReset).toBe(false);
    expect((await s.step(2)).step).toBe(2);
    await s.dispose();
  });

  it('several steps in one batch: every step\'s traces come with its frame, as when each step comes alone', async () => {
    const batches: { steps: number[]; traces: SampleTrace[][] }[] = [];
    const run = async (coalescer: CoalescerOptions, steps: number) => {
      const got: { frames: MetricsFrame[]; traces: SampleTrace[][] } = { frames: [], traces: [] };
      const listener = {
        frames: (_id: number, fs: MetricsFrame[], ts: SampleTrace[][]) => {
          batches.push({ steps: fs.map((f) => f.step), traces: ts });
          got.frames.push(...fs);
          got.traces.push(...ts);
        },
        status: () => undefined,
      };
      const s = new RunSession({ ...tabularSessionDeps(), coalescer }, listener, cfg({ steps }));
      await s.init();
      await s.step(steps);
      await s.dispose();
      return got;
    };
    // a batch slot that never comes on its own: the first step goes out at once, the rest at the flush
    const batched = await run({ now: () => 0, schedule: () => () => undefined }, 6);
    expect(batches.map((b) => b.steps)).toEqual([[1], [2, 3, 4, 5, 6]]);
    batches.length = 0;
    const alone = await run({ maxPerSecond: Infinity }, 6);
    expect(batches.map((b) => b.steps)).toEqual([[1], [2], [3], [4], [5], [6]]);
    // same seed, same frames however they were batched (the wall-clock perf aside)
    const noPerf = (fs: MetricsFrame[]) => fs.map(({ perf: _perf, ...f }) => f);
    expect(noPerf(batched.frames)).toEqual(noPerf(alone.frames));
    expect(batched.traces.length).toBe(6);
    for (const t of batched.traces) expect(t.length).toBeGreaterThan(0);
    expect(batched.traces).toEqual(alone.traces);
    // each step's own traces (the steps differ: a batch does not repeat its last step's)
    expect(batched.traces[1]).not.toEqual(batched.traces[5]);
  });
});
