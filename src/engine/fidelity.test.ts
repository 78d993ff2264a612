// The fidelity suite of tests/support/fidelity.ts on the REAL transformer (WASM engine, shipped
// base checkpoints): the training effects the lessons teach, from actual training, small budgets.
// Settings follow the measurements recorded in src/core/README.md. The longest checks are in files
// of their own so that vitest runs them beside this one: 4 in fidelity-clip-higher.test.ts, 1 and 7
// in fidelity-training.test.ts.
import { describe, expect, it } from 'vitest';
import * as F from '../../tests/support/fidelity';
import { makeWasm as make, show } from '../../tests/support/fidelity-wasm';
import { scaled } from '../../tests/support/speed';

// Real training runs: generous limits, scaled by the machine's measured speed factor.
describe('fidelity on the transformer (WASM)', { timeout: scaled(600_000) }, () => {
  it('0. engine PPO metrics equal the TypeScript reference over several updates', async () => {
    const r = await F.ppoMatchesReference(make, { updates: 3, tolerance: 1e-4, lr: 0.01 });
    expect(r.pass, show(r)).toBe(true);
  });
  it('2. K = 1 with π_old recomputed: clipfrac is exactly 0 at every step', async () => {
    const r = await F.clipNeverBindsAtK1(make, { steps: 15, overrides: { lr: 5e-4 } });
    expect(r.values.maxClipfrac).toBe(0);
    expect(r.values.controlMaxClipfrac, 'K = 2 with a narrow band clips').toBeGreaterThan(0);
  });
  it('3. promoted at-least-one samples contribute zero policy gradient', async () => {
    const r = await F.promotedZeroGradient(make, { seed: 1 });
    expect(r.pass, show(r)).toBe(true);
  });
  it('5. OPD never queues a hint-rejected turn; Combine drops exactly hint-rejected ∧ eval = 0', async () => {
    const r = await F.gatesHold(make, { steps: 4 });
    expect(r.pass, show(r)).toBe(true);
  });
  it('6. staleness 1 vs 0 widens |logπ_rollout − logπ_train| and raises clipfrac', async () => {
    const r = await F.stalenessGap(make, { steps: 20, overrides: { lr: 5e-4 } });
    expect(r.pass, show(r)).toBe(true);
  });
  it('the base follows a hint token (it is the OPD teacher)', async () => {
    const r = await F.teacherFollowsHint(make, { task: 'assistant', samples: 128, minFollow: 0.6 });
    expect(r.pass, show(r)).toBe(true);
  });
  it('same seed, same config → identical metric frames', async () => {
    const r = await F.determinism(make, { steps: 3, overrides: { method: 'combine', updatesPerRollout: 2 } });
    expect(r.pass, show(r)).toBe(true);
  });
});
