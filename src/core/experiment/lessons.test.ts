// The lesson experiments in public/experiments/ are valid specs of the lessons they name, with the
// comparisons the lessons' texts report.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { experimentCells, parseExperimentSpec, variantLabel } from './spec';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const files = readdirSync(join(root, 'public/experiments')).filter((f) => f.endsWith('.json'));
const presets = readdirSync(join(root, 'public/presets'));
const load = (name: string) => parseExperimentSpec(JSON.parse(readFileSync(join(root, 'public/experiments', `${name}.json`), 'utf8')));

describe('lesson experiments', () => {
  it.each(files)('%s parses and belongs to a lesson preset of the same name', (f) => {
    const spec = parseExperimentSpec(JSON.parse(readFileSync(join(root, 'public/experiments', f), 'utf8')));
    expect(spec.name).toBe(f.replace(/\.json$/, ''));
    expect(presets).toContain(f);
    expect(experimentCells(spec).length).toBe(spec.variants.length * spec.seeds.length);
  });
  it('b: ε_high 0.2 vs 0.28 over 8 paired seeds; d: at-least-one off vs on; f: three methods; g: staleness 0/1/2; i: SFT 0 vs 100', () => {
    const b = load('b-clip-higher');
    expect(b.seeds).toHaveLength(8);
    expect([0, 1].map((v) => variantLabel(b, v))).toEqual(['clipHigh = 0.2', 'clipHigh = 0.28']);
    const f = load('f-combine-gating');
    expect([0, 1, 2].map((v) => variantLabel(f, v))).toEqual(['method = binary-rl', 'method = opd', 'method = combine']);
    const g = load('g-stale-weights-503');
    expect([0, 1, 2].map((v) => variantLabel(g, v))).toEqual(['staleness = 0', 'staleness = 1', 'staleness = 2']);
    const d = load('d-at-least-one');
    expect([0, 1].map((v) => variantLabel(d, v))).toEqual(['atLeastOne = false', 'atLeastOne = true']);
    expect(d.metrics).toContain('grad/norm');
    const i = load('i-sft-compresses');
    expect([0, 1].map((v) => variantLabel(i, v))).toEqual(['sftGoldSteps = 0', 'sftGoldSteps = 100']);
  });
});
