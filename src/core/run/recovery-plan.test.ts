import { describe, expect, it } from 'vitest';
import { makeConfig } from '../config';
import type { TimelineEntry } from '../loop';
import type { MetricsFrame } from '../metrics';
import type { ForkPoint, LabInit, LabSnapshot } from './types';
import { recoveryPlan, reloadPlan } from './recovery-plan';

const original: LabInit = { config: makeConfig({ seed: 3, lr: 0.002 }), prefer: 'auto', baseUrl: 'http://x/' };
const snap = { step: 50, origin: 0, baseSource: 'shipped', base: new Float32Array(2) } as unknown as LabSnapshot;
const timeline: TimelineEntry[] = [{ step: 0, patch: makeConfig({ seed: 3 }) }, { step: 30, patch: { lr: 0.002 } }];
const last = { step: 61 } as MetricsFrame;

describe('recoveryPlan', () => {
  it('resumes from the snapshot, replays the steps after it, keeps every known frame', () => {
    const p = recoveryPlan({ original, snapshot: snap, step: 61, timeline, expect: last, failedAt: 63, why: 'no answer', deviceLost: false });
    expect(p.init.resume).toEqual({ snapshot: snap, step: 61, timeline, expect: last });
    expect(p.init.config).toBe(original.config);
    expect(p.init.prefer).toBe('auto');
    expect(p.init.backendReason).toBeUndefined();
    expect(p.keepTo).toBe(61);
    expect(p.message).toBe('The training worker failed (no answer) at step 63: resumed from the weights, optimizer state and random streams saved at step 50, then replayed steps 51–61 with the same seed and settings: it continues exactly as it would have. Press Play to continue.');
  });

  it('without a snapshot: a deterministic restart from the run start with its step-0 config, the timeline replayed', () => {
    const p = recoveryPlan({ original, snapshot: null, step: 7, timeline, failedAt: 7, why: 'boom', deviceLost: false });
    expect(p.init.config).toEqual(makeConfig({ seed: 3 }));
    expect(p.init.resume).toEqual({ step: 7, timeline });
    expect(p.keepTo).toBe(7);
    expect(p.message).toMatch(/resumed from step 0 \(no state was saved\), then replayed steps 1–7 with the same seed and settings: a deterministic restart\. Press Play/);
    const fork: ForkPoint = { step: 20, base: new Float32Array(1), weights: new Float32Array(1), config: original.config };
    const f = recoveryPlan({ original: { ...original, fork }, snapshot: null, step: 30, timeline: [{ step: 20, patch: original.config }], failedAt: 30, why: 'x', deviceLost: false });
    expect(f.init.fork).toBe(fork);
    expect(f.init.config).toBe(original.config);
    expect(f.message).toMatch(/its start at step 20 \(no state was saved\), then replayed steps 21–30/);
  });

  it('a snapshot past the known frames is not used', () => {
    const p = recoveryPlan({ original, snapshot: { ...snap, step: 70 }, step: 61, timeline, failedAt: 71, why: 'x', deviceLost: false });
    expect(p.init.resume?.snapshot).toBeUndefined();
  });

  it('a lost WebGPU device resumes on WASM', () => {
    const p = recoveryPlan({ original, snapshot: snap, step: 50, timeline, failedAt: 50, why: 'destroyed', deviceLost: true });
    expect(p.init.prefer).toBe('wasm');
    // the badge then says why it is on WASM (not "WASM chosen in the settings")
    expect(p.init.backendReason).toBe('WebGPU device lost at step 50 (destroyed): WASM');
    expect(p.message).toMatch(/^The WebGPU device was lost \(destroyed\) at step 50: resumed on WASM from the weights, optimizer state and random streams saved at step 50 \(WASM rounds differently/);
  });
});

describe('reloadPlan', () => {
  it('says what came back and how', () => {
    expect(reloadPlan({ original, snapshot: snap, step: 50, timeline }).message).toBe('Restored the run stored in this browser at step 50: resumed from the weights, optimizer state and random streams saved at step 50: it continues exactly as it would have. Press Play to continue, or Start fresh.');
    expect(reloadPlan({ original, snapshot: null, step: 12, timeline }).message).toMatch(/^Restored the run stored in this browser at step 12: resumed from step 0 \(no state was saved\), then replayed steps 1–12 with the same seed and settings: a deterministic restart\./);
  });
});
