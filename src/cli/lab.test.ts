// The CLI end to end on a small budget (tabular reference engine, so it runs in seconds). Its lines
// must equal the same run done in process (same preset, seed, settings and base pretraining).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../core/config';
import { Run } from '../core/loop';
import { parsePreset } from '../core/presets';
import { policyShape, pretrainBase } from '../core/pretrain';
import { TASKS } from '../core/tasks/index';
import { createTabularEngine } from '../../tests/support/tabular-engine';

/** The CLI's run, in process: the tabular engine, base pretrained as lab.ts does for --engine tabular. */
async function inProcess(preset: string, over: Record<string, unknown>, pretrainSteps: number) {
  const file = join(import.meta.dirname, '../../public/presets', `${preset}.json`);
  const cfg = makeConfig({ ...parsePreset(preset, JSON.parse(readFileSync(file, 'utf8'))).config, ...over });
  const engine = createTabularEngine(policyShape(cfg));
  await pretrainBase(engine, TASKS[cfg.task], cfg.seed, { steps: pretrainSteps, batch: 64, lr: 0.05, temperature: cfg.temperature });
  await engine.setWeights(await engine.getWeights());
  const run = await Run.create(engine, cfg);
  const frames = [];
  for (let s = 0; s < cfg.steps; s++) frames.push(await run.step());
  run.dispose();
  return { cfg, frames };
}

describe('npm run lab', () => {
  it('runs a preset and writes one line per step (equal to the same run in process) plus a summary', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'lab-')), 'run.jsonl');
    execFileSync('npx', ['tsx', 'src/cli/lab.ts', '--engine', 'tabular', '--preset', 'f-combine-gating', '--steps', '3', '--seed', '2', '--set', 'lr=0.05', '--pretrain-steps', '50', '--out', out, '--quiet'], { stdio: 'pipe' });
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(4);
    const ref = await inProcess('f-combine-gating', { steps: 3, seed: 2, lr: 0.05 }, 50);
    expect(lines[3].summary.config).toEqual(ref.cfg);
    expect(lines[3].summary.steps).toBe(3);
    ref.frames.forEach((f, i) => {
      expect(lines[i].step).toBe(f.step);
      for (const [k, v] of Object.entries(f.scalars)) expect(lines[i][k], `step ${f.step} ${k}`).toBe(JSON.parse(JSON.stringify(v)));
    });
  });
  it('rejects a bad --set naming the field', () => {
    expect(() => execFileSync('npx', ['tsx', 'src/cli/lab.ts', '--engine', 'tabular', '--set', 'clipLow=7'], { stdio: 'pipe' })).toThrow(/config\.clipLow/);
  });
});
