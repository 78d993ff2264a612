import { scaled } from '../../../tests/support/speed';
import { describe, expect, it } from 'vitest';
import { makeConfig, type Config } from '../config';
import type { PolicyEngine } from '../engine';
import type { MetricsFrame } from '../metrics';
import { recorder, tabularSessionDeps } from '../../../tests/support/session-deps';
import { nonFinite } from '../metrics';
import { RunSession } from './session';

const cfg = (patch: Partial<Config> = {}) => makeConfig({ lr: 0.05, behaviorSamples: 8, rolloutBatch: 8, steps: 50, ...patch });


function session(config: Config, rec = recorder(), wrap: (e: PolicyEngine) => PolicyEngine = (e) => e) {
  let loads = 0;
  const s = new RunSession(
    tabularSessionDeps({ wrap, onLoad: (progress) => {
        loads++;
        progress('pretraining');
      } }),
    rec.listener,
    config,
  );
  return { s, rec, loads: () => loads };
}

const scalars = (fs: MetricsFrame[]) => fs.map((f) => f.scalars);

describe('RunSession', () => {
  it('steps, streams every frame in order and reports its backend', async () => {
    const { s, rec } = session(cfg());
    const st = await s.init();
    expect(st.phase).toBe('ready');
    expect(st.backend).toBe('tabular');
    expect(rec.statuses.some((x) => x.phase === 'pretraining')).toBe(true);
    const after = await s.step(3);
    expect(after.step).toBe(3);
    expect(rec.frames.map((f) => f.step)).toEqual([1, 2, 3]);
    expect(rec.frames[0].scalars['support/token_entropy']).toBeGreaterThan(0);
    await s.dispose();
  });

  it('applies a patch at the next step and records it on the timeline; restart keys are refused', async () => {
    const { s, rec } = session(cfg());
    await s.init();
    await s.step(2);
    expect(await s.setConfig({ clipHigh: 0.35 })).toBeNull();
    expect(await s.setConfig({ clipHigh: -1 })).toMatch(/clipHigh/);
    expect(await s.setConfig({ seed: 4 })).toMatch(/reset/);
    const st = await s.step(1);
    expect(rec.frames[2].changes).toEqual({ clipHigh: 0.35 });
    expect(st.timeline.at(-1)).toEqual({ step: 2, patch: { clipHigh: 0.35 } });
    expect(st.config.clipHigh).toBe(0.35);
    await s.dispose();
  });

  it('reset reproduces the run (same seed); reseed changes it; the base is loaded once', async () => {
    const { s, rec, loads } = session(cfg());
    await s.init();
    await s.step(2);
    const first = scalars(rec.frames);
    await s.reset();
    await s.step(2);
    expect(scalars(rec.frames)).toEqual(first);
    await s.reseed(7);
    const st = await s.step(2);
    expect(st.config.seed).toBe(7);
    expect(scalars(rec.frames)).not.toEqual(first);
    expect(loads()).toBe(1);
    await s.dispose();
  });

  it('plays until the presenter checkpoint, then until the end of the run', async () => {
    const { s, rec } = session(cfg({ steps: 4 }));
    await s.init();
    await s.setPauseAt(2);
    await s.play();
    await waitFor(() => rec.statuses.at(-1)?.phase === 'paused');
    expect(rec.statuses.at(-1)?.message).toMatch(/checkpoint at step 2/);
    expect(rec.frames.length).toBe(2);
    await s.play();
    await waitFor(() => rec.statuses.at(-1)?.phase === 'done');
    expect(rec.frames.map((f) => f.step)).toEqual([1, 2, 3, 4]);
    expect(rec.statuses.at(-1)?.stepsPerSecond).toBeGreaterThan(0);
    await s.dispose();
  });

  it('pauses with a message on a non-finite metric', async () => {
    const nanLoss = (e: PolicyEngine): PolicyEngine =>
      new Proxy(e, {
        get(t, p) {
          if (p === 'trainStep') return async (...a: Parameters<PolicyEngine['trainStep']>) => ({ ...(await t.trainStep(...a)), loss: NaN });
          const v = Reflect.get(t, p, t) as unknown;
          return typeof v === 'function' ? (v as () => unknown).bind(t) : v;
        },
      });
    const { s, rec } = session(cfg(), recorder(), nanLoss);
    await s.init();
    await s.play();
    await waitFor(() => rec.statuses.at(-1)?.phase === 'paused');
    expect(rec.statuses.at(-1)?.message).toMatch(/non-finite metric train\/loss = NaN at step 1/);
    expect(rec.frames.length).toBe(1);
    await s.dispose();
  });

  it('forks: the second run continues from the parent weights at step t with changed settings', async () => {
    const parent = session(cfg());
    await parent.s.init();
    await parent.s.step(2);
    const point = await parent.s.forkPoint();
    expect(point.step).toBe(2);
    const child = session(cfg({ clipHigh: 0.5, seed: 99 }));
    const st = await child.s.init(point);
    expect(st.step).toBe(2);
    expect(st.config.seed).toBe(point.config.seed);
    expect(st.config.clipHigh).toBe(0.5);
    await child.s.step(1);
    expect(child.rec.frames.map((f) => f.step)).toEqual([3]);
    expect(child.loads()).toBe(0);
    await parent.s.dispose();
    await child.s.dispose();
  });

  it('refork: parent and fork continue from identical state, so equal settings give equal frames', async () => {
    const parent = session(cfg({ staleness: 1, updatesPerRollout: 2 }));
    await parent.s.init();
    await parent.s.step(3);
    const point = await parent.s.forkPoint();
    const st = await parent.s.refork(point);
    expect(st.step).toBe(3);
    expect(st.message).toMatch(/continues from step 3/);
    const child = session(cfg({ staleness: 1, updatesPerRollout: 2 }));
    await child.s.init(point);
    await parent.s.step(2);
    await child.s.step(2);
    expect(parent.rec.frames.map((f) => f.step)).toEqual([4, 5]);
    expect(scalars(child.rec.frames)).toEqual(scalars(parent.rec.frames));
    // a changed setting in the fork changes its frames
    expect(await child.s.setConfig({ lr: 0.5 })).toBeNull();
    await parent.s.step(2);
    await child.s.step(2);
    expect(scalars(child.rec.frames.slice(2))).not.toEqual(scalars(parent.rec.frames.slice(2)));
    // null: the next reset starts from step 0 again
    await parent.s.refork(null);
    expect((await parent.s.reset()).step).toBe(0);
    await parent.s.dispose();
    await child.s.dispose();
  });

  it('a lost device stops the run and says so with fault "device-lost"; the init note is the ready message', async () => {
    let lose: (why: string) => void = () => undefined;
    let trains = 0;
    const { s, rec } = session(cfg({ steps: 10_000 }), recorder(), (e) => {
      const lost = new Promise<string>((r) => (lose = r));
      return new Proxy(e, {
        get(t, p) {
          if (p === 'lost') return lost;
          if (p === 'trainStep') {
            // the device goes away during the third step's update
            return (...a: Parameters<PolicyEngine['trainStep']>) => (++trains === 3 && lose('destroyed: test'), t.trainStep(...a));
          }
          const v = Reflect.get(t, p, t) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
        },
      });
    });
    expect((await s.init(undefined, 'resumed after a test fault')).message).toBe('resumed after a test fault');
    const st = await s.step(100);
    expect(st.fault).toBe('device-lost');
    expect(st.phase).toBe('error');
    expect(st.message).toBe('WebGPU device lost: destroyed: test');
    expect(st.step).toBe(3);
    expect(rec.frames.map((f) => f.step)).toEqual([1, 2, 3]);
    await s.play(); // refused: nothing more runs on a lost device
    expect((await s.step(2)).step).toBe(3);
    expect(rec.frames).toHaveLength(3);
    await s.dispose();
  });

  it('nonFinite names the first bad scalar', () => {
    const f = { scalars: { a: 1, b: Infinity } } as unknown as MetricsFrame;
    expect(nonFinite(f)).toBe('b = Infinity');
  });
});

async function waitFor(cond: () => boolean, ms = scaled(20_000)): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}
