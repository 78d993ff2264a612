import { describe, expect, it } from 'vitest';
import { makeConfig } from '../config';
import type { TimelineEntry } from '../loop';
import type { MetricsFrame } from '../metrics';
import type { ForkPoint, LabInit, LabSnapshot, LabStatus } from './types';
import { deviceLostWhy, failurePlan, recoveryPlan, reloadPlan, restartingStatus } from './recovery-plan';

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

describe('failurePlan (what the host knows when its worker fails)', () => {
  const status = { runId: 1, phase: 'running', message: '', step: 63, timeline, needsReset: false } as unknown as LabStatus;
  const known = [{ step: 60 }, last] as MetricsFrame[];

  it('comes back at the last known frame, checks the replay against it, names the furthest step reached', () => {
    const p = failurePlan({ original, snapshot: snap, known, status, why: 'no answer', deviceLost: false });
    expect(p).toEqual(recoveryPlan({ original, snapshot: snap, step: 61, timeline, expect: last, failedAt: 63, why: 'no answer', deviceLost: false }));
    // frames ahead of the status (it arrives ~10/s): the frames' step is the furthest
    expect(failurePlan({ original, snapshot: snap, known, status: { ...status, step: 40 }, why: 'x', deviceLost: true }).message).toMatch(/^The WebGPU device was lost \(x\) at step 61:/);
  });

  it('no frame yet: the run comes back at its start (a fork\'s fork step), with no frame to check', () => {
    const p = failurePlan({ original, snapshot: null, known: [], status: null, why: 'boom', deviceLost: false });
    expect(p.keepTo).toBe(0);
    expect(p.init.resume).toEqual({ step: 0, timeline: [] });
    expect(p.message).toMatch(/failed \(boom\) at step 0/);
    const fork: ForkPoint = { step: 20, base: new Float32Array(1), weights: new Float32Array(1), config: original.config };
    expect(failurePlan({ original: { ...original, fork }, snapshot: null, known: [], status: null, why: 'boom', deviceLost: false }).keepTo).toBe(20);
  });
});

describe('restartingStatus and deviceLostWhy', () => {
  const status = { runId: 1, phase: 'running', message: 'playing', step: 12, timeline, needsReset: false } as unknown as LabStatus;
  it('the status line while the worker is replaced says what happened, up to the plan\'s first colon', () => {
    const plan = recoveryPlan({ original, snapshot: null, step: 12, timeline, failedAt: 12, why: 'no answer for 15 s', deviceLost: false });
    expect(restartingStatus(status, plan)).toEqual({ ...status, phase: 'loading', message: 'The training worker failed (no answer for 15 s) at step 12: restarting the worker…' });
  });
  it('a lost device is read from the status\' fault, its reason from the message', () => {
    expect(deviceLostWhy({ ...status, fault: 'device-lost', message: 'WebGPU device lost: destroyed' })).toBe('destroyed');
    expect(deviceLostWhy({ ...status, phase: 'error', message: 'WebGPU device lost: destroyed' })).toBeNull();
  });
});
