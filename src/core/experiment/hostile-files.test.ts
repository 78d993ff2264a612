// Issue 24 §5: files built to break a reader. Nested thousands of levels (8 kB of "[" overflowed the
// stack when a value was shown or copied) — refused naming the depth limit, by the one check of
// json-depth.ts; 100,000 problems — ten listed and the rest counted in the message; a metric named
// like an Object.prototype member — no metric, never Object's function.
import { describe, expect, it } from 'vitest';
import { scalarAt, seriesAt, type MetricsFrame } from '../metrics';
import { parsePreset } from '../presets';
import { BundleError, BUNDLE_SCHEMA, BUNDLE_SCHEMA_VERSION, makeBundle, parseBundle } from './bundle';
import { CELL_SCHEMA, parseCellLog } from './cell-log';
import { pairedFromBundle } from './compare';
import { windowMean } from './stats';
import { experimentCell, parseExperimentSpec } from './spec';

const specJson = { version: 1, name: 'x', base: {}, variants: [{ name: 'a', patch: {} }, { name: 'b', patch: { clipHigh: 0.2 } }], seeds: [1], steps: 1 };
const deepArray = (n: number): unknown => JSON.parse(`${'['.repeat(n)}${']'.repeat(n)}`);
const deepObject = (n: number): unknown => JSON.parse(`${'{"a":'.repeat(n)}1${'}'.repeat(n)}`);
const thrown = (f: () => unknown): Error => {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('accepted');
};

describe('files nested past the depth limit', () => {
  it('presets, experiment specs, bundles and cell logs name the limit, at 4,000 and 100,000 levels', () => {
    for (const n of [4000, 100_000]) {
      for (const deep of [deepArray(n), deepObject(n)]) {
        expect(thrown(() => parsePreset('p', { title: 't', explanation: 'x'.repeat(50), config: { gate: deep } })).message).toBe('preset p nests objects or arrays more than 64 levels deep, the limit');
        for (const spec of [{ ...specJson, base: { lr: deep } }, { ...specJson, variants: [{ name: 'a', patch: { x: deep } }] }]) {
          const e = thrown(() => parseExperimentSpec(spec));
          expect(e.message).toBe('experiment spec: (root): the experiment spec nests objects or arrays more than 64 levels deep, the limit');
        }
        const frame = { step: 1, version: 1, scalars: { 'train/loss': 1 }, series: {}, ratioEdges: [], perf: {}, changes: { lr: deep } };
        const bundle = { schema: BUNDLE_SCHEMA, schemaVersion: BUNDLE_SCHEMA_VERSION, codeVersion: 'x', spec: specJson, runs: [{ variant: 0, seed: 1, config: experimentCell(parseExperimentSpec(specJson), 0).config, timeline: [], frames: [frame] }] };
        const b = thrown(() => parseBundle(bundle));
        expect(b).toBeInstanceOf(BundleError);
        expect(b.message).toBe('bundle: (root): the bundle nests objects or arrays more than 64 levels deep, the limit');
        if (n === 4000) expect(thrown(() => parseBundle(JSON.stringify(bundle))).message).toBe(b.message);
      }
      const header = JSON.stringify({ kind: 'cell', schema: CELL_SCHEMA, schemaVersion: 1, spec: specJson });
      for (const line of [`{"kind":"end","x":${'['.repeat(n)}${']'.repeat(n)}}`, `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`]) {
        expect(thrown(() => parseCellLog(`${header}\n${line}\n`, 'c.jsonl')).message).toBe('bundle: c.jsonl:2: the line nests objects or arrays more than 64 levels deep, the limit');
      }
    }
  });
});

describe('100,000 problems in one file', () => {
  it('the message lists ten and counts the rest; the errors are all kept', () => {
    const keys = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
    const b = thrown(() => parseBundle({ schema: BUNDLE_SCHEMA, schemaVersion: BUNDLE_SCHEMA_VERSION, codeVersion: 'x', spec: specJson, runs: [], ...keys })) as BundleError;
    expect(b.errors).toHaveLength(100_000);
    expect(b.message).toBe(`bundle: ${Array.from({ length: 10 }, (_, i) => `k${i}: unknown key`).join('; ')}; …and 99,990 more`);
    const s = thrown(() => parseExperimentSpec({ ...specJson, ...keys }));
    expect(s.message).toMatch(/^experiment spec: k0: unknown key; .*k9: unknown key; …and 99,990 more$/);
    // a value that is no number is shown cut, not whole (a 1 MB string wrote 1 MB of stderr)
    const frame = { step: 1, version: 1, scalars: { 'train/loss': 'x'.repeat(1e6) }, series: {}, ratioEdges: [], perf: {} };
    const run = { variant: 0, seed: 1, config: experimentCell(parseExperimentSpec(specJson), 0).config, timeline: [], frames: [frame] };
    expect(thrown(() => parseBundle({ schema: BUNDLE_SCHEMA, schemaVersion: BUNDLE_SCHEMA_VERSION, codeVersion: 'x', spec: specJson, runs: [run] })).message.length).toBeLessThan(300);
  });
});

describe('a metric named like an Object.prototype member', () => {
  const frame = (step: number, loss: number): MetricsFrame => ({ step, version: 1, scalars: { 'train/loss': loss }, series: {}, ratioEdges: [], perf: {}, changes: {}, trace: [] }) as unknown as MetricsFrame;
  it('is absent, not inherited; report names the metrics the bundle has', () => {
    const spec = parseExperimentSpec(specJson);
    const bundle = makeBundle(spec, [0, 1].map((v) => ({ variant: v, seed: 1, config: experimentCell(spec, v).config, timeline: [], frames: [frame(1, v)] })), 'x');
    for (const name of [...Object.getOwnPropertyNames(Object.prototype), '__proto__']) {
      expect(scalarAt(bundle.runs[0].frames[0].scalars, name)).toBeUndefined();
      expect(seriesAt(bundle.runs[0].frames[0].series, name)).toBeUndefined();
      expect(windowMean(bundle.runs[0].frames as never, name, 1, 1)).toBeNaN();
      expect(thrown(() => pairedFromBundle(bundle, name, 0, 1)).message).toBe(`no metric ${JSON.stringify(name)} in the bundle's frames (they hold train/loss)`);
    }
    expect(pairedFromBundle(bundle, 'train/loss', 0, 1).valuesB).toEqual([1]);
  });
});
