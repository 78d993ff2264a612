// Step back (rewind.ts): the run exactly as it stood before its last step, on the tabular engine —
// from the run's start replayed, or from the latest kept snapshot at or before that step; the
// setting changes given before the last step are pending again. The steps taken after it equal the
// ones taken before, bit for bit.
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../config';
import type { PolicyEngine } from '../engine';
import type { MetricsFrame } from '../metrics';
import { tabularSessionDeps } from '../../../tests/support/session-deps';
import type { LabListener, LabStatus } from './types';
import { RunSession } from './session';

const cfg = makeConfig({ task: 'assistant', method: 'combine', lr: 0.05, behaviorSamples: 8, rolloutBatch: 8, steps: 50, staleness: 1, measureEvery: 2 });

function session() {
  const frames: MetricsFrame[] = [];
  const imports = { count: 0 };
  const wrap = (e: PolicyEngine): PolicyEngine => {
    const importState = e.importState!.bind(e);
    e.importState = (state) => {
      imports.count++;
      return importState(state);
    };
    return e;
  };
  const statuses: LabStatus[] = [];
  const listener: LabListener = { frames: (_, fs) => void frames.push(...fs), status: (st) => void statuses.push(st) };
  return { s: new RunSession(tabularSessionDeps({ wrap }), listener, cfg), frames, imports, statuses };
}

const det = (f: MetricsFrame | undefined) => f && JSON.stringify({ ...f, perf: undefined });
const at = (fs: MetricsFrame[], step: number) => det(fs.filter((f) => f.step === step).at(-1));

/** 3 steps, a live patch (it takes effect at step 4), 3 more steps. */
async function sixSteps(snapshotAt?: number) {
  const a = session();
  await a.s.init();
  for (let step = 1; step <= 6; step++) {
    if (step === 4) expect(await a.s.setConfig({ clipHigh: 0.4 })).toBeNull();
    await a.s.step(1);
    if (step === snapshotAt) await a.s.snapshot();
  }
  return { ...a, first: [...a.frames] };
}

describe('RunSession.stepBack', () => {
  it('from the start: the run is at the step before, and its next steps equal the ones taken before, pending change included', async () => {
    const { s, frames, first, imports, statuses } = await sixSteps();
    const before = s.status();
    const said = statuses.length;
    const back = await s.stepBack();
    expect(back).toMatchObject({ step: 5, phase: 'paused', continues: 5, message: 'stepped back to step 5' });
    expect(back.runId).toBeGreaterThan(before.runId);
    // every status of the new run says which frames it keeps (the page starts it over from them)
    const ofNewRun = statuses.slice(said).filter((st) => st.runId === back.runId);
    expect(ofNewRun.length).toBeGreaterThan(0);
    for (const st of ofNewRun) expect(st.continues).toBe(5);
    expect(back.timeline).toEqual(before.timeline);
    expect(imports.count).toBe(0); // no snapshot was kept: replayed from step 0
    await s.step(1);
    expect(at(frames, 6)).toBe(at(first, 6));
    // back past the step the change took effect at: it is pending again, and the step takes it
    for (let i = 0; i < 3; i++) await s.stepBack();
    const at3 = s.status();
    expect(at3).toMatchObject({ step: 3, continues: 3 });
    expect(at3.config.clipHigh).toBe(0.4);
    expect(at3.timeline).toEqual(before.timeline.filter((e) => e.step < 3));
    await s.step(3);
    for (const step of [4, 5, 6]) expect(at(frames, step)).toBe(at(first, step));
    expect(frames.filter((f) => f.step === 4).at(-1)?.changes).toEqual({ clipHigh: 0.4 });
    await s.dispose();
  });

  it('from the latest snapshot at or before the step: the same frames again', async () => {
    const { s, frames, first, imports } = await sixSteps(4);
    await s.stepBack();
    expect(imports.count).toBe(1);
    expect(s.status().step).toBe(5);
    await s.step(1);
    expect(at(frames, 6)).toBe(at(first, 6));
    // back before the snapshot: it is not used (it lies past the step), the run replays from its start
    await s.stepBack();
    await s.stepBack();
    await s.stepBack();
    expect(imports.count).toBe(3); // back to 5 (twice) and to 4 from the snapshot; to 3 from the start
    expect(s.status().step).toBe(3);
    await s.step(3);
    for (const step of [4, 5, 6]) expect(at(frames, step)).toBe(at(first, step));
    await s.dispose();
  });

  it("at the run's start there is nothing to step back to", async () => {
    const { s } = session();
    await s.init();
    const st = await s.stepBack();
    expect(st.step).toBe(0);
    expect(st.message).toMatch(/nothing to step back to/);
    await s.dispose();
  });
});
