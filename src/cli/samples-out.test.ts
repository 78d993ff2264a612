// --samples-out of `npm run import` and `npm run watch`: the file's lines against --out (the shares
// of each step's lines are the frame's behavior_dist), the same names whether a folder or its files
// are given, and a watch killed mid-run and restarted on the same --out neither loses nor repeats a line.
import { spawn } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleOfLine, sharesOf, type SampleRecord } from '../core/import/index';
import { SamplesFile, samplesRoot } from './samples-out';
import { runInProcess } from '../../tests/support/cli-in-process';
import { scaled } from '../../tests/support/speed';
import { importMain } from './import-main';

const ROOT = join(import.meta.dirname, '../..');
const EX = join(ROOT, 'public/examples');
const dir = mkdtempSync(join(tmpdir(), 'invlab-samples-'));
const rules = ['--states', join(EX, 'states.json'), '--behaviors', join(EX, 'behaviors-regex.json')];
const tsx = (script: string, args: string[]) => [process.execPath, ['--import', 'tsx', join(ROOT, script), ...args]] as const;

/** `npm run import` in process (importMain, what the command runs: a process costs about 1 s of CPU more); the watch below runs as a process, killed and restarted. */
async function importCli(args: string[]): Promise<{ status: number; stderr: string }> {
  const r = await runInProcess(importMain, args, () => 1);
  return { status: r.code, stderr: r.stderr };
}

const readSamples = (p: string): SampleRecord[] => readFileSync(p, 'utf8').split('\n').filter(Boolean).map((l) => sampleOfLine(l)!);
const readFrames = (p: string) => readFileSync(p, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, number> & { step: number });

/** Every frame's support/behavior_dist/<state>/<behavior> is the share of its step's lines. */
function expectShares(frames: ReturnType<typeof readFrames>, rows: SampleRecord[]): void {
  const shares = sharesOf(rows);
  expect([...shares.keys()].sort((a, b) => a - b)).toEqual(frames.map((f) => f.step));
  for (const f of frames)
    for (const [k, v] of Object.entries(f)) {
      const m = /^support\/behavior_dist\/([^/]+)\/([^/]+)$/.exec(k);
      if (m) expect(shares.get(f.step)!.get(m[1])?.get(m[2]) ?? 0, `step ${f.step} ${k}`).toBe(v);
    }
}

describe('--samples-out', () => {
  it('import: a folder or its files give the same lines, and their shares are the frames\' behavior_dist (verl, TRL)', async () => {
    for (const [fmt, beh] of [['verl', 'behaviors-regex.json'], ['trl', 'behaviors-regex.json']]) {
      const out = join(dir, `${fmt}-frames.jsonl`);
      const a = join(dir, `${fmt}-a.jsonl`);
      const b = join(dir, `${fmt}-b.jsonl`);
      const common = ['--format', fmt, '--states', join(EX, 'states.json'), '--behaviors', join(EX, beh)];
      expect((await importCli([...common, join(EX, fmt), '--out', out, '--samples-out', a])).status).toBe(0);
      const num = (f: string) => Number(/(\d+)\D*$/.exec(f)![1]);
      const files = readdirSync(join(EX, fmt)).sort((x, y) => num(x) - num(y)).map((f) => join(EX, fmt, f));
      expect((await importCli([...common, ...files, '--samples-out', b])).status).toBe(0);
      expect(readFileSync(b, 'utf8')).toBe(readFileSync(a, 'utf8'));
      const rows = readSamples(a);
      expect(rows[0]).toMatchObject({ step: 1, index: 0, file: fmt === 'verl' ? '1.jsonl' : 'completions_00001.parquet' });
      expectShares(readFrames(out), rows);
    }
  }, 120_000);

  it('the folder names are relative to: the folder given, else the common folder of the files', () => {
    expect(samplesRoot([join(EX, 'verl')])).toBe(join(EX, 'verl'));
    expect(samplesRoot([join(EX, 'verl/1.jsonl'), join(EX, 'verl/2.jsonl')])).toBe(join(EX, 'verl'));
    expect(samplesRoot([join(EX, 'verl/1.jsonl'), join(EX, 'openclaw/openclaw-record.jsonl')])).toBe(EX);
    expect(samplesRoot(['a/x.jsonl', 'a/b/y.jsonl'])).toBe('a');
    expect(samplesRoot(['x.jsonl'])).toBe('');
    expect(samplesRoot(['/abs/x.jsonl', 'rel/y.jsonl'])).toBe('');
  });

  it('a resumed file keeps the lines of the steps --out holds, drops the rest and a cut line; a step again replaces its lines', () => {
    const p = join(dir, 'resume.jsonl');
    const line = (step: number, index: number) => JSON.stringify({ step, file: 'a.jsonl', index, state: 's', behavior: 'b', reward: null });
    writeFileSync(p, [line(1, 0), line(1, 1), line(2, 2), line(3, 3)].map((l) => `${l}\n`).join('') + line(3, 4).slice(0, 20));
    const f = new SamplesFile(p, '', [1, 2, 7]);
    expect(f.dropped).toBe(2);
    expect(f.missing([1, 2, 7])).toEqual([7]);
    expect(readSamples(p).map((r) => [r.step, r.index])).toEqual([[1, 0], [1, 1], [2, 2]]);
    f.step(1, [{ step: 1, file: 'a.jsonl', index: 9, state: 's', behavior: 'c', reward: 1 }]);
    f.step(3, [{ step: 3, file: 'a.jsonl', index: 3, state: 's', behavior: 'c', reward: 1 }]);
    expect(readSamples(p).map((r) => [r.step, r.index])).toEqual([[2, 2], [1, 9], [3, 3]]);
    new SamplesFile(p, '');
    expect(readFileSync(p, 'utf8')).toBe('');
  });

  it('watch: killed mid-run and restarted on the same --out, the lines equal the import\'s, none lost or repeated', async () => {
    const run = join(dir, 'run');
    mkdirSync(run);
    const out = join(dir, 'watch-frames.jsonl');
    const samples = join(dir, 'watch-samples.jsonl');
    const files = readdirSync(join(EX, 'verl')).sort((a, b) => parseInt(a) - parseInt(b));
    const start = (idle: string) => {
      const [cmd, argv] = tsx('src/cli/watch.ts', ['--format', 'verl', run, ...rules, '--out', out, '--samples-out', samples, '--idle-exit', idle]);
      const child = spawn(cmd, argv, { cwd: ROOT });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (b) => (stdout += b));
      child.stderr.on('data', (b) => (stderr += b));
      const done = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
      return { child, done, out: () => stdout, err: () => stderr };
    };
    const first = start('60');
    for (const f of files.slice(0, 12)) copyFileSync(join(EX, 'verl', f), join(run, f));
    const t0 = Date.now();
    while (!/^step 8:/m.test(first.out()) && Date.now() - t0 < scaled(60_000)) await new Promise((r) => setTimeout(r, 50));
    first.child.kill('SIGKILL');
    await first.done;
    appendFileSync(samples, '{"step":12,"file":"12.jso'); // a line cut by the kill
    for (const f of files.slice(12)) copyFileSync(join(EX, 'verl', f), join(run, f));
    const again = start('3');
    expect(await again.done, again.err()).toBe(0);
    expect(again.err()).toMatch(/resuming: \d+ steps/);
    const want = join(dir, 'import-samples.jsonl');
    expect((await importCli(['--format', 'verl', join(EX, 'verl'), ...rules, '--samples-out', want])).status).toBe(0);
    const got = readSamples(samples);
    const key = (r: SampleRecord) => `${r.step} ${r.file} ${r.index}`;
    expect(got.map(key).sort()).toEqual(readSamples(want).map(key).sort());
    expect(got.sort((a, b) => a.step - b.step || a.index - b.index)).toEqual(readSamples(want));
    expectShares(readFrames(out), got);
  }, 180_000);
});
