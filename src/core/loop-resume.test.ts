// A run exported between two steps and resumed on a fresh engine continues exactly as the
// uninterrupted run: every RNG stream, the rollout copies (staleness), the optimizer moments, the
// pending patches and the carried behavior measurement come back.
import { describe, expect, it } from 'vitest';
import { makeConfig, type Config } from './config';
import { Run } from './loop';
import type { MetricsFrame } from './metrics';
import { tabularFactory } from '../../tests/support/factory';

const make = tabularFactory();
const det = ({ perf: _perf, ...f }: MetricsFrame) => f;

const PATCHES: Record<number, Partial<Config>> = { 2: { clipHigh: 0.35 }, 4: { temperature: 0.8 } };

async function uninterrupted(cfg: Config, n: number) {
  const r = await Run.create(await make(cfg), cfg);
  const out = [];
  for (let i = 0; i < n; i++) {
    if (PATCHES[i]) r.setConfig(PATCHES[i]);
    out.push(det(await r.step()));
  }
  return out;
}

describe('Run.exportState / Run.resume', () => {
  for (const cfg of [
    makeConfig({ task: 'assistant', method: 'combine', lr: 0.05, updatesPerRollout: 2, minibatches: 2, staleness: 2, pauseWindow: 0.2, requestRate: 3, measureEvery: 3 }),
    makeConfig({ task: 'toolchain', method: 'grpo', lr: 0.05, prmStepCoef: 0.2, stepwiseZ: true, dynamicSampling: true, sftGoldSteps: 3 }),
  ]) {
    it(`${cfg.task}/${cfg.method}: resumed frames equal the uninterrupted run's, bit for bit`, async () => {
      const want = await uninterrupted(cfg, 7);
      const a = await Run.create(await make(cfg), cfg);
      const got = [];
      for (let i = 0; i < 4; i++) {
        if (PATCHES[i]) a.setConfig(PATCHES[i]);
        got.push(det(await a.step()));
      }
      a.setConfig(PATCHES[4]); // pending at the snapshot: applies at step 5 in both
      // through structured clone, as IndexedDB stores it
      const snap = structuredClone(await a.exportState());
      a.dispose();
      const b = await Run.resume(await make(cfg), snap);
      expect(b.stepCount).toBe(4);
      expect(b.timeline).toEqual(a.timeline);
      expect(b.baseScalars).toEqual(a.baseScalars);
      for (let i = 4; i < 7; i++) got.push(det(await b.step()));
      expect(got[4].changes).toEqual(PATCHES[4]);
      expect(JSON.stringify(got)).toBe(JSON.stringify(want));
    });
  }

  it('a lost RNG position or a foreign engine state is an error, not a different run', async () => {
    const cfg = makeConfig({ task: 'strategies', lr: 0.05 });
    const a = await Run.create(await make(cfg), cfg);
    await a.step();
    const snap = await a.exportState();
    const noRng = { ...snap, rng: { ...snap.rng, judge: undefined as unknown as number } };
    await expect(Run.resume(await make(cfg), noRng)).rejects.toThrow(/judge/);
    await expect(Run.resume(await make(cfg), { ...snap, engine: { ...snap.engine, kind: 'ort/123' } })).rejects.toThrow(/cannot import a ort\/123 state/);
  });
});
