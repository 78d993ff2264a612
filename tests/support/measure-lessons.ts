// Measures a lesson preset on the transformer (WASM engine, shipped base) for one seed and prints one
// JSON line per step (all scalars), so that lesson texts state what reproduces across seeds:
//   npx tsx tests/support/measure-lessons.ts --preset a-support-collapse --seed 3 [--steps N]
//     [--set key=value ...] [--tag NAME] [--threads 1]
// The lesson measurements of issue 10 ran this for several seeds in parallel (one WASM thread each).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shippedBase } from '../../src/cli/checkpoints';
import { makeConfig, parseField } from '../../src/core/config';
import { Run } from '../../src/core/loop';
import { parsePreset } from '../../src/core/presets';
import { policyShape } from '../../src/core/pretrain';
import { createNodeEngine, ort } from '../../src/engine/node';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const argv = process.argv.slice(2);
const opt = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const sets = argv.flatMap((a, i) => (a === '--set' ? [argv[i + 1]] : []));

async function main(): Promise<void> {
  const preset = opt('--preset');
  if (!preset) throw new Error('--preset NAME is required');
  ort.env.wasm.numThreads = Number(opt('--threads') ?? 1);
  const partial: Record<string, unknown> = { ...parsePreset(preset, JSON.parse(readFileSync(join(root, 'public/presets', `${preset}.json`), 'utf8'))).config };
  partial.seed = Number(opt('--seed') ?? 1);
  if (opt('--steps')) partial.steps = Number(opt('--steps'));
  for (const kv of sets) {
    const eq = kv.indexOf('=');
    partial[kv.slice(0, eq)] = parseField(kv.slice(0, eq), kv.slice(eq + 1));
  }
  const cfg = makeConfig(partial);
  const base = shippedBase(cfg.task, policyShape(cfg), cfg.temperature);
  if (typeof base === 'string') throw new Error(`no shipped base: ${base}`);
  const engine = await createNodeEngine(policyShape(cfg), { seed: cfg.seed, weights: base.weights });
  const run = await Run.create(engine, cfg);
  const tag = opt('--tag') ?? preset;
  for (let s = 0; s < cfg.steps; s++) {
    const f = await run.step();
    console.log(JSON.stringify({ tag, preset, seed: cfg.seed, sets, step: f.step, scalars: f.scalars, ruleCounts: f.series['gate/rule_counts'] }));
  }
  run.dispose();
  await engine.dispose();
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exit(1);
});
