// The lesson experiments in public/experiments/ are valid specs of the lessons they name, with the
// comparisons the lessons' texts report.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../config';
import { builtinGateText } from '../gates/builtin';
import { measureLogs } from '../import/analyze';
import { specText } from '../tasks/registry';
import type { TaskSpec } from '../tasks/spec';
import { nodeRegexEngine } from '../../io/regex/node';
import { exampleRules, exampleSources } from '../../../tests/support/example-import';
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

describe('lesson o: a gate counted on a log vs trained on the task fitted from it', () => {
  const o = load('o-fitted-gate');
  const preset = JSON.parse(readFileSync(join(root, 'public/presets/o-fitted-gate.json'), 'utf8')) as { config: Record<string, unknown> };
  const shipped = JSON.parse(readFileSync(join(root, 'public/tasks/fitted-verl.json'), 'utf8')) as TaskSpec;

  it('trains the shipped fitted task with the log\'s settings: its own gate against dropping score-0 turns, 16 paired seeds', () => {
    expect(o.base.taskSpec).toBe(specText(shipped));
    expect(o.seeds).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(o.variants.map((v) => v.name)).toEqual(["the log's own gate (Binary RL, at-least-one)", 'drop score-0 turns']);
    expect(o.variants[0].patch).toEqual({});
    const { taskSpec, method, rolloutBatch, lr, judgeNoise, gate } = preset.config;
    expect({ taskSpec, method, rolloutBatch, lr, judgeNoise }).toEqual(o.base);
    expect(gate).toBe(o.variants[1].patch.gate);
  });

  it('the counts the lesson quotes: the two gates replayed on the verl example (the import\'s gate replay)', async () => {
    const replay = async (gate: string) => (await measureLogs(
      exampleSources('verl'), { ...exampleRules('verl'), eps: 0.05, gate }, { regex: nodeRegexEngine() },
    )).frames.map((f) => f.scalars as Record<string, number>);
    const own = await replay(builtinGateText({ ...defaultConfig(), method: 'binary-rl' }));
    const drop = await replay(o.variants[1].patch.gate as string);
    expect([own[0]['esr/yield'], own[0]['esr/effective_rate'], own[0]['esr/dropped']]).toEqual([30 / 64, 30 / 64, 0]);
    expect([drop[0]['esr/yield'], drop[0]['esr/effective_rate'], drop[0]['esr/dropped']]).toEqual([30 / 64, 1, 34]);
    const late = (rows: Record<string, number>[], k: string) => rows.slice(15).reduce((a, r) => a + r[k], 0) / 5;
    expect(late(drop, 'esr/yield')).toBeCloseTo(0.5375, 12); // 64 / 0.5375 = 119 turns per batch
    expect(late(own, 'reward/mean')).toBeCloseTo(0.34375, 12);
    expect(late(own, 'support/behavior_dist/math/decompose')).toBeCloseTo(0.713, 3);
  });
});
