// Fidelity checks 1 and 7 on the REAL transformer (WASM engine, shipped base), in a file of their own:
// with 4 (fidelity-clip-higher.test.ts) the longest trainings of the suite, run by vitest beside the
// rest (fidelity.test.ts). Settings follow the measurements recorded in src/core/README.md.
import { describe, expect, it } from 'vitest';
import * as F from '../../tests/support/fidelity';
import { makeWasm as make, show } from '../../tests/support/fidelity-wasm';
import { scaled } from '../../tests/support/speed';

describe('fidelity on the transformer (WASM): collapse and SFT', { timeout: scaled(600_000) }, () => {
  it('1. Binary RL: behavior support collapses to 1 while token entropy stays ≥ 60 % of its start', async () => {
    const r = await F.supportCollapse(make, { steps: 45, entropyFrac: 0.6, overrides: { rolloutBatch: 64, lr: 5e-4 } });
    expect(r.pass, show(r)).toBe(true);
  });
  it('7. SFT on gold lowers support; with more SFT, RL recovers the rare best behavior in fewer seeds', async () => {
    const r = await F.sftCompresses(make, { sftSteps: [0, 100], seeds: [1, 2, 3], rlSteps: 25, recoverAt: 0.5 });
    expect(r.pass, show(r)).toBe(true);
  });
});
