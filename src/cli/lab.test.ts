// The CLI end to end on a small budget (tabular reference engine, so it runs in seconds). Its lines
// must equal the same run done in process (same preset, seed, settings and base pretraining).
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scaled } from '../../tests/support/speed';
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
  it('bad command lines and bad files: exit 2 or 1 before the engine starts, naming the flag, file and field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-bad-'));
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, '');
    const bom = join(dir, 'bom.json');
    writeFileSync(bom, '\uFEFF' + JSON.stringify({ title: 'BOM preset', explanation: 'x'.repeat(50), config: { task: 'strategies', lr: 'fast' } }));
    const proto = join(dir, 'proto.json');
    writeFileSync(proto, JSON.stringify({ title: 'p', explanation: 'x'.repeat(50), config: { constructor: 1 } }));
    const folder = join(dir, 'folder.json');
    mkdirSync(folder);
    const base = ['tsx', 'src/cli/lab.ts', '--engine', 'tabular', '--steps', '1', '--pretrain-steps', '2'];
    const cases: [string[], number, RegExp][] = [
      [['--set', 'lr=abc'], 2, /--set config\.lr: expected a decimal number, got "abc"/],
      [['--set', 'seed=0x10'], 2, /config\.seed: .*"0x10"/],
      [['--set', 'constructor=1'], 2, /config\.constructor: unknown setting/],
      [['--seed', '0x10'], 2, /--seed needs a whole number ≥ 0, got "0x10"/],
      [['--pretrain-steps', '-5'], 2, /--pretrain-steps needs a whole number ≥ 0, got "-5"/],
      [['--pretrain-steps', '2.5'], 2, /--pretrain-steps .*"2\.5"/],
      [['--pretrain-lr', '-1'], 2, /--pretrain-lr needs a number > 0, got "-1"/],
      [['--preset', ''], 2, /--preset needs a value, got ""/],
      [['--out', ''], 2, /--out needs a value, got ""/],
      [['--preset', empty], 1, new RegExp(`preset ${empty}: the file is empty`)],
      [['--preset', folder], 1, new RegExp(`preset ${folder}: is a directory`)],
      [['--preset', bom], 1, new RegExp(`preset ${bom}: config\\.lr: expected a number, got "fast"`)],
      [['--preset', proto], 1, /config\.constructor: unknown setting/],
      [['--preset', 'no-such-lesson'], 1, /no-such-lesson\.json: no such file/],
      [['--out', join(dir, 'missing-dir', 'run.jsonl')], 1, /--out .*run\.jsonl: cannot write \(ENOENT\)/],
    ];
    const results = await Promise.all(
      cases.map(([args]) => new Promise<{ code: number; stderr: string }>((done) => {
        execFile('npx', [...base, ...args], (err, _out, stderr) => done({ code: err ? Number((err as { code?: number }).code) : 0, stderr }));
      })),
    );
    results.forEach((r, i) => {
      const [args, code, re] = cases[i];
      expect(r.stderr, args.join(' ')).toMatch(re);
      expect(r.stderr, args.join(' ')).not.toMatch(/engine: |pretrained/);
      expect(r.code, args.join(' ')).toBe(code);
    });
  }, scaled(300_000));
});
