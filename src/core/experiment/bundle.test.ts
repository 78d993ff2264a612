// Bundles on the tabular reference engine: cells trained for real (tiny budget), merged, written as
// JSON and parsed back; every bad field named; a re-run reproduces bit for bit.
import { beforeAll, describe, expect, it } from 'vitest';
import { policyShape, pretrainBase } from '../pretrain';
import { TASKS } from '../tasks/index';
import { createTabularEngine } from '../../engine/tabular/tabular-engine';
import { BundleError, bundleToJson, firstFrameDifference, makeBundle, mergeCells, parseBundle, reproduceCheck, type BundleRun, type ExperimentBundle } from './bundle';
import { endLine, frameLine, headerLine, parseCellLog } from './cell-log';
import { pairedFromBundle } from './compare';
import { runCell } from './run-cell';
import { experimentCell, experimentCells, parseExperimentSpec } from './spec';

const spec = parseExperimentSpec({
  version: 1, name: 'tiny', base: { task: 'strategies', method: 'grpo', rolloutBatch: 8, groupSize: 4, behaviorSamples: 8, lr: 0.05 },
  variants: [{ name: 'A', patch: {} }, { name: 'B', patch: { clipHigh: 0.2, sftGoldSteps: 2 } }], seeds: [1, 2, 3], steps: 3,
});

let baseWeights: Float32Array;
async function train(index: number): Promise<BundleRun> {
  const cell = experimentCell(spec, index);
  const engine = createTabularEngine(policyShape(cell.config));
  await engine.setWeights(baseWeights);
  const run = await runCell(engine, cell);
  await engine.dispose();
  return run;
}

let runs: BundleRun[];
let bundle: ExperimentBundle;
beforeAll(async () => {
  const cfg = experimentCell(spec, 0).config;
  const e = createTabularEngine(policyShape(cfg));
  await pretrainBase(e, TASKS.strategies, 0, { steps: 30, batch: 32, lr: 0.05, temperature: cfg.temperature });
  baseWeights = await e.getWeights();
  runs = [];
  for (const c of experimentCells(spec)) runs.push(await train(c.index));
  bundle = mergeCells(spec, runs, 'test');
});

describe('bundle', () => {
  it('cells train from step 0 and the bundle round-trips through JSON (NaN kept)', () => {
    expect(bundle.runs.map((r) => [r.variant, r.seed, r.frames.length, r.engine])).toEqual([
      [0, 1, 3, 'tabular'], [0, 2, 3, 'tabular'], [0, 3, 3, 'tabular'], [1, 1, 3, 'tabular'], [1, 2, 3, 'tabular'], [1, 3, 3, 'tabular'],
    ]);
    expect(bundle.runs[4].timeline[0]).toEqual({ step: 0, patch: bundle.runs[4].config });
    const withNaN = structuredClone(bundle);
    withNaN.runs[0].frames[2].scalars['train/loss'] = NaN;
    withNaN.runs[0].frames[2].scalars['grad/norm'] = -Infinity;
    const back = parseBundle(bundleToJson(withNaN));
    expect(back.runs[0].frames[2].scalars['train/loss']).toBeNaN();
    expect(back.runs[0].frames[2].scalars['grad/norm']).toBe(-Infinity);
    expect(back).toEqual(withNaN);
  });
  it('a re-run reproduces bit for bit; a one-ulp change is found', async () => {
    const again = await train(4);
    expect(reproduceCheck(bundle, [again])).toEqual({ identical: true, cells: 1, otherEngine: [] });
    const tampered = structuredClone(again);
    const x = tampered.frames[1].scalars['support/token_entropy'];
    tampered.frames[1].scalars['support/token_entropy'] = x + Math.abs(x) * Number.EPSILON;
    const r = reproduceCheck(bundle, [tampered]);
    expect(r.identical).toBe(false);
    expect(r.first).toMatchObject({ cell: 4, step: 2, key: 'support/token_entropy' });
    expect(firstFrameDifference(again.frames, again.frames.slice(0, 2))).toMatchObject({ step: 3, key: 'frames' });
  });
  it('names every bad field of an import and builds nothing', () => {
    const bad = JSON.parse(bundleToJson(bundle));
    bad.schemaVersion = 2;
    bad.spec.steps = -1;
    expect(() => parseBundle(bad)).toThrow(/schemaVersion: expected 1.*spec\.steps/);
    const bad2 = JSON.parse(bundleToJson(bundle));
    bad2.runs[1].seed = 99;
    bad2.runs[2].config.lr = 0.5;
    bad2.runs[3].frames[1].scalars['train/loss'] = 'x';
    bad2.runs[4].frames[2].step = 1;
    bad2.runs[5] = { ...bad2.runs[0] };
    try {
      parseBundle(bad2);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(BundleError);
      expect((e as BundleError).errors.map((er) => er.field)).toEqual([
        'runs[1].seed', 'runs[2].config', 'runs[3].frames[1].scalars.train/loss', 'runs[4].frames[2].step', 'runs[5]',
      ]);
      expect((e as Error).message).toMatch(/runs\[2\]\.config: differs from the spec's variant 0 at seed 3 in lr/);
    }
    expect(() => parseBundle('{oops')).toThrow(/\(root\): not JSON/);
  });
  it('merge refuses missing and duplicate cells (partial on request)', () => {
    expect(() => mergeCells(spec, runs.slice(0, 4), 'v')).toThrow(/missing cell indices 4, 5 of 6/);
    expect(mergeCells(spec, runs.slice(0, 4), 'v', { partial: true }).runs).toHaveLength(4);
    expect(() => mergeCells(spec, [...runs, runs[2]], 'v')).toThrow(/duplicate cell 2/);
    expect(mergeCells(spec, [...runs].reverse(), 'test')).toEqual(bundle);
  });
  it('cell logs parse back to the run; a log without its end line is refused by name', () => {
    const r = runs[3];
    const lines = [headerLine({ codeVersion: 'v', engine: 'tabular', index: 3, variant: 1, seed: 1, spec, config: r.config }), ...r.frames.map(frameLine), endLine({ stepsTaken: 3, timeline: r.timeline, wallSeconds: 0.1 })];
    const parsed = parseCellLog(lines.join('\n') + '\n', 'cell-3.jsonl');
    expect(parsed.run).toEqual(r);
    expect(parsed.index).toBe(3);
    expect(() => parseCellLog(lines.slice(0, -1).join('\n'), 'cell-3.jsonl')).toThrow(/cell-3\.jsonl: incomplete/);
    const wrongIndex = [lines[0].replace('"index":3', '"index":2'), ...lines.slice(1)];
    expect(() => parseCellLog(wrongIndex.join('\n'), 'c.jsonl')).toThrow(/c\.jsonl:1 index: 2 but variant 1, seed 1 is cell 3/);
  });
  it('pairs seed i of A with seed i of B over a step window', () => {
    const p = pairedFromBundle(bundle, 'support/token_entropy', 0, 1, { from: 2, to: 3 });
    expect(p.seeds).toEqual([1, 2, 3]);
    const mean = (r: BundleRun) => (r.frames[1].scalars['support/token_entropy'] + r.frames[2].scalars['support/token_entropy']) / 2;
    expect(p.valuesA).toEqual(runs.slice(0, 3).map(mean));
    expect(p.valuesB).toEqual(runs.slice(3).map(mean));
    expect(p.labelB).toBe('clipHigh = 0.2, sftGoldSteps = 2');
    const partial = makeBundle(spec, runs.filter((_, i) => i !== 5), 'v');
    expect(pairedFromBundle(partial, 'train/loss', 0, 1).skipped).toEqual([{ seed: 3, reason: 'no run of variant 1' }]);
  });
});
