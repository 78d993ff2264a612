// A run snapshot through its JSON file: every bit of its weights kept (-0 and NaN payloads too), and
// a resumed run on the tabular engine continues exactly; bad files are refused naming the part.
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../config';
import type { MetricsFrame } from '../metrics';
import { recorder, tabularSessionDeps } from '../../../tests/support/session-deps';
import { RunSession } from './session';
import { snapshotFromJson, snapshotToJson } from './snapshot-file';

const cfg = makeConfig({ lr: 0.05, behaviorSamples: 8, rolloutBatch: 8, steps: 20, updatesPerRollout: 2 });
const det = (fs: MetricsFrame[]) => JSON.stringify(fs.map(({ perf: _p, ...f }) => f));
const bits = (a: Float32Array | Float64Array) => Array.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));

describe('snapshot file', () => {
  it('round-trips a snapshot bit for bit; the resumed run equals the uninterrupted one', async () => {
    const a = recorder();
    const s = new RunSession(tabularSessionDeps(), a.listener, cfg);
    await s.init();
    await s.step(3);
    const snap = await s.snapshot();
    snap.base[0] = -0;
    snap.base[1] = NaN;
    const back = snapshotFromJson(snapshotToJson(snap));
    expect(bits(back.base)).toEqual(bits(snap.base));
    expect(bits(back.run.engine.trainer)).toEqual(bits(snap.run.engine.trainer));
    expect(back.run.engine.trainer.constructor).toBe(snap.run.engine.trainer.constructor);
    expect({ ...back, base: null, run: { ...back.run, engine: null } }).toEqual({ ...snap, base: null, run: { ...snap.run, engine: null } });
    const fresh = await s.snapshot();
    await s.step(3);
    const b = recorder();
    const r = new RunSession(tabularSessionDeps(), b.listener, cfg);
    expect((await r.init(undefined, undefined, { snapshot: snapshotFromJson(snapshotToJson(fresh)), step: 3, timeline: [] })).step).toBe(3);
    await r.step(3);
    expect(det(b.frames)).toBe(det(a.frames.slice(3)));
    await s.dispose();
    await r.dispose();
  });

  it('refuses a file that is not a snapshot, naming what is wrong', () => {
    expect(() => snapshotFromJson('{')).toThrow(/not valid JSON/);
    expect(() => snapshotFromJson('{"a":1}')).toThrow(/not a run snapshot/);
    const ok = { format: 'invariant-lab/run-snapshot@1', snapshot: { step: 1, origin: 0, base: { $f32: '' }, run: { version: 1, stepIndex: 1, config: {}, engine: { kind: 'tabular', handles: [] } } } };
    expect(() => snapshotFromJson(JSON.stringify({ ...ok, snapshot: { ...ok.snapshot, step: -1 } }))).toThrow(/snapshot\.step: expected a whole number/);
    expect(() => snapshotFromJson(JSON.stringify({ ...ok, snapshot: { ...ok.snapshot, step: 2 } }))).toThrow(/is not origin 0 \+ the run's 1 steps/);
    expect(() => snapshotFromJson(JSON.stringify({ ...ok, snapshot: { ...ok.snapshot, run: { ...ok.snapshot.run, version: 2 } } }))).toThrow(/run\.version: expected 1/);
    expect(() => snapshotFromJson(JSON.stringify({ ...ok, snapshot: { ...ok.snapshot, run: { ...ok.snapshot.run, config: { lr: 'x' } } } }))).toThrow(/config\.lr/);
    expect(() => snapshotFromJson(JSON.stringify({ ...ok, snapshot: { ...ok.snapshot, base: { $f32: 'AAA' } } }))).toThrow(/bytes is not a whole number of 32-bit floats|not valid JSON/);
    expect(snapshotFromJson(JSON.stringify(ok)).base).toBeInstanceOf(Float32Array);
  });
});
