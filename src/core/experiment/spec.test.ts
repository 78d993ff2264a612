import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../config';
import { ExperimentSpecError, cellCount, differingSettings, experimentCell, experimentCells, parseExperimentSpec, variantLabel, type ExperimentSpec } from './spec';

const good = {
  version: 1,
  name: 'clip-higher',
  base: { task: 'strategies', method: 'grpo', clipHigh: 0.28 },
  variants: [
    { name: 'eps 0.2', patch: { clipHigh: 0.2 } },
    { name: 'eps 0.28', patch: {} },
  ],
  seeds: [1, 2, 3],
  steps: 12,
};

function errorsOf(x: unknown): string[] {
  try {
    parseExperimentSpec(x);
  } catch (e) {
    if (e instanceof ExperimentSpecError) return e.errors.map((er) => er.field);
    throw e;
  }
  return [];
}

/** Every object and array of `x` behind a Proxy, as a reactive UI state wraps a form. */
const proxied = <T>(x: T): T => (x !== null && typeof x === 'object' ? new Proxy(Array.isArray(x) ? x.map(proxied) : Object.fromEntries(Object.entries(x).map(([k, v]) => [k, proxied(v)])), {}) : x) as T;

describe('parseExperimentSpec', () => {
  it('returns plain data that structured clone takes, even from a proxied input (a lesson experiment in the form)', () => {
    const input = proxied({ ...good, metrics: ['support/behavior_entropy/code'], description: 'd' });
    expect(() => structuredClone(input)).toThrow(/could not be cloned/);
    const spec = parseExperimentSpec(input);
    expect(structuredClone(spec)).toEqual({ ...good, metrics: ['support/behavior_entropy/code'], description: 'd' });
  });

  it('accepts a valid spec and keeps its fields', () => {
    const s = parseExperimentSpec(good);
    expect(s.variants.map((v) => v.name)).toEqual(['eps 0.2', 'eps 0.28']);
    expect(s.seeds).toEqual([1, 2, 3]);
    expect(JSON.parse(JSON.stringify(s))).toEqual(good);
  });
  it('names every bad field by its path, reusing the config table checks', () => {
    const bad = {
      version: 2,
      name: '',
      extra: 1,
      base: { clipHigh: -1, nope: 3, seed: 4 },
      variants: [{ name: 'a', patch: { task: 'chess' } }, { name: 'a', patch: { lr: 'fast' }, foo: 1 }, 7],
      seeds: [1, 1, 2.5, -3],
      steps: 0,
      metrics: [3],
    };
    expect(errorsOf(bad).sort()).toEqual(
      ['version', 'name', 'extra', 'base.clipHigh', 'base.nope', 'base.seed', 'variants[0].patch.task', 'variants[1].name', 'variants[1].patch.lr', 'variants[1].foo', 'variants[2]', 'seeds[1]', 'seeds[2]', 'seeds[3]', 'steps', 'metrics'].sort(),
    );
    try {
      parseExperimentSpec(bad);
    } catch (e) {
      expect((e as Error).message).toMatch(/base\.clipHigh: -1 is outside \[0, 4\]/);
      expect((e as Error).message).toMatch(/variants\[0\]\.patch\.task: expected one of strategies/);
      // ten problems listed in the message, the rest counted (all of them in .errors)
      expect((e as Error).message).toMatch(/; …and 6 more$/);
      expect((e as ExperimentSpecError).errors).toContainEqual({ field: 'seeds[1]', message: 'duplicate seed 1' });
    }
  });
  it('checks cross-field rules on each variant\'s whole config', () => {
    expect(errorsOf({ ...good, variants: [{ name: 'wide', patch: { dModel: 66, heads: 4 } }] })).toEqual(['variants[0] (heads)']);
  });
  it('rejects empty variants / seeds and non-objects', () => {
    expect(errorsOf({ ...good, variants: [], seeds: [] })).toEqual(['variants', 'seeds']);
    expect(errorsOf(null)).toEqual(['(root)']);
    expect(errorsOf({ ...good, variants: [{ name: 'x', patch: { steps: 3 } }] })).toEqual(['variants[0].patch.steps']);
  });
});

describe('cells', () => {
  const spec = parseExperimentSpec({ ...good, variants: [...good.variants, { name: 'tool', patch: { task: 'toolchain', sftGoldSteps: 100, dModel: 32 } }] });
  it('index = variant * seeds + seedIndex; every cell from step 0 with the variant\'s full config', () => {
    const cells = experimentCells(spec);
    expect(cells.length).toBe(cellCount(spec));
    expect(cells.map((c) => [c.index, c.variant, c.seed])).toEqual([
      [0, 0, 1], [1, 0, 2], [2, 0, 3], [3, 1, 1], [4, 1, 2], [5, 1, 3], [6, 2, 1], [7, 2, 2], [8, 2, 3],
    ]);
    expect(cells[4].config).toEqual(makeConfig({ task: 'strategies', method: 'grpo', clipHigh: 0.28, seed: 2, steps: 12 }));
    expect(cells[1].config.clipHigh).toBe(0.2);
    // run-fixing settings (task, SFT, model shape) are ordinary patches
    expect(cells[8].config).toMatchObject({ task: 'toolchain', sftGoldSteps: 100, dModel: 32, seed: 3 });
    expect(() => experimentCell(spec, 9)).toThrow(/outside 0\.\.8/);
    expect(() => experimentCell(spec, -1)).toThrow();
  });
  it('labels name the settings that differ, with each variant\'s value', () => {
    expect(differingSettings(spec)).toEqual(['task', 'clipHigh', 'sftGoldSteps', 'dModel']);
    expect(variantLabel(spec, 0)).toBe('task = strategies, clipHigh = 0.2, sftGoldSteps = 0, dModel = 64');
    const two = parseExperimentSpec(good);
    expect(variantLabel(two, 0)).toBe('clipHigh = 0.2');
    expect(variantLabel(two, 1)).toBe('clipHigh = 0.28');
    const same = parseExperimentSpec({ ...good, variants: [{ name: 'only', patch: {} }] });
    expect(variantLabel(same, 0)).toBe('base');
  });
  it('property: cells enumerate every (variant, seed) pair once, in index order', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 5 }), fc.uniqueArray(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 6 }), (k, seeds) => {
      const s: ExperimentSpec = { version: 1, name: 'p', base: {}, variants: Array.from({ length: k }, (_, i) => ({ name: `v${i}`, patch: { lr: 0.001 * (i + 1) } })), seeds, steps: 3 };
      const cells = experimentCells(parseExperimentSpec(s));
      expect(cells.length).toBe(k * seeds.length);
      cells.forEach((c, i) => {
        expect(c.index).toBe(i);
        expect(c.variant * seeds.length + seeds.indexOf(c.seed)).toBe(i);
        expect(c.config.seed).toBe(c.seed);
        expect(c.config.lr).toBe(0.001 * (c.variant + 1));
      });
    }));
  });
});
