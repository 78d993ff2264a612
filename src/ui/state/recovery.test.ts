import { describe, expect, it } from 'vitest';
import { makeConfig } from '../../core/config';
import type { ForkPoint, LabInit } from '../../../workers/lab.api';
import { WorkerStopped, actionMessage, recoveryPlan } from './recovery';

const original: LabInit = { config: makeConfig({ seed: 3 }), prefer: 'auto', baseUrl: 'http://x/' };
const snap: ForkPoint = { step: 50, base: new Float32Array(2), weights: new Float32Array(2), config: makeConfig({ seed: 3, lr: 0.002 }) };

describe('recoveryPlan', () => {
  it('resumes from the snapshot, keeping frames up to it and saying which steps are re-run', () => {
    const p = recoveryPlan({ original, snapshot: snap, step: 61, why: 'no answer', deviceLost: false });
    expect(p.init.fork).toBe(snap);
    expect(p.init.prefer).toBe('auto');
    expect(p.keepTo).toBe(50);
    expect(p.message).toMatch(/worker failed \(no answer\) at step 61: resumed from the weights saved at step 50; steps 51–61 will be re-run/);
  });

  it('without a snapshot: a deterministic restart from the run start (a fork starts at its fork step)', () => {
    const p = recoveryPlan({ original, snapshot: null, step: 7, why: 'boom', deviceLost: false });
    expect(p.init).toEqual(original);
    expect(p.keepTo).toBe(0);
    expect(p.message).toMatch(/from step 0 with the same seed and settings/);
    const fork = recoveryPlan({ original: { ...original, fork: { ...snap, step: 20 } }, snapshot: null, step: 30, why: 'x', deviceLost: false });
    expect(fork.keepTo).toBe(20);
    expect(fork.message).toMatch(/its start at step 20/);
  });

  it('a lost WebGPU device resumes on WASM', () => {
    const p = recoveryPlan({ original, snapshot: snap, step: 50, why: 'destroyed', deviceLost: true });
    expect(p.init.prefer).toBe('wasm');
    expect(p.message).toMatch(/^The WebGPU device was lost \(destroyed\) at step 50: resumed on WASM from the weights saved at step 50 \(/);
  });
});

describe('actionMessage', () => {
  it('says nothing for a call that a dead worker rejected (the recovery says it), the error otherwise', () => {
    expect(actionMessage(new WorkerStopped('lab worker A stopped: no answer for 15 s'))).toBe('');
    expect(actionMessage(new Error('no run to fork'))).toBe('no run to fork');
    expect(actionMessage('plain')).toBe('plain');
  });
});
