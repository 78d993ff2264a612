// Bundles on the tabular reference engine: cells trained for real (tiny budget), merged, written as
// JSON and parsed back; every bad field named; a re-run reproduces bit for bit.
import { beforeAll, describe, expect, it } from 'vitest';
import { policyShape, pretrainBase } from '../pretrain';
import { BUILTIN_TASKS } from '../tasks/builtin';
import { createTabularEngine } from '../../engine/tabular/tabular-engine';
import { BundleError, bundleToJson, makeBundle, mergeCells, parseBundle, type BundleRun, type ExperimentBundle } from './bundle';
import { firstFrameDifference } from './frame-difference';
import { reproduceCheck } from './reproduce';
import { endLine, frameLine, headerLine, parseCellLog } from './cell-log';
import { pairedFromBundle, pairsText } from './compare';
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
  await pretrainBase(e, BUILTIN_TASKS.strategies, 0, { steps: 30, batch: 32, lr: 0.05, temperature: cfg.temperature });
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
    const x = tampered.frames[1].scalars['support/token_entropy']!;
    tampered.frames[1].scalars['support/token_entropy'] = x + Math.abs(x) * Number.EPSILON;
    const r = reproduceCheck(bundle, [tampered]);
    expect(r.identical).toBe(false);
    expect(r.first).toMatchObject({ cell: 4, step: 2, key: 'support/token_entropy' });
    expect(firstFrameDifference(again.frames, again.frames.slice(0, 2))).toMatchObject({ step: 3, key: 'frames' });
  });
  it('a bundle records where a cell resumed; a re-run that differs after an inexact resume says why', async () => {
    const resumed = structuredClone(bundle);
    resumed.runs[4].resumed = [{ step: 1, exact: false, from: 'stored weights' }];
    const back = parseBundle(bundleToJson(resumed));
    expect(back.runs[4].resumed).toEqual([{ step: 1, exact: false, from: 'stored weights' }]);
    const clean = await train(4);
    const tampered = structuredClone(clean);
    tampered.frames[1].scalars['train/loss']! += 1; // as a continuation from weights only would: differs after step 1
    const r = reproduceCheck(back, [tampered]);
    expect(r).toMatchObject({ identical: false, first: { cell: 4, step: 2 }, why: 'cell 4 resumed at step 1 from stored weights (not bit for bit)' });
    // a clean stored run that fails has no such reason; an exact resume is no reason either
    expect(reproduceCheck(bundle, [tampered]).why).toBeUndefined();
    resumed.runs[4].resumed = [{ step: 1, exact: true, from: 'a snapshot' }];
    expect(reproduceCheck(resumed, [tampered]).why).toBeUndefined();
    const bad = JSON.parse(bundleToJson(bundle));
    bad.runs[0].resumed = [{ step: 7, exact: 'yes' }];
    expect(() => parseBundle(bad)).toThrow(/runs\[0\]\.resumed\[0\]: expected \{ step \(0–2\), exact/);
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
  it('refuses frames at steps the spec lacks, frames without metrics, bad changes and traces, a run carrying another seed\'s frames', () => {
    const errorsOf = (x: unknown) => {
      try {
        parseBundle(x);
      } catch (e) {
        if (e instanceof BundleError) return e.errors.map((er) => `${er.field}: ${er.message}`);
        throw e;
      }
      return [];
    };
    const bad = JSON.parse(bundleToJson(bundle));
    bad.runs[0].frames[2].step = 9; // the spec has 3 steps
    bad.runs[1].frames[1].scalars = {};
    bad.runs[2].frames[1].changes = { clipHigh: 'wide' };
    bad.runs[2].frames[2].changes = { lr: 0.1 }; // not on its timeline
    bad.runs[3].frames[0].trace = [{ session: 0, turn: 'x' }];
    bad.runs[5].frames = structuredClone(bad.runs[4].frames); // seed 3's run with seed 2's frames
    const errs = errorsOf(bad);
    expect(errs).toEqual(expect.arrayContaining([
      'runs[0].frames[2].step: step 9 is not a step of the spec (1–3)',
      'runs[1].frames[1].scalars: a frame without metrics',
      expect.stringMatching(/^runs\[2\]\.frames\[1\]\.changes\.clipHigh: /),
      'runs[2].frames[2].changes: settings changed at step 3 but the run\'s timeline has no such change at step 2',
      'runs[3].frames[0].trace[0].turn: expected a number, got "x"',
      'runs[3].frames[0].trace[0].state: expected a string',
      'runs[5].frames: the frames of runs[4] (seed 2), metric for metric, though this run\'s seed is 3',
    ]));
    const zero = JSON.parse(bundleToJson(bundle));
    zero.runs[0].frames[0].step = 0;
    expect(errorsOf(zero)).toContain('runs[0].frames[0].step: step 0 is not a step of the spec (1–3)');
    // a change on the timeline at the step before is fine; so are traces shaped as samples
    const live = JSON.parse(bundleToJson(bundle));
    live.runs[0].timeline.push({ step: 1, patch: { lr: 0.01 } });
    live.runs[0].frames[1].changes = { lr: 0.01 };
    expect(parseBundle(live).runs[0].frames[1].changes).toEqual({ lr: 0.01 });
    // runs are checked even when the spec is bad
    const both = JSON.parse(bundleToJson(bundle));
    both.spec.steps = 'many';
    both.runs[0].frames[1].scalars['train/loss'] = 'x';
    expect(errorsOf(both)).toEqual(expect.arrayContaining([expect.stringMatching(/^spec\.steps: /), 'runs[0].frames[1].scalars.train/loss: expected a number, got "x"']));
  });
  it('merge refuses missing and duplicate cells (partial on request)', () => {
    expect(() => mergeCells(spec, runs.slice(0, 4), 'v')).toThrow(/missing cell indices 4, 5 of 6/);
    expect(mergeCells(spec, runs.slice(0, 4), 'v', { partial: true }).runs).toHaveLength(4);
    expect(() => mergeCells(spec, [...runs, runs[2]], 'v')).toThrow(/duplicate cell 2/);
    expect(mergeCells(spec, [...runs].reverse(), 'test')).toEqual(bundle);
  });
  it('cell logs parse back to the run, its base (step 0) included; a log without its end line is refused by name', () => {
    const r = runs[3];
    // the base, measured before the first step: what the plots draw at step 0
    expect(r.base?.['support/behavior_support/math']).toBeGreaterThan(0);
    expect(r.base?.['support/token_entropy']).not.toBe(r.frames[0].scalars['support/token_entropy']);
    const lines = [headerLine({ codeVersion: 'v', engine: 'tabular', index: 3, variant: 1, seed: 1, spec, config: r.config }), ...r.frames.map(frameLine), endLine({ stepsTaken: 3, timeline: r.timeline, base: r.base, wallSeconds: 0.1 })];
    const parsed = parseCellLog(lines.join('\n') + '\n', 'cell-3.jsonl');
    expect(parsed.run).toEqual(r);
    const badBase = [...lines.slice(0, -1), endLine({ stepsTaken: 3, timeline: r.timeline, base: { 'support/token_entropy': 'x' } as unknown as Record<string, number>, wallSeconds: 0.1 })];
    expect(() => parseCellLog(badBase.join('\n'), 'c.jsonl')).toThrow(/c\.jsonl\.base\.support\/token_entropy: expected a number/);
    expect(parsed.index).toBe(3);
    expect(() => parseCellLog(lines.slice(0, -1).join('\n'), 'cell-3.jsonl')).toThrow(/cell-3\.jsonl: incomplete/);
    const wrongIndex = [lines[0].replace('"index":3', '"index":2'), ...lines.slice(1)];
    expect(() => parseCellLog(wrongIndex.join('\n'), 'c.jsonl')).toThrow(/c\.jsonl:1 index: 2 but variant 1, seed 1 is cell 3/);
  });
  it('pairs seed i of A with seed i of B over a step window', () => {
    const p = pairedFromBundle(bundle, 'support/token_entropy', 0, 1, { from: 2, to: 3 });
    expect(p.seeds).toEqual([1, 2, 3]);
    const mean = (r: BundleRun) => (r.frames[1].scalars['support/token_entropy']! + r.frames[2].scalars['support/token_entropy']!) / 2;
    expect(p.valuesA).toEqual(runs.slice(0, 3).map(mean));
    expect(p.valuesB).toEqual(runs.slice(3).map(mean));
    expect(p.labelB).toBe('clipHigh = 0.2, sftGoldSteps = 2');
    const partial = makeBundle(spec, runs.filter((_, i) => i !== 5), 'v');
    expect(pairedFromBundle(partial, 'train/loss', 0, 1).skipped).toEqual([{ seed: 3, reason: 'B: no run' }]);
  });
  it('a run that stopped early or diverged inside the window is left out, with the reason and the count of pairs left', () => {
    const cut = structuredClone(bundle);
    cut.runs[5].frames = cut.runs[5].frames.slice(0, 2); // seed 3 of B stopped at step 2
    cut.runs[5].stoppedBy = 'non-finite metric train/loss = NaN';
    cut.runs[1].frames[1].scalars['support/token_entropy'] = NaN; // seed 2 of A diverged at step 2
    const p = pairedFromBundle(cut, 'support/token_entropy', 0, 1);
    expect([p.from, p.to, p.n, p.total, p.seeds]).toEqual([1, 3, 1, 3, [1]]);
    expect(p.skipped).toEqual([
      { seed: 2, reason: 'A: diverged: support/token_entropy = NaN at step 2' },
      { seed: 3, reason: 'B: ends at step 2 (non-finite metric train/loss = NaN)' },
    ]);
    expect(pairsText(p)).toBe('1 of 3 pairs cover steps 1–3 (left out: seed 2: A: diverged: support/token_entropy = NaN at step 2; seed 3: B: ends at step 2 (non-finite metric train/loss = NaN))');
    // a window the short run covers keeps it
    expect(pairedFromBundle(cut, 'support/token_entropy', 0, 1, { from: 1, to: 1 }).seeds).toEqual([1, 2, 3]);
    expect(() => pairedFromBundle(cut, 'support/token_entropy', 0, 1, { from: 2, to: 9 })).toThrow(/window 2–9 is not inside the spec's steps 1–3/);
    const gap = structuredClone(bundle);
    gap.runs[0].frames.splice(1, 1);
    expect(pairedFromBundle(gap, 'support/token_entropy', 0, 1).skipped).toEqual([{ seed: 1, reason: 'A: has no frame at step 2' }]);
  });
});
