// Fidelity check 4 on the REAL transformer (WASM engine, shipped base), in a file of its own: the
// longest check of the suite (8 runs at K = 8), run by vitest beside the rest (fidelity.test.ts).
import { describe, expect, it } from 'vitest';
import * as F from '../../tests/support/fidelity';
import { makeWasm as make, show } from '../../tests/support/fidelity-wasm';
import { scaled } from '../../tests/support/speed';

describe('fidelity on the transformer (WASM): clip-higher', { timeout: scaled(900_000) }, () => {
  it('4. K = 8, rare rewarded behavior: ε_high 0.28 grows it faster than 0.2 (paired seeds)', async () => {
    const r = await F.clipHigherRare(make, { seeds: [1, 2, 3, 4], steps: 12, overrides: { lr: 3e-4, rolloutBatch: 64, groupSize: 8 } });
    expect(r.pass, show(r)).toBe(true);
  });
});
