import { describe, expect, it } from 'vitest';
import { makeConfig, type Config } from './config';
import { Ensemble, seedConfigs } from './ensemble';
import { Run } from './loop';
import type { TrainedFrame } from './metrics';
import { policyShape } from './pretrain';
import { tabularFactory } from '../../tests/support/factory';
import { TabularPopulation } from '../engine/tabular/tabular-population';

const make = tabularFactory();
const strip = ({ perf: _perf, ...f }: TrainedFrame) => f;
/** Frame-by-frame JSON equality (a short message instead of a giant diff). */
function expectSame(a: unknown[], b: unknown[], label: string) {
  expect(a.length).toBe(b.length);
  a.forEach((x, i) => expect(JSON.stringify(x) === JSON.stringify(b[i]), `${label}, frame ${i + 1}`).toBe(true));
}

async function single(cfg: Config, steps: number) {
  const run = await Run.create(await make(cfg), cfg);
  const out = [];
  for (let i = 0; i < steps; i++) out.push(strip(await run.step()));
  return out;
}

async function ensemble(configs: Config[], steps: number) {
  const pop = new TabularPopulation(policyShape(configs[0]), configs.length);
  await pop.setWeights(await Promise.all(configs.map(async (c) => (await make(c)).getWeights())));
  const ens = await Ensemble.create(pop, configs);
  const out: ReturnType<typeof strip>[][] = configs.map(() => []);
  for (let i = 0; i < steps; i++) (await ens.step()).forEach((f, p) => out[p].push(strip(f!)));
  return { out, pop, ens };
}

describe('Ensemble', () => {
  it('member p gives bit for bit the frames of a single run with that seed (queues of different sizes padded)', async () => {
    // OPD drops unhinted samples, so the members' queues (and the padded batches) differ in size
    const cfg = makeConfig({ task: 'assistant', method: 'opd', lr: 0.05, updatesPerRollout: 2, minibatches: 2, staleness: 1, klCoef: 0.1, rolloutBatch: 12, serveRoundsMax: 1, sftGoldSteps: 3 });
    const configs = seedConfigs(cfg, [1, 2, 3]);
    const { out, pop } = await ensemble(configs, 3);
    const queued = new Set(out.flatMap((frames) => frames.map((f) => f.scalars['esr/queued'])));
    expect(queued.size).toBeGreaterThan(1);
    for (let p = 0; p < configs.length; p++) expectSame(out[p], await single(configs[p], 3), `member ${p}`);
    // one population call per phase: far fewer train calls than the members' updates together
    const updates = out.flat().reduce((a, f) => a + f.scalars['train/updates'], 0);
    expect(pop.calls.train).toBeLessThanOrEqual(updates / 2);
  });

  it('members may differ in any setting but the model shape, and take live changes', async () => {
    const configs = [
      makeConfig({ task: 'strategies', method: 'grpo', lr: 0.05, seed: 4 }),
      makeConfig({ task: 'toolchain', method: 'binary-rl', lr: 0.02, seed: 5, lossAggregation: 'seq-mean-token-mean' }),
    ];
    const { out, ens } = await ensemble(configs, 2);
    for (let p = 0; p < 2; p++) expectSame(out[p], await single(configs[p], 2), `member ${p}`);
    ens.setConfig(1, { clipHigh: 0.2 });
    const [a, b] = await ens.step();
    expect(a!.changes).toEqual({});
    expect(b!.changes).toEqual({ clipHigh: 0.2 });
    await expect(Ensemble.create(new TabularPopulation(policyShape(configs[0]), 2), [configs[0], { ...configs[1], dModel: 32 }])).rejects.toThrow(/same model shape/);
  });

  it('steps a subset of members; the others keep their state', async () => {
    const cfg = makeConfig({ lr: 0.05 });
    const configs = seedConfigs(cfg, [7, 8]);
    const { ens } = await ensemble(configs, 0);
    const frames = await ens.step([1]);
    expect(frames[0]).toBeUndefined();
    expect(ens.members[0].stepCount).toBe(0);
    expectSame([strip(frames[1]!)], await single(configs[1], 1), 'member 1');
  });
});
