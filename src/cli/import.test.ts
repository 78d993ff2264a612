// `npm run import` end to end on the shipped examples: one line per step equal to the core's
// frames, the same behavior-support series from every format, --gate, and exit codes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../../tests/support/cli-in-process';
import { parseTaskSpec } from '../core/tasks/validate';
import { importMain } from './import-main';
import { exitCodeOf, labMain } from './lab-main';

const ROOT = join(import.meta.dirname, '../..');
const EX = join(ROOT, 'public/examples');
const dir = mkdtempSync(join(tmpdir(), 'invlab-import-'));

/** `npm run import` as a process: kept where the exit code the shell sees is the point. */
function spawnCli(args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/import.ts'), ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, stderr: r.stderr };
}
/** `npm run import` in process (importMain: what the command runs; a process costs about 1 s of CPU more). */
const cli = (args: string[]) => runInProcess(importMain, args, () => 1);
const lines = (f: string) => readFileSync(f, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, number | number[]>);

describe('npm run import', () => {
  it('every example format gives the same behavior-support series; --gate adds the funnel', async () => {
    const runs: [string, string[], string][] = [
      ['openclaw', [join(EX, 'openclaw')], 'behaviors-tools.json'],
      ['verl', [join(EX, 'verl')], 'behaviors-regex.json'],
      ['trl', [join(EX, 'trl')], 'behaviors-regex.json'],
      ['jsonl', [join(EX, 'generic.jsonl')], 'behaviors-regex.json'],
    ];
    const gate = join(dir, 'grpo.gate');
    writeFileSync(gate, 'group_reward_std == 0 => drop # zero-variance group\ntrue => mask1 rl_zscore\n');
    const support: Record<string, unknown> = {};
    const rewardVar: Record<string, unknown> = {};
    for (const [fmt, files, beh] of runs) {
      const out = join(dir, `${fmt}.jsonl`);
      const args = ['--format', fmt, ...files, '--states', join(EX, 'states.json'), '--behaviors', join(EX, beh), '--out', out, '--gate', gate];
      // the first as a process, the others in process: the lines must agree
      const r = fmt === 'openclaw' ? spawnCli(args) : await cli(args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/1280 samples in 20 steps.*0 issues/);
      const rows = lines(out);
      expect(rows.map((x) => x.step)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      support[fmt] = rows.map((x) => ['math', 'code', 'explain'].map((s) => x[`support/behavior_support/${s}`]));
      // verl/TRL group by prompt (= state here); OpenClaw sessions and the generic file's one-sample
      // groups carry no within-group variance, so those steps are bucketed by state: the same numbers
      rewardVar[fmt] = rows.map((x) => [x['grad/reward_var'], x['grad/zero_std_frac']].map((v) => Number(v).toFixed(9)));
      expect(rows.every((x) => x['esr/served'] === 64 && Array.isArray(x['gate/rule_counts']))).toBe(true);
    }
    expect(support.verl).toEqual(support.openclaw);
    expect(support.trl).toEqual(support.openclaw);
    expect(support.jsonl).toEqual(support.openclaw);
    for (const fmt of ['openclaw', 'trl', 'jsonl']) expect(rewardVar[fmt], fmt).toEqual(rewardVar.verl);
    expect((rewardVar.verl as string[][]).every(([v]) => Number(v) > 0.1)).toBe(true);
  });

  it('bad arguments exit 2 with the reason; an unknown format exits 1 naming what was expected', async () => {
    const bad = spawnCli(['--format', 'csv', join(EX, 'generic.jsonl'), '--out', join(dir, 'x.jsonl')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--format: expected one of openclaw, verl, trl, jsonl, got csv/);
    writeFileSync(join(dir, 'gate.txt'), 'scroe == 0 => drop\n');
    const g = await cli([join(EX, 'generic.jsonl'), '--gate', join(dir, 'gate.txt'), '--out', join(dir, 'x.jsonl')]);
    expect(g.code).toBe(2);
    expect(g.stderr).toMatch(/rule 1, character 1: unknown field "scroe"/);
    writeFileSync(join(dir, 'odd.jsonl'), '{"foo": 1}\n');
    const u = spawnCli([join(dir, 'odd.jsonl'), '--out', join(dir, 'x.jsonl')]);
    expect(u.code).toBe(1);
    expect(u.stderr).toMatch(/unknown format: the first record has fields \{foo\}; expected one of/);
  });

  it('--reward names the judge\'s score (verl\'s acc) and says so; a bad threshold exits 2', async () => {
    const r = await cli(['--format', 'verl', join(EX, 'verl'), '--states', join(EX, 'states.json'), '--behaviors', join(EX, 'behaviors-regex.json'), '--reward', 'acc', '--out', join(dir, 'acc.jsonl')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/reward: field acc, token entropy/);
    const bad = await cli([join(EX, 'generic.jsonl'), '--reward', 'reward', '--reward-threshold', '0.2,0.9', '--out', join(dir, 'x.jsonl')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--reward threshold: τ' \(0\.9\) must not be above τ \(0\.2\)/);
  });

  it('--fit-task writes a fitted task spec that validates, prints what the fit could not know, and trains', async () => {
    const spec = join(dir, 'fitted.json');
    const r = await cli([join(EX, 'verl'), '--states', join(EX, 'states.json'), '--behaviors', join(EX, 'behaviors-regex.json'), '--fit-task', spec, '--fit-name', 'verl example']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/fitted task "verl example" \(single-turn, 3 states × 4 behaviors; base mix from steps 1\.\.1, judge truth from steps 1\.\.20\)/);
    expect(r.stderr).toMatch(/\? states\[\]\.gold: a log has no gold/);
    // the fit's settings on the line that says how to train it
    expect(r.stderr).toMatch(/Train it: npm run lab -- --task-file \S+ --set judgeNoise=0\n/);
    const parsed = parseTaskSpec(readFileSync(spec, 'utf8'));
    expect(parsed.errors).toEqual([]);
    const lab = await runInProcess(labMain, ['--task-file', spec, '--set', 'judgeNoise=0', '--engine', 'tabular', '--steps', '2', '--pretrain-steps', '20', '--out', join(dir, 'fitted-run.jsonl')], exitCodeOf);
    expect(lab.code, lab.stderr).toBe(0);
    expect(lines(join(dir, 'fitted-run.jsonl')).filter((x) => typeof x.step === 'number').map((x) => x['support/behavior_support/math'] !== undefined)).toEqual([true, true]);
    const bad = await cli([join(EX, 'verl'), '--fit-task', spec, '--fit-base-steps', '5..2']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--fit-base-steps needs a step or a window FIRST\.\.LAST/);
    expect((await cli([join(EX, 'verl'), '--out', join(dir, 'x.jsonl'), '--fit-name', 'x'])).stderr).toMatch(/need --fit-task FILE/);
  }, 60_000);
});
