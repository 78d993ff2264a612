// The CLI pauses, forks and resumes on the core's run session (tabular engine, so it runs in
// seconds): a run stopped at a step and resumed from its snapshot file writes the same lines as the
// uninterrupted run, bit for bit; a fork continues from the run's state at its fork step (equal
// settings: equal lines; a changed setting: other lines); bad uses are refused naming the flag.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../../tests/support/cli-in-process';
import { scaled } from '../../tests/support/speed';
import { EXIT_ERROR, EXIT_USAGE } from './exit-codes';
import { exitCodeOf, labMain } from './lab-main';

const RUN = ['--import', 'tsx', 'src/cli/lab.ts', '--engine', 'tabular', '--quiet'];
const BASE = ['--preset', 'f-combine-gating', '--seed', '2', '--set', 'lr=0.05', '--set', 'updatesPerRollout=2', '--pretrain-steps', '50'];

/** `npm run lab` as a process: the resume reads a snapshot another process wrote. */
function cli(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [...RUN, ...args], (err, _out, stderr) => done({ code: err ? Number((err as { code?: number }).code) : 0, stderr }));
  });
}
/** `npm run lab` in process (labMain, what the command runs), one call at a time: a process costs about 1 s of CPU more. */
const inProcess = (args: string[]) => runInProcess(labMain, ['--engine', 'tabular', '--quiet', ...args], exitCodeOf);

type Line = Record<string, unknown> & { step?: number; summary?: Record<string, unknown> };
const lines = (file: string): Line[] => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);
/** A frame's line without its wall-clock figures (perf/*), which no two runs share. */
const exact = (l: Line) => JSON.stringify(Object.fromEntries(Object.entries(l).filter(([k]) => !k.startsWith('perf/'))));

describe('npm run lab: stop, resume, fork', () => {
  it('--stop-at + --snapshot, then --resume: the resumed lines equal the uninterrupted run bit for bit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-resume-'));
    const [full, first] = await Promise.all([
      cli([...BASE, '--steps', '6', '--out', join(dir, 'full.jsonl')]),
      cli([...BASE, '--steps', '6', '--stop-at', '3', '--out', join(dir, 'a.jsonl'), '--snapshot', join(dir, 'at3.json')]),
    ]);
    expect(full.code, full.stderr).toBe(0);
    expect(first.code, first.stderr).toBe(0);
    const a = lines(join(dir, 'a.jsonl'));
    expect(a.map((l) => l.step ?? 'summary')).toEqual([1, 2, 3, 'summary']);
    expect(a[3].summary).toMatchObject({ steps: 6, stepsTaken: 3 });
    const second = await cli(['--resume', join(dir, 'at3.json'), '--out', join(dir, 'b.jsonl')]);
    expect(second.code, second.stderr).toBe(0);
    const want = lines(join(dir, 'full.jsonl'));
    const b = lines(join(dir, 'b.jsonl'));
    expect(b.map((l) => l.step ?? 'summary')).toEqual([4, 5, 6, 'summary']);
    expect(b.slice(0, 3).map(exact)).toEqual(want.slice(3, 6).map(exact));
    expect(a.slice(0, 3).map(exact)).toEqual(want.slice(0, 3).map(exact));
    expect(b[3].summary!.config).toEqual(want[6].summary!.config);
  }, scaled(240_000));

  it('--fork-at T: the fork continues from the run at T; equal settings give equal lines, a changed one other lines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-fork-'));
    const fork = (name: string, set: string[]) => inProcess([...BASE, '--steps', '6', '--out', join(dir, `${name}.jsonl`), '--fork-at', '3', '--fork-out', join(dir, `${name}-fork.jsonl`), ...set]);
    const results = [await fork('same', []), await fork('lr', ['--fork-set', 'lr=0.5'])];
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const run = lines(join(dir, 'same.jsonl'));
    const same = lines(join(dir, 'same-fork.jsonl'));
    expect(run.map((l) => l.step ?? 'summary')).toEqual([1, 2, 3, 4, 5, 6, 'summary']);
    expect(same.map((l) => l.step ?? 'summary')).toEqual([4, 5, 6, 'summary']);
    expect(same.slice(0, 3).map(exact)).toEqual(run.slice(3, 6).map(exact));
    const changed = lines(join(dir, 'lr-fork.jsonl'));
    expect(changed[3].summary).toMatchObject({ forkedAt: 3, stepsTaken: 6 });
    expect((changed[3].summary!.config as { lr: number }).lr).toBe(0.5);
    // the run itself is the same in both invocations; the fork with lr 0.5 trains otherwise
    expect(lines(join(dir, 'lr.jsonl')).slice(0, 6).map(exact)).toEqual(run.slice(0, 6).map(exact));
    expect(changed[2]['train/loss']).not.toBe(run[5]['train/loss']);
  }, scaled(240_000));

  it('refuses what cannot be: a bad snapshot file (exit 1), fixed settings on a resume or a fork, a fork past the end (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-bad-resume-'));
    const notSnap = join(dir, 'x.json');
    writeFileSync(notSnap, JSON.stringify({ hello: 1 }));
    const cases: [string[], number, RegExp][] = [
      [['--resume', notSnap], EXIT_ERROR, new RegExp(`--resume ${notSnap.replace(/[.\\/]/g, '\\$&')}: not a run snapshot`)],
      [['--resume', join(dir, 'missing.json')], EXIT_ERROR, /--resume .*missing\.json: no such file/],
      [['--resume', notSnap, '--seed', '3'], EXIT_USAGE, /--resume continues the snapshot's run: its seed cannot be set/],
      [[...BASE, '--steps', '6', '--fork-at', '3', '--fork-out', join(dir, 'f.jsonl'), '--fork-set', 'seed=4'], EXIT_USAGE, /--fork-set: seed fix the run/],
      [[...BASE, '--steps', '6', '--fork-at', '6', '--fork-out', join(dir, 'f.jsonl')], EXIT_USAGE, /--fork-at 6: the run ends at step 6/],
      [[...BASE, '--fork-at', '2'], EXIT_USAGE, /--fork-at and --fork-out go together/],
    ];
    const results = [];
    for (const [args] of cases) results.push(await inProcess(args));
    results.forEach((r, i) => {
      const [args, code, re] = cases[i];
      expect(r.stderr, args.join(' ')).toMatch(re);
      expect(r.code, args.join(' ')).toBe(code);
    });
  }, scaled(240_000));
});
