// Issue 16 §5: command-line numbers are strict decimals in every CLI (flags and scheduler variables),
// and a bad value is a usage error (exit 2) before anything trains.
import { spawnSync } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { scaled } from '../../tests/support/speed';
import { UsageError, arrayIndex, baseFlags, parseCommandLine, parseFlags, wholeNumber } from './args';
import { parseLabArgs } from './lab-args';
import { pretrainArgs } from './pretrain';

const usage = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e instanceof UsageError ? e.message : `not a usage error: ${String(e)}`;
  }
  return 'accepted';
};

describe('strict integers', () => {
  it('--index, SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX take decimal digits only', () => {
    for (const bad of ['0x1', ' 1', '1 ', '1e0', '+1', '1.0', '0b1', '١']) {
      expect(usage(() => arrayIndex(bad, {})), bad).toMatch(/^--index needs a whole number ≥ 0, got /);
      expect(usage(() => arrayIndex(undefined, { SLURM_ARRAY_TASK_ID: bad })), bad).toMatch(/^SLURM_ARRAY_TASK_ID needs a whole number/);
      expect(usage(() => arrayIndex(undefined, { JOB_COMPLETION_INDEX: bad })), bad).toMatch(/^JOB_COMPLETION_INDEX needs a whole number/);
    }
    expect(arrayIndex('01', {})).toBe(1);
    expect(arrayIndex(undefined, { SLURM_ARRAY_TASK_ID: '', JOB_COMPLETION_INDEX: '3' })).toBe(3);
    expect(arrayIndex('2', { SLURM_ARRAY_TASK_ID: '5' })).toBe(2);
    expect(usage(() => arrayIndex(undefined, {}))).toMatch(/give --index I/);
    expect(usage(() => wholeNumber('--a', '99999999999999999999'))).toMatch(/whole number/);
  });

  it('--pretrain-lr abc is a usage error, not a run on NaN; so are a negative or empty one', () => {
    for (const bad of ['abc', 'NaN', 'Infinity', '-1', '0', '', '0x1']) expect(usage(() => baseFlags({ 'pretrain-lr': bad })), bad).toMatch(/^--pretrain-lr needs a number > 0/);
    expect(baseFlags({ 'pretrain-lr': '3e-3', 'pretrain-steps': '20' })).toEqual({ base: undefined, pretrainLr: 0.003, pretrainSteps: 20 });
    expect(usage(() => parseLabArgs(['--pretrain-lr', 'abc']))).toMatch(/--pretrain-lr needs a number > 0, got "abc"/);
  });

  it('the lab CLI: --steps and --seed are the schema settings (digits, the schema range)', () => {
    expect(usage(() => parseLabArgs(['--seed', ' 1']))).toMatch(/--seed needs a whole number/);
    // one rule, one message for every bad value (issue 24: 0 and -1 got two different rules)
    for (const bad of ['0', '-1', '100001', '1.5', 'abc']) expect(usage(() => parseLabArgs(['--steps', bad])), bad).toBe(`--steps needs a whole number in [1, 100000], got "${bad}"`);
    expect(usage(() => parseLabArgs(['--seed', '-5']))).toMatch(/^--seed needs a whole number in \[0, \d+\], got "-5"$/);
    expect(usage(() => parseLabArgs(['--bogus']))).toMatch(/Unknown option '--bogus'/);
    expect(usage(() => parseLabArgs(['--out']))).toMatch(/--out/);
    expect(parseLabArgs(['--steps', '12', '--set', 'lr=0.1', '--set', 'seed=3', '--quiet'])).toMatchObject({ steps: 12, set: ['lr=0.1', 'seed=3'], quiet: true, engine: 'wasm' });
  });

  it('pretrain: the same strict numbers (Number() took "0x10" and trained on NaN for "abc")', () => {
    expect(usage(() => pretrainArgs(['--steps', '0x10']))).toMatch(/--steps needs a whole number ≥ 1/);
    for (const bad of ['0', '-1']) expect(usage(() => pretrainArgs(['--steps', bad])), bad).toBe(`--steps needs a whole number ≥ 1, got "${bad}"`);
    expect(usage(() => pretrainArgs(['--lr', 'abc']))).toMatch(/--lr needs a number > 0/);
    expect(usage(() => pretrainArgs(['--task', 'constructor']))).toMatch(/--task must be one of/);
    expect(pretrainArgs([])).toEqual({ steps: 400, lr: 0.003, batch: 64, seed: 0, task: null });
  });

  it('parseFlags: a value starting with "-" reaches its own check', () => {
    expect(parseFlags(['--x', '-5'], { x: { type: 'string' } }).values.x).toBe('-5');
  });
});

describe('npm run bench -- --help', () => {
  it('prints the usage and exits 0 (it used to start the benchmark); a bad number is exit 2', { timeout: scaled(120_000) }, () => {
    const help = spawnSync(process.execPath, ['--import', 'tsx', 'src/bench/cli.ts', '--help'], { encoding: 'utf8', timeout: scaled(60_000) });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^`npm run bench` — prints one JSON object/);
    expect(help.stdout).toMatch(/--long-every N/);
    const bad = spawnSync(process.execPath, ['--import', 'tsx', 'src/bench/cli.ts', '--reps', '0x1'], { encoding: 'utf8', timeout: scaled(60_000) });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--reps needs a whole number ≥ 0, got "0x1"/);
  });
});

describe('parseCommandLine: the prologue every CLI shares', () => {
  const opts = { out: { type: 'string' } } as const;
  const run = (argv: string[]) => {
    const said: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((s: string) => void said.push(`out: ${s}`));
    const err = vi.spyOn(console, 'error').mockImplementation((s: string) => void said.push(`err: ${s}`));
    try {
      return { r: parseCommandLine(opts, 'usage: x --out F', argv), said };
    } finally {
      log.mockRestore();
      err.mockRestore();
    }
  };
  it('--help and -h print the usage on stdout and exit 0', () => {
    for (const h of ['--help', '-h']) expect(run([h, '--out', 'f'])).toEqual({ r: { exit: 0 }, said: ['out: usage: x --out F'] });
  });
  it('an unknown flag or a missing value prints the error and the usage on stderr and exits 2', () => {
    for (const bad of [['--nope'], ['--out']]) {
      const { r, said } = run(bad);
      expect(r).toEqual({ exit: 2 });
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(/^err: .*\nusage: x --out F$/s);
    }
  });
  it('a good line gives the flags and positionals, a value starting with "-" included', () => {
    const { r, said } = run(['DIR', '--out', '-f']);
    expect(said).toEqual([]);
    expect(r).toMatchObject({ values: { out: '-f' }, positionals: ['DIR'] });
  });
});
