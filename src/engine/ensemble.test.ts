// Ensembles on the transformer (WASM): member p of a population run gives the metrics of a single
// run with that seed, within float32 noise (batched MatMuls may round differently); and a member's
// frames are the same bit for bit whatever the population's size and other members (what lets an
// experiment split a variant's seeds over workers: src/core/experiment/jobs.ts).
import { describe, expect, it } from 'vitest';
import { makeConfig, type Config } from '../core/config';
import { Ensemble, seedConfigs } from '../core/ensemble';
import { Run } from '../core/loop';
import { scalarAt, type MetricsFrame } from '../core/metrics';
import { policyShape } from '../core/pretrain';
import { initParams, paramLayout } from '../model/layout';
import { createNodeEngine, createNodePopulation } from './node';

const STEPS = 3;

function expectClose(a: MetricsFrame, b: MetricsFrame, label: string) {
  expect(Object.keys(a.scalars).sort()).toEqual(Object.keys(b.scalars).sort());
  for (const [k, x] of Object.entries(a.scalars)) {
    const y = scalarAt(b.scalars, k)!;
    expect(Math.abs(x! - y), `${label} ${k}: ${x} vs ${y}`).toBeLessThanOrEqual(1e-4 + 1e-3 * Math.abs(y));
  }
  // same sampled responses: the float noise did not flip a token
  expect(a.trace.map((t) => t.response)).toEqual(b.trace.map((t) => t.response));
}

describe('Ensemble on the ORT engine (WASM)', () => {
  it('member p matches a single run with its seed within float32 noise', async () => {
    const cfg = makeConfig({
      task: 'assistant', method: 'combine', dModel: 16, layers: 1, heads: 2, mlp: 32, lr: 3e-3, rolloutBatch: 8,
      behaviorSamples: 4, updatesPerRollout: 2, klCoef: 0.1,
    });
    const configs: Config[] = seedConfigs(cfg, [1, 2]);
    const shape = policyShape(cfg);
    const base = initParams(paramLayout(shape), 99);

    const pop = await createNodePopulation(shape, { size: configs.length, seed: 0, weights: base });
    const ens = await Ensemble.create(pop, configs);
    const frames: MetricsFrame[][] = configs.map(() => []);
    for (let s = 0; s < STEPS; s++) (await ens.step()).forEach((f, p) => frames[p].push(f!));
    await ens.dispose();

    for (let p = 0; p < configs.length; p++) {
      const engine = await createNodeEngine(shape, { seed: 0, weights: base });
      const run = await Run.create(engine, configs[p]);
      for (let s = 0; s < STEPS; s++) expectClose(frames[p][s], await run.step(), `member ${p} step ${s + 1}`);
      await engine.dispose();
    }
    // the members really differ (own seeds, own streams)
    expect(frames[0][STEPS - 1].trace.map((t) => t.response)).not.toEqual(frames[1][STEPS - 1].trace.map((t) => t.response));
  }, 900_000);

  it("a member's frames do not depend on the population's size or its other members, bit for bit", async () => {
    const cfg = makeConfig({ task: 'strategies', method: 'grpo', dModel: 16, layers: 1, heads: 2, mlp: 32, lr: 3e-3, rolloutBatch: 8, groupSize: 4, behaviorSamples: 4 });
    const shape = policyShape(cfg);
    const base = initParams(paramLayout(shape), 7);
    const train = async (seeds: number[]) => {
      const pop = await createNodePopulation(shape, { size: seeds.length, seed: 0, weights: base });
      const ens = await Ensemble.create(pop, seedConfigs(cfg, seeds));
      const frames: MetricsFrame[][] = seeds.map(() => []);
      for (let s = 0; s < STEPS; s++) (await ens.step()).forEach((f, p) => frames[p].push(f!));
      await ens.dispose();
      return frames.map((fs) => fs.map(({ perf: _p, ...rest }) => rest));
    };
    const three = await train([1, 2, 3]);
    const [alone] = await train([2]);
    const pair = await train([3, 5]);
    expect(alone).toEqual(three[1]);
    expect(pair[0]).toEqual(three[2]);
    expect(three[0]).not.toEqual(three[1]);
  }, 900_000);
});

