// An engine reused from cell to cell (engine-reuse.ts) trains a cell as an engine of its own does:
// the same frames bit for bit, after other cells (other seeds, another variant) trained on it, with
// the base pretrained in process (which starts from the engine's init weights) and on both engines.
import { describe, expect, it } from 'vitest';
import type { BundleRun } from '../core/experiment/bundle';
import { experimentCell, parseExperimentSpec } from '../core/experiment/spec';
import { EngineReuse } from './engine-reuse';
import type { EngineKind } from './engine-setup';
import { trainCell, type TrainReport, type TrainSettings } from './experiment-train';

const spec = parseExperimentSpec({
  version: 1, name: 'reuse', base: { task: 'strategies', method: 'grpo', dModel: 16, layers: 1, heads: 2, mlp: 32, rolloutBatch: 8, groupSize: 4, behaviorSamples: 4, lr: 3e-3 },
  variants: [{ name: 'A', patch: {} }, { name: 'B', patch: { clipHigh: 0.2 } }, { name: 'wide', patch: { dModel: 24 } }], seeds: [4, 7], steps: 3,
});
const silent: TrainReport = { info: () => undefined, step: () => undefined };
const frames = (r: BundleRun) => r.frames.map(({ perf: _p, ...f }) => f);

describe.each<EngineKind>(['wasm', 'tabular'])('a reused %s engine', (engine) => {
  const s: TrainSettings = { spec, codeVersion: 'test', engine, base: { pretrainSteps: 5, ...(engine === 'tabular' ? { pretrainLr: 0.05 } : {}) }, trace: false, quiet: true };
  const cell = (i: number) => experimentCell(spec, i);

  it('gives each cell the frames of an engine of its own, bit for bit; one engine per shape', async () => {
    const engines = new EngineReuse();
    const reused: BundleRun[] = [];
    try {
      // cells 0–3: variants A and B, seeds 4 and 7 (one shape); 4: the wide variant; 1 again after it
      for (const i of [0, 1, 2, 3, 4, 1]) reused.push((await trainCell(s, cell(i), silent, undefined, engines)).run);
    } finally {
      await engines.dispose();
    }
    expect(engines.created).toBe(3); // the first shape, the wide one, the first again
    for (const [k, i] of [[1, 1], [3, 3], [5, 1]]) expect(frames(reused[k]), `cell ${i}`).toEqual(frames((await trainCell(s, cell(i), silent)).run));
    expect(frames(reused[1])).not.toEqual(frames(reused[0])); // the seeds' runs differ
  }, 600_000);
});
