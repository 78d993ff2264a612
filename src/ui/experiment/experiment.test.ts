// The lab's experiment helpers on hand-made frames: bands come from the core's seedBand per step,
// the paired table from the core's windowMean + pairedComparison, reproduction is bit for bit.
import { describe, expect, it } from 'vitest';
import { parseExperimentSpec } from '../../core/experiment/spec';
import { pairedComparison, seedBand } from '../../core/experiment/stats';
import type { MetricsFrame } from '../../core/metrics';
import { variantBands } from './bands';
import { pairedTable } from './paired';

const M = 'support/behavior_dist/code/verify';
const frame = (step: number, v: number): MetricsFrame =>
  ({ step, version: step, scalars: { [M]: v }, series: { 'support/pass_at_k': [v] }, ratioEdges: [0.8, 1.2], perf: { 'perf/steps_per_s': Math.random() }, changes: {}, trace: [] }) as unknown as MetricsFrame;

function spec(seeds: number) {
  return parseExperimentSpec({
    version: 1, name: 't', base: { task: 'strategies' }, steps: 3,
    variants: [{ name: 'low', patch: { clipHigh: 0.2 } }, { name: 'high', patch: { clipHigh: 0.28 } }],
    seeds: Array.from({ length: seeds }, (_, i) => i + 1),
  });
}
/** Cell c's value at step s: a known pattern (B = A + seed-dependent shift). */
const value = (variant: number, seedIndex: number, step: number) => 0.1 * step + 0.01 * seedIndex + (variant ? (seedIndex % 3 === 0 ? -0.005 : 0.02) : 0);
function frames(seeds: number): MetricsFrame[][] {
  return [0, 1].flatMap((v) => Array.from({ length: seeds }, (_, si) => [1, 2, 3].map((s) => frame(s, value(v, si, s)))));
}

describe('variantBands', () => {
  it('draws median and IQR from the core for ≥ 5 seeds, min-max below, with a legend naming the setting', () => {
    const s = spec(8);
    const bands = variantBands(s, frames(8), M);
    expect(bands.map((b) => b.label)).toEqual(['clipHigh = 0.2', 'clipHigh = 0.28']);
    expect(bands[0].kind).toBe('iqr');
    const at2 = Array.from({ length: 8 }, (_, si) => value(1, si, 2));
    expect(bands[1].points[1]).toEqual({ step: 2, ...pick(seedBand(at2)) });
    expect(bands[1].curves[3].points.map((p) => p.value)).toEqual([1, 2, 3].map((st) => value(1, 3, st)));
    expect(variantBands(spec(3), frames(3), M)[0].kind).toBe('minmax');
    expect(bands[0].color).not.toBe(bands[1].color);
  });
});
const pick = (b: ReturnType<typeof seedBand>) => ({ median: b.median, lo: b.lo, hi: b.hi, n: b.n });

describe('pairedTable', () => {
  it('pairs seed i of A with seed i of B over the window and reports the core statistics', () => {
    const s = spec(8);
    const t = pairedTable(s, frames(8), { metric: M, a: 0, b: 1, from: 2, to: 3, higherIsBetter: true });
    expect(t.problem).toBe('');
    const a = Array.from({ length: 8 }, (_, si) => (value(0, si, 2) + value(0, si, 3)) / 2);
    const b = Array.from({ length: 8 }, (_, si) => (value(1, si, 2) + value(1, si, 3)) / 2);
    expect(t.pairs!.valuesA).toEqual(a);
    expect(t.pairs).toMatchObject(pairedComparison(a, b, { higherIsBetter: true }));
    expect(t.pairs!.favourB).toBe(5); // seeds 0, 3, 6 go the other way
  });
  it('leaves out seeds without data and says so; refuses one variant against itself', () => {
    const s = spec(3);
    const f = frames(3);
    f[4] = [];
    const t = pairedTable(s, f, { metric: M, a: 0, b: 1, from: 1, to: 3, higherIsBetter: true });
    expect(t.pairs!.seeds).toEqual([1, 3]);
    expect(t.pairs!.skipped).toEqual([{ seed: 2, reason: 'B: has no frames' }]);
    expect(pairedTable(s, f, { metric: M, a: 1, b: 1, from: 1, to: 3, higherIsBetter: true }).problem).toMatch(/two different/);
  });
  it('an open window ends where every training cell is; a cell stopped early is left out, not averaged', () => {
    const s = spec(3);
    const f = frames(3).map((fs) => fs.slice(0, 2)); // every cell at step 2 of 3
    f[4] = f[4].slice(0, 1); // cell 4 (B, seed 2) stopped at step 1
    const stopped = [undefined, undefined, undefined, undefined, 'non-finite metric train/loss = NaN', undefined];
    const t = pairedTable(s, f, { metric: M, a: 0, b: 1, from: 1, to: null, higherIsBetter: true }, stopped);
    expect(t.soFar).toBe(true);
    expect([t.pairs!.from, t.pairs!.to, t.pairs!.seeds]).toEqual([1, 2, [1, 3]]);
    expect(t.pairs!.skipped).toEqual([{ seed: 2, reason: 'B: ends at step 1 (non-finite metric train/loss = NaN)' }]);
    const done = pairedTable(s, frames(3), { metric: M, a: 0, b: 1, from: 1, to: null, higherIsBetter: true }, Array(6).fill('done'));
    expect([done.soFar, done.pairs!.to, done.pairs!.n]).toEqual([false, 3, 3]);
  });
  it('at the start, before any cell has a frame, says it waits in one line, not one per seed', () => {
    const s = spec(8);
    const empty = Array.from({ length: 16 }, () => []);
    const t = pairedTable(s, empty, { metric: M, a: 0, b: 1, from: 1, to: null, higherIsBetter: true });
    expect(t.problem).toBe('waiting for the cells to reach step 1 (they are at step 0)');
    // a window that starts past where the cells are waits too
    const f = frames(8).map((fs) => fs.slice(0, 1));
    expect(pairedTable(s, f, { metric: M, a: 0, b: 1, from: 2, to: 3, higherIsBetter: true }).problem).toBe('waiting for the cells to reach step 2 (they are at step 1)');
  });
});

describe('the new-experiment form', () => {
  it('parses variants and seeds through the config table and the core spec', async () => {
    const { specFromForm, formFromSpec } = await import('./form');
    const r = specFromForm({ name: 'b', base: 'task=strategies, steps=12', variants: 'low: clipHigh=0.2\nclipHigh=0.28, lr=0.0003', seeds: '1-3, 7', steps: 12 });
    expect('spec' in r && r.spec.variants).toEqual([{ name: 'low', patch: { clipHigh: 0.2 } }, { name: 'clipHigh=0.28, lr=0.0003', patch: { clipHigh: 0.28, lr: 0.0003 } }]);
    expect('spec' in r && r.spec.seeds).toEqual([1, 2, 3, 7]);
    if ('spec' in r) expect(specFromForm(formFromSpec(r.spec))).toEqual(r);
    const withMetrics = parseExperimentSpec({ version: 1, name: 'm', description: 'why', base: { lr: 0.001 }, variants: [{ name: 'a', patch: {} }, { name: 'b', patch: { clipHigh: 0.2 } }], seeds: [1, 2, 3], steps: 5, metrics: ['gap/clipfrac_high'] });
    expect(specFromForm(formFromSpec(withMetrics))).toEqual({ spec: withMetrics });
    const bad = specFromForm({ name: '', base: 'lr=x', variants: 'clipHigh=abc\nnope=1', seeds: '1-3', steps: 12 });
    expect('errors' in bad && bad.errors.join('\n')).toMatch(/base: .*lr[\s\S]*variant 1: .*clipHigh[\s\S]*variant 2: .*nope/);
    const dup = specFromForm({ name: '', base: '', variants: 'a: lr=0.1\na: lr=0.2', seeds: '1,1', steps: 12 });
    expect('errors' in dup && dup.errors.join('\n')).toMatch(/name[\s\S]*duplicate/);
    expect(specFromForm({ name: 'x', base: '', variants: 'lr=0.1', seeds: 'a', steps: 5 })).toEqual({ errors: ['seeds: "a" is not a seed or a range like 1-8'] });
  });
});

describe('the new-experiment form takes every spec as it is', () => {
  it('each shipped lesson experiment (multi-line gates, a task spec JSON, names with commas and "=") comes back unchanged', async () => {
    const { readFileSync, readdirSync } = await import('node:fs');
    const { specFromForm, formFromSpec } = await import('./form');
    const dir = new URL('../../../public/experiments/', import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(9);
    for (const f of files) {
      const spec = parseExperimentSpec(JSON.parse(readFileSync(new URL(f, dir), 'utf8')));
      const form = formFromSpec(spec);
      expect(form.variants.split('\n'), f).toHaveLength(spec.variants.length); // one line per variant
      expect(specFromForm(form), f).toEqual({ spec });
    }
  });
  it('quoted values and names: commas, line breaks, colons and quotes stay in them; a bad quote is said', async () => {
    const { specFromForm, parsePatch } = await import('./form');
    const gate = '!has_next_state => mask0 # a, b\ntrue => mask1 rl';
    const r = specFromForm({ name: 'q', base: `method=binary-rl\ngate=${JSON.stringify(gate)}`, variants: `"a: b, c=1": clipHigh=0.2\nplain: gate=${JSON.stringify(gate)}, lr=0.001`, seeds: '1', steps: 2 });
    expect('spec' in r && r.spec.base).toEqual({ method: 'binary-rl', gate });
    expect('spec' in r && r.spec.variants).toEqual([{ name: 'a: b, c=1', patch: { clipHigh: 0.2 } }, { name: 'plain', patch: { gate, lr: 0.001 } }]);
    const errors: string[] = [];
    parsePatch('gate="never closed, lr=1', 'base', errors);
    expect(errors).toEqual(['base: gate: quoted text "never closed, lr=1… has no closing "']);
    const after: string[] = [];
    expect(parsePatch('method="opd" y, lr=0.001', 'variant 1', after)).toEqual({ lr: 0.001 });
    expect(after[0]).toMatch(/^variant 1: method: unexpected "y" after the quoted value/);
  });
});
