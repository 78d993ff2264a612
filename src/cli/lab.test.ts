// The CLI end to end on a small budget (tabular reference engine, so it runs in seconds). Its lines
// must equal the same run done in process (same preset, seed, settings and base pretraining).
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../../tests/support/cli-in-process';
import { scaled } from '../../tests/support/speed';
import { makeConfig } from '../core/config';
import { Run } from '../core/loop';
import { parsePreset } from '../core/presets';
import { policyShape, pretrainBase } from '../core/pretrain';
import { BUILTIN_TASKS } from '../core/tasks/builtin';
import { createTabularEngine } from '../engine/tabular/tabular-engine';
import { EXIT_NON_FINITE } from './exit-codes';
import { exitCodeOf, labMain } from './lab-main';

/** `npm run lab` in process (labMain): the exit code and stderr its process would end with (what it logs, then the error's message). */
async function inProcessCli(argv: string[]): Promise<{ code: number; stderr: string }> {
  const { code, stderr } = await runInProcess(labMain, argv, exitCodeOf);
  return { code, stderr };
}

/** The CLI's run, in process: the tabular engine, base pretrained as lab.ts does for --engine tabular. */
async function inProcess(preset: string, over: Record<string, unknown>, pretrainSteps: number) {
  const file = join(import.meta.dirname, '../../public/presets', `${preset}.json`);
  const cfg = makeConfig({ ...parsePreset(preset, JSON.parse(readFileSync(file, 'utf8'))).config, ...over });
  const engine = createTabularEngine(policyShape(cfg));
  await pretrainBase(engine, BUILTIN_TASKS[cfg.task], cfg.seed, { steps: pretrainSteps, batch: 64, lr: 0.05, temperature: cfg.temperature });
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
    execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/lab.ts', '--engine', 'tabular', '--preset', 'f-combine-gating', '--steps', '3', '--seed', '2', '--set', 'lr=0.05', '--pretrain-steps', '50', '--out', out, '--quiet'], { stdio: 'pipe' });
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
  it('a run that hits a non-finite metric exits with EXIT_NON_FINITE and its summary reports the steps actually taken', async () => {
    // an absurd learning rate (no gradient clip, 16 passes per batch, near-greedy sampling) on the
    // tiny transformer: its gradient norm goes NaN within a few steps (the tabular engine stays finite)
    const out = join(mkdtempSync(join(tmpdir(), 'lab-nan-')), 'run.jsonl');
    const set = ['dModel=16', 'layers=1', 'heads=2', 'mlp=32', 'rolloutBatch=8', 'behaviorSamples=8', 'lr=10', 'maxGradNorm=0', 'temperature=0.05', 'updatesPerRollout=16'];
    const r = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      execFile(process.execPath, ['--import', 'tsx', 'src/cli/lab.ts', '--engine', 'wasm', '--steps', '20', '--pretrain-steps', '10', ...set.flatMap((x) => ['--set', x]), '--out', out, '--quiet'], (err, stdout, stderr) =>
        done({ code: err ? Number((err as { code?: number }).code) : 0, stdout, stderr }),
      );
    });
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const frames = lines.slice(0, -1);
    const summary = lines.at(-1)!.summary as { steps: number; stepsTaken: number; stoppedBy: string };
    expect(r.stderr).toMatch(new RegExp(`stopped at step ${frames.length}: non-finite metric`));
    expect(r.code).toBe(EXIT_NON_FINITE);
    expect(frames.length).toBeLessThan(20);
    expect(frames.map((f) => f.step)).toEqual(frames.map((_, i) => i + 1)); // the non-finite frame is the last line before the summary
    expect(summary.steps).toBe(20); // asked for
    expect(summary.stepsTaken).toBe(frames.length); // taken
    expect(summary.stoppedBy).toMatch(new RegExp(`^non-finite .* at step ${frames.length}$`));
    // the printed summary and the frame lines keep the non-finite value ("NaN"), not null
    expect(JSON.stringify(frames.at(-1))).toMatch(/"(NaN|-?Infinity)"/);
    expect(r.stdout).not.toMatch(/: null/);
  }, scaled(300_000));
  it('rejects a bad --set naming the field', () => {
    expect(() => execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/lab.ts', '--engine', 'tabular', '--set', 'clipLow=7'], { stdio: 'pipe' })).toThrow(/config\.clipLow/);
  });
  it('--gate FILE.json and repeatable --gate-rule set the gate (rules first, then the file) and it decides the samples', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-'));
    const file = join(dir, 'gate.json');
    writeFileSync(file, JSON.stringify({ name: 'all rl', rules: ['!has_next_state => mask0 # no next state', { when: 'true', then: 'mask1 rl', label: 'all' }] }));
    const out = join(dir, 'run.jsonl');
    execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/lab.ts', '--engine', 'tabular', '--steps', '1', '--pretrain-steps', '10', '--set', 'task=assistant', '--set', 'judgeNoise=0.5',
      '--gate-rule', 'votes_pos > 0 && votes_neg > 0 => drop # votes disagree', '--gate-rule', 'score < 0 => mask0', '--gate', file, '--out', out, '--quiet'], { stdio: 'pipe' });
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[1].summary.config.gate).toBe('votes_pos > 0 && votes_neg > 0 => drop # votes disagree\nscore < 0 => mask0\n!has_next_state => mask0 # no next state\ntrue => mask1 rl # all');
    const counts: number[] = lines[0].series['gate/rule_counts'];
    expect(counts).toHaveLength(5);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(lines[0]['esr/served']);
  });
  it('rejects a bad --gate-rule or --gate file naming the rule or file, with position and reason', async () => {
    // in process (the bad --set test above and the one below run the process)
    const err = async (args: string[]) => {
      const r = await inProcessCli(['--engine', 'tabular', ...args]);
      return r.code === 0 ? 'no error' : `exit ${r.code}: ${r.stderr}`;
    };
    expect(await err(['--gate-rule', 'true => mask1 rl', '--gate-rule', 'votes_pso > 0 => drop'])).toMatch(/^exit 2: --gate-rule "votes_pso > 0 => drop": rule 2, character 1: unknown field "votes_pso".*votes_pos/);
    const file = join(mkdtempSync(join(tmpdir(), 'lab-')), 'bad.json');
    writeFileSync(file, JSON.stringify({ rules: ['true => mask1 rl', 'score > => drop'] }));
    expect(await err(['--gate', file])).toMatch(new RegExp(`^exit 1: --gate ${file.replace(/[.\\/]/g, '\\$&')}: rule 2, character \\d+: `));
    expect(await err(['--gate', file + '.missing'])).toMatch(/^exit 1: --gate .*missing: no such file$/m);
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
    const base = ['--engine', 'tabular', '--steps', '1', '--pretrain-steps', '2'];
    const cases: [string[], number, RegExp][] = [
      [['--set', 'lr=abc'], 2, /--set config\.lr: expected a decimal number, got "abc"/],
      [['--set', 'seed=0x10'], 2, /config\.seed: .*"0x10"/],
      [['--set', 'constructor=1'], 2, /config\.constructor: unknown setting/],
      [['--seed', '0x10'], 2, /--seed needs a whole number in \[0, 2147483647\], got "0x10"/],
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
    // in process (labMain, what the command runs; a Node process costs about 0.7 s of CPU): the
    // error it ends with, its exit code, and anything written before it
    const results: { code: number; stderr: string }[] = [];
    for (const [args] of cases) results.push(await inProcessCli([...base, ...args]));
    results.forEach((r, i) => {
      const [args, code, re] = cases[i];
      expect(r.stderr, args.join(' ')).toMatch(re);
      expect(r.stderr, args.join(' ')).not.toMatch(/engine: |pretrained/);
      expect(r.code, args.join(' ')).toBe(code);
    });
    // and as processes, one of each exit code: the same message on stderr and the same exit code
    const spawned = await Promise.all([0, 9].map((i) => new Promise<{ code: number; stderr: string }>((done) => {
      execFile(process.execPath, ['--import', 'tsx', 'src/cli/lab.ts', ...base, ...cases[i][0]], (err, _out, stderr) => done({ code: err ? Number((err as { code?: number }).code) : 0, stderr }));
    })));
    expect(spawned).toEqual([results[0], results[9]]);
  }, scaled(300_000));
});
