// Writes the example logs of public/examples/ from a lab run recorded with its traces:
//   npm run lab -- --preset a-support-collapse --steps 20 --seed 1 --trace --out run.jsonl
//   npx tsx src/cli/examples.ts --run run.jsonl --preset a-support-collapse --seed 1 --out public/examples
// Every format the importer reads (OpenClaw-RL record + PRM, verl step files, TRL parquet, generic
// JSONL) plus the rules that reproduce the lab's classifier (states.json, behaviors-*.json).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { makeConfig } from '../core/config';
import { exportRun, labRules, type StepTraces } from '../core/import/formats/export';
import type { SampleTrace } from '../core/metrics';
import { parsePreset } from '../core/presets';
import { trlParquet } from '../io/trl-parquet';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const { values: v } = parseArgs({ options: { run: { type: 'string' }, preset: { type: 'string' }, seed: { type: 'string' }, out: { type: 'string' } } });
if (!v.run || !v.preset || !v.out) {
  console.error('usage: npx tsx src/cli/examples.ts --run RUN.jsonl --preset NAME --out DIR');
  process.exit(2);
}
const preset = parsePreset(v.preset, JSON.parse(readFileSync(join(root, 'public/presets', `${v.preset}.json`), 'utf8')));
const config = makeConfig({ ...preset.config, ...(v.seed ? { seed: Number(v.seed) } : {}) });
const steps: StepTraces[] = readFileSync(v.run, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as { step?: number; trace?: SampleTrace[] })
  .filter((f): f is { step: number; trace?: SampleTrace[] } => typeof f.step === 'number') // the last line is the run summary
  .map((f) => {
    if (!f.trace) throw new Error(`${v.run}: step ${f.step} has no trace (record the run with --trace)`);
    return { step: f.step, traces: f.trace };
  });
const out = v.out;
const write = (rel: string, data: string | Uint8Array) => {
  mkdirSync(dirname(join(out, rel)), { recursive: true });
  writeFileSync(join(out, rel), data);
};
const index: Record<string, string[]> = { openclaw: [], verl: [], trl: [], jsonl: [] };
const put = (fmt: string, rel: string, data: string | Uint8Array) => {
  write(rel, data);
  index[fmt].push(rel);
};
for (const f of exportRun(steps, config, 'openclaw', 'openclaw-record')) put('openclaw', `openclaw/${f.name}`, f.text);
for (const f of exportRun(steps, config, 'verl')) put('verl', `verl/${f.name}`, f.text);
for (const f of exportRun(steps, config, 'jsonl', 'generic')) put('jsonl', f.name, f.text);
for (const { step, traces } of steps) {
  const { name, bytes } = trlParquet(config, traces, step);
  put('trl', `trl/${name}`, bytes);
}
const tools = labRules(config, 'tools');
const regex = labRules(config, 'regex');
write('states.json', JSON.stringify(tools.states, null, 2) + '\n');
write('behaviors-tools.json', JSON.stringify(tools.behaviors, null, 2) + '\n');
write('behaviors-regex.json', JSON.stringify(regex.behaviors, null, 2) + '\n');
// the lab's "load example" list: files per format and the rules that fit them
write('index.json', JSON.stringify({ source: `${v.preset}, ${config.task}, ${config.method}, seed ${config.seed}, ${steps.length} steps`, files: index, states: 'states.json', behaviors: { openclaw: 'behaviors-tools.json', verl: 'behaviors-regex.json', trl: 'behaviors-regex.json', jsonl: 'behaviors-regex.json' } }, null, 1) + '\n');
console.error(`${steps.length} steps, ${steps.reduce((a, s) => a + s.traces.length, 0)} samples of ${config.task} (${config.method}) → ${out}`);
