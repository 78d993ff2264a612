/**
 * An experiment record (public/experiments/results/) is what this code trains: the first seed of
 * every variant is trained again as `npm run experiment` trains a cell (trainCell, the shipped base
 * or the in-process pretraining, WASM in Node) and its recorded series must equal the record's bit
 * for bit, and so must its base values (step 0) where the record keeps them. Small budget: the
 * first REPLAY_STEPS steps of each cell. A run does not depend on its step count (nothing in
 * training reads config.steps), so these are the first frames of the full cell; the window includes step 5, where the experiments that measure behavior every 5 steps do.
 * A record trained from a --base file (a custom task's base, pretrained once as the page pretrains
 * it) is re-trained from the base the page pretrains, which must be that file (its sha256).
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRecord, recordedRun } from '../../src/core/experiment/record';
import { experimentCell, variantConfig, type ExperimentSpec } from '../../src/core/experiment/spec';
import { BASE_SEED } from '../../src/core/pretrain';
import { taskOf } from '../../src/core/tasks/registry';
import { pretrainCheckpoint } from '../../src/cli/pretrain';
import { DEFAULT_PRETRAIN_STEPS } from '../../workers/base';
import { encodeCheckpoint } from '../../src/model/checkpoint';
import { codeVersion } from '../../src/cli/code-version';
import { EngineReuse } from '../../src/cli/engine-reuse';
import { trainCell, type TrainReport } from '../../src/cli/experiment-train';
import { scaled } from '../support/speed';

const REPLAY_STEPS = 6;
const dir = join(import.meta.dirname, '../../public/experiments/results');
// a spec that sits beside its record (NAME.spec.json) is not a record
const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json') && !f.endsWith('.spec.json')).sort() : [];
const quiet: TrainReport = { info: () => {}, step: () => {} };
const engines = new EngineReuse();
afterAll(() => engines.dispose());

/** The --base a record names, pretrained again as the page pretrains a base (workers/base.ts: BASE_SEED, batch 64, lr 3e-3). */
async function pageBase(spec: ExperimentSpec, recordedBase: string): Promise<{ base?: string }> {
  const sha = /^the base weights of --base .+ \(sha256 ([0-9a-f]{64})\)$/.exec(recordedBase)?.[1];
  if (!sha) return {};
  const task = taskOf(variantConfig(spec, 0, spec.seeds[0]));
  const base = await pretrainCheckpoint(task, { steps: DEFAULT_PRETRAIN_STEPS, lr: 3e-3, batch: 64, seed: BASE_SEED });
  expect(base.sha256, 'the record\'s base is the one the page pretrains').toBe(sha);
  const file = join(mkdtempSync(join(tmpdir(), 'record-base-')), 'base.f32');
  writeFileSync(file, encodeCheckpoint(base.weights));
  return { base: file };
}

describe('experiment records are what the code trains', () => {
  it('there are records to check', () => expect(files.length).toBeGreaterThan(0));

  it.each(files)('%s: the first seed of every variant, re-trained, gives the recorded series bit for bit', async (file) => {
    const record = parseRecord(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    const { spec } = record;
    expect(record.produced.engine, 'records are trained on WASM, as the CLI does by default').toBe('wasm');
    const steps = Math.min(REPLAY_STEPS, spec.steps);
    const base = await pageBase(spec, record.produced.base);
    for (let v = 0; v < spec.variants.length; v++) {
      const cell = experimentCell(spec, v * spec.seeds.length);
      const settings = { spec, codeVersion: codeVersion(), engine: 'wasm' as const, base, trace: false, quiet: true };
      const { run } = await trainCell(settings, { ...cell, config: { ...cell.config, steps } }, quiet, undefined, engines);
      const stored = record.runs.find((r) => r.variant === v && r.seed === cell.seed)!;
      const want = Object.fromEntries(Object.entries(stored.series).map(([m, s]) => [m, s.slice(0, steps)]));
      const fresh = recordedRun(run, record.metrics);
      // step 0 too, where the record keeps it (the base, measured before the first step)
      expect({ series: fresh.series, base: stored.base && fresh.base }, `${spec.name}, variant ${v} (${spec.variants[v].name}), seed ${cell.seed}`).toEqual({ series: want, base: stored.base });
    }
  }, scaled(240_000));
});
