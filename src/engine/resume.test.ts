// The transformer on WASM: a run exported between two steps (trainer weights, Adam moments, frozen
// base, rollout copies) and resumed on a fresh engine gives the uninterrupted run's frames bit for bit.
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../core/config';
import { Run } from '../core/loop';
import type { MetricsFrame } from '../core/metrics';
import { policyShape } from '../core/pretrain';
import { createNodeEngine } from './node';

const cfg = makeConfig({ task: 'strategies', method: 'grpo', dModel: 16, layers: 1, heads: 2, mlp: 32, rolloutBatch: 8, behaviorSamples: 8, staleness: 1, updatesPerRollout: 2, lr: 0.01, seed: 5, entropyCoef: 0.05 });
// entropyCoef: a random-init policy earns no reward; the entropy term still gives gradients, so Adam's moments matter
const det = ({ perf: _perf, ...f }: MetricsFrame) => f;
const engine = () => createNodeEngine(policyShape(cfg), { seed: 11 });

describe('Run.resume on the ORT engine (WASM)', () => {
  it('continues bit for bit', async () => {
    const want: unknown[] = [];
    const u = await Run.create(await engine(), cfg);
    for (let i = 0; i < 5; i++) want.push(det(await u.step()));
    await u.engine.dispose();

    const a = await Run.create(await engine(), cfg);
    const got: unknown[] = [];
    for (let i = 0; i < 3; i++) got.push(det(await a.step()));
    const snap = structuredClone(await a.exportState());
    await a.engine.dispose();
    const N = snap.engine.handles[0].weights.length;
    expect(snap.engine.trainer.length).toBe(3 * N);
    expect(snap.engine.handles).toHaveLength(3); // base + staleness 1 → two rollout copies
    expect(snap.engine.version).toBe(6); // 3 steps × 2 updates

    const b = await Run.resume(await engine(), snap);
    for (let i = 3; i < 5; i++) got.push(det(await b.step()));
    await b.engine.dispose();
    expect(JSON.stringify(got)).toBe(JSON.stringify(want));
  }, 120_000);
});
