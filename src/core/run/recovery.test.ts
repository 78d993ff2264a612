// The resume plan of an interrupted run, and what it gives a session: the planned ResumeFrom
// continues a tabular run exactly (from a snapshot, or replayed from step 0 with its timeline).
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../config';
import type { MetricsFrame } from '../metrics';
import { recorder, tabularSessionDeps } from '../../../tests/support/session-deps';
import { SNAPSHOT_EVERY, configAfter, planResume, snapshotDue, snapshotOnStatus, snapshotRefusal, snapshotWithin } from './recovery';
import type { LabSnapshot } from './types';
import { RunSession } from './session';

const cfg = makeConfig({ lr: 0.05, behaviorSamples: 8, rolloutBatch: 8, steps: 30 });
const det = (fs: MetricsFrame[]) => JSON.stringify(fs.map(({ perf: _p, ...f }) => f));

describe('planResume', () => {
  it('with and without a usable snapshot, the planned resume continues the run exactly', async () => {
    const a = recorder();
    const s = new RunSession(tabularSessionDeps(), a.listener, cfg);
    await s.init();
    await s.step(2);
    const snap = await s.snapshot();
    expect(await s.setConfig({ clipHigh: 0.4 })).toBeNull();
    await s.step(3);
    const { timeline } = s.status();
    const known = a.frames.slice();
    await s.step(2);
    for (const snapshot of [snap, null, { ...snap, step: 9 }]) {
      const plan = planResume({ snapshot, step: 5, timeline, expect: known[4] });
      expect(plan.keepTo).toBe(5);
      const usable = snapshot?.step === 2;
      expect(plan.resume.snapshot).toBe(usable ? snapshot : undefined);
      expect(plan.restartConfig).toEqual(usable ? null : makeConfig(timeline[0].patch));
      expect(plan.how).toMatch(usable ? /saved at step 2, then replayed steps 3–5/ : /from step 0 \(no state was saved\), then replayed steps 1–5/);
      const b = recorder();
      const r = new RunSession(tabularSessionDeps(), b.listener, plan.restartConfig ?? cfg);
      const st = await r.init(undefined, undefined, plan.resume);
      expect(st.message).toBe('The replayed step 5 equals the stored one bit for bit.');
      await r.step(2);
      expect(det(b.frames)).toBe(det(a.frames.slice(5)));
      await r.dispose();
    }
    await s.dispose();
  });

  it('a fork without a snapshot restarts from its fork point, with its own config', () => {
    const fork = { step: 20, base: new Float32Array(1), weights: new Float32Array(1), config: cfg };
    const plan = planResume({ fork, snapshot: null, step: 24, timeline: [{ step: 20, patch: cfg }] });
    expect(plan.restartConfig).toBeNull();
    expect(plan.how).toMatch(/its start at step 20 \(no state was saved\), then replayed steps 21–24/);
  });
});

describe('snapshotDue / configAfter', () => {
  it('a snapshot every SNAPSHOT_EVERY steps while playing, at every stop past the kept one', () => {
    expect(snapshotDue(SNAPSHOT_EVERY - 1, 0, false)).toBe(false);
    expect(snapshotDue(SNAPSHOT_EVERY, 0, false)).toBe(true);
    expect(snapshotDue(7, 7, true)).toBe(false);
    expect(snapshotDue(8, 7, true)).toBe(true);
  });

  it('the settings after a timeline', () => {
    expect(configAfter([])).toBeNull();
    expect(configAfter([{ step: 0, patch: cfg }, { step: 3, patch: { clipHigh: 0.4 } }, { step: 5, patch: { lr: 0.01 } }])).toEqual({ ...cfg, clipHigh: 0.4, lr: 0.01 });
  });
});

describe('when the page keeps a snapshot, and which one it keeps', () => {
  it('a stopped run at a new step is kept; a running one every SNAPSHOT_EVERY steps; a non-finite stop never', () => {
    for (const phase of ['ready', 'paused', 'done'] as const) expect(snapshotOnStatus({ phase, needsReset: false, step: 7 }, 5)).toBe(true);
    expect(snapshotOnStatus({ phase: 'paused', needsReset: false, step: 5 }, 5)).toBe(false);
    expect(snapshotOnStatus({ phase: 'paused', needsReset: true, step: 7 }, 5)).toBe(false);
    for (const phase of ['running', 'loading', 'pretraining', 'error'] as const) expect(snapshotOnStatus({ phase, needsReset: false, step: 70 }, 5)).toBe(false);
  });
  it('a snapshot past the frames kept belongs to the run that ended', () => {
    const snap = { step: 30 } as LabSnapshot;
    expect(snapshotWithin(snap, 30)).toBe(snap);
    expect(snapshotWithin(snap, 29)).toBeNull();
    expect(snapshotWithin(null, 29)).toBeNull();
  });
  it('an engine that cannot export is a lasting refusal; any other failure is not', () => {
    expect(snapshotRefusal(new Error('the tabular engine cannot export its state'))).toBe('the tabular engine cannot export its state');
    expect(snapshotRefusal(new Error('lab worker A stopped: no answer'))).toBe('');
    expect(snapshotRefusal('cannot export')).toBe('cannot export');
  });
});
