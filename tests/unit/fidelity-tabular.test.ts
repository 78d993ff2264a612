// The fidelity suite on the tabular reference engine (fast); the same functions take the
// transformer engine's factory elsewhere. Check 0 (metrics = the PPO reference) is circular here
// (the tabular engine returns the reference's numbers): tabular-engine.test.ts checks its update instead.
import { describe, expect, it } from 'vitest';
import { tabularFactory } from '../support/factory';
import * as F from '../support/fidelity';

const make = tabularFactory();
const lr = { lr: 0.05 };

describe('fidelity (tabular reference engine)', () => {
  it('the frozen base follows hints (OPD teacher)', async () => {
    const r = await F.teacherFollowsHint(make, { task: 'assistant', samples: 32, minFollow: 0.7 });
    expect(r.pass, JSON.stringify(r.values)).toBe(true);
  });
  it('1. Binary RL collapses behavior support while token entropy stays high', async () => {
    const r = await F.supportCollapse(make, { steps: 80, entropyFrac: 0.6, overrides: lr });
    expect(r.pass, JSON.stringify(r.values)).toBe(true);
  });
  it('2. K = 1 with π_old recomputed: clipfrac exactly 0', async () => {
    const r = await F.clipNeverBindsAtK1(make, { steps: 20, overrides: lr });
    expect(r.values.maxClipfrac).toBe(0);
    expect(r.values.controlMaxClipfrac, 'K = 2 with a narrow band clips').toBeGreaterThan(0);
  });
  it('3. promoted at-least-one samples carry zero gradient', async () => {
    const r = await F.promotedZeroGradient(make, { seed: 1 });
    expect(r.pass, JSON.stringify(r.values)).toBe(true);
  });
  it('4. clip-higher grows a rare rewarded behavior faster (paired seeds)', async () => {
    const r = await F.clipHigherRare(make, { seeds: [1, 2, 3, 4, 5, 6], steps: 10, overrides: { lr: 0.02 } });
    expect(r.pass, JSON.stringify(r.values)).toBe(true);
  });
  it('5. OPD never queues a hint-rejected turn; Combine drops exactly rejected ∧ eval = 0', async () => {
    const r = await F.gatesHold(make, { steps: 5 });
    expect(r.pass, JSON.stringify(r.values)).toBe(true);
  });
  it('6. staleness 1 vs 0 widens the rollout/train gap and raises clipfrac', async () => {
    const r = await F.stalenessGap(make, { steps: 30, overrides: lr });
    expect(r.pass, JSON.stringify(r.values)).toBe(true);
    expect(r.values.gap0).toBe(0);
  });
  it('7. SFT on gold compresses support and prevents recovery of the rare best behavior', async () => {
    const r = await F.sftCompresses(make, { sftSteps: [0, 100], seeds: [1, 2, 3, 4], rlSteps: 60, recoverAt: 0.5, overrides: { lr: 0.05, sftLr: 0.05 } });
    expect(r.pass, JSON.stringify(r.values)).toBe(true);
  });
});
