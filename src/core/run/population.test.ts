// Lockstep cells on the tabular engine: each cell's frames equal a run alone with its seed (bit for
// bit), a continuation from stored weights starts after their step and says so.
import { describe, expect, it } from 'vitest';
import { makeConfig, type Config } from '../config';
import type { PolicyShape } from '../engine';
import { Run } from '../loop';
import type { MetricsFrame } from '../metrics';
import { policyShape, pretrainBase } from '../pretrain';
import { BUILTIN_TASKS } from '../tasks/builtin';
import { createTabularEngine } from '../../engine/tabular/tabular-engine';
import { tabularSessionDeps } from '../../../tests/support/session-deps';
import { TabularPopulation } from '../../engine/tabular/tabular-population';
import type { CellFrames, ExperimentListener, GroupStatus } from './population-types';
import { PopulationSession } from './population';

const cfg = (patch: Partial<Config> = {}) => makeConfig({ lr: 0.05, behaviorSamples: 8, rolloutBatch: 8, steps: 4, ...patch });

async function base(c: Config): Promise<Float32Array> {
  const e = createTabularEngine(policyShape(c));
  await pretrainBase(e, BUILTIN_TASKS[c.task], 0, { steps: 10, batch: 32, lr: 0.05, temperature: c.temperature });
  return e.getWeights();
}

function session(o: { population?: (p: TabularPopulation) => void } = {}) {
  const frames = new Map<number, MetricsFrame[]>();
  const statuses: GroupStatus[] = [];
  let loads = 0;
  const listener: ExperimentListener = {
    frames: (batch: CellFrames[]) => {
      for (const b of batch) frames.set(b.index, [...(frames.get(b.index) ?? []), ...b.frames]);
    },
    status: (s) => void statuses.push(s),
  };
  const deps = tabularSessionDeps({ onLoad: () => void loads++ });
  const createPopulation = async (shape: PolicyShape, size: number) => {
    const pop = new TabularPopulation(shape, size);
    o.population?.(pop);
    return pop;
  };
  const s = new PopulationSession(o.population ? { ...deps, createPopulation } : deps, listener);
  return { s, frames, statuses, loads: () => loads };
}

const perf = (fs: MetricsFrame[]) => fs.map(({ perf: _p, ...rest }) => rest);

describe('PopulationSession', () => {
  it.each([
    ['one engine per cell', false],
    ['one population for the cells', true],
  ])('trains every cell in lockstep (%s); each equals a run alone with its seed, bit for bit', async (_name, asPopulation) => {
    let pop: TabularPopulation | null = null;
    const { s, frames, loads } = session(asPopulation ? { population: (p) => void (pop = p) } : {});
    const configs = [cfg({ seed: 1 }), cfg({ seed: 2 }), cfg({ seed: 3 })];
    const st = await s.init(configs.map((config, index) => ({ index, config })));
    expect(st.phase).toBe('ready');
    expect(loads()).toBe(1); // one base for the group
    await s.play();
    await new Promise<void>((resolve) => {
      const t = setInterval(() => {
        if (s.status().phase === 'done') {
          clearInterval(t);
          resolve();
        }
      }, 5);
    });
    expect(s.status().cells.map((c) => [c.phase, c.step])).toEqual([['done', 4], ['done', 4], ['done', 4]]);
    for (const [i, config] of configs.entries()) {
      const engine = createTabularEngine(policyShape(config));
      await engine.setWeights(await base(config));
      const run = await Run.create(engine, config);
      const solo: MetricsFrame[] = [];
      for (let k = 0; k < config.steps; k++) solo.push({ ...(await run.step()), trace: [] });
      expect(perf(frames.get(i)!)).toEqual(perf(solo));
    }
    // seeds differ
    expect(frames.get(0)![3].scalars).not.toEqual(frames.get(1)![3].scalars);
    if (asPopulation) {
      // one train call per round for all three cells (4 steps), not one per cell
      expect(pop!.size).toBe(3);
      expect(pop!.calls.train).toBe(4);
    }
    await s.dispose();
  });

  it.each([
    ['one engine per cell', false],
    ['one population for the cells', true],
  ])('continues a cell from stored weights after their step and says so (%s)', async (_name, asPopulation) => {
    const { s, frames } = session(asPopulation ? { population: () => undefined } : {});
    const config = cfg({ seed: 5, steps: 6 });
    const first = session();
    await first.s.init([{ index: 0, config }]);
    await first.s.step(3);
    const w = await first.s.weights(0);
    expect(w.step).toBe(3);
    await first.s.dispose();
    const st = await s.init([{ index: 7, config, resume: { step: w.step, weights: w.data } }]);
    expect(st.message).toBe('');
    expect(st.cells[0]).toMatchObject({ index: 7, step: 3, message: 'continued from stored weights at step 3' });
    const after = await s.step(10);
    expect(after.cells[0]).toMatchObject({ phase: 'done', step: 6 });
    expect(frames.get(7)!.map((f) => f.step)).toEqual([4, 5, 6]);
    await s.dispose();
  });
});

