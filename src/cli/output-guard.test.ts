// --out and --samples-out never destroy input: the checks on temp folders (an input by its name, a
// symbolic or hard link to it, a file inside the followed folder, a directory, a link to nothing, two
// outputs one file, another program's file, this tool's own output), the temp files written beside
// an output, and both commands refusing with exit 2 while the input stays as it was.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../../tests/support/cli-in-process';
import { EXIT_USAGE } from './exit-codes';
import { importMain } from './import-main';
import { checkOutputs, framesOutput, samplesOutput } from './output-guard';
import { replaceText } from './temp-file';
import { FramesFile } from './watch/frames-file';
import { SamplesFile } from './samples-out';
import type { DiscoverySnapshot, SampleRecord } from '../core/import/index';
import type { MetricsFrame } from '../core/metrics';

const ROOT = join(import.meta.dirname, '../..');
const EX = join(ROOT, 'public/examples');
const rules = ['--states', join(EX, 'states.json'), '--behaviors', join(EX, 'behaviors-regex.json')];
const FRAME = '{"step":1,"support/token_entropy":0.5,"series":[1,2]}\n';
const SAMPLE = '{"step":1,"file":"1.jsonl","index":0,"state":"math","behavior":"list","reward":1}\n';
const ROLLOUT = '{"input":"p0","output":"r0","score":1,"step":20}\n';

/** A fresh folder with a followed run of two step files. */
function scratch(): { dir: string; run: string } {
  const dir = mkdtempSync(join(tmpdir(), 'invlab-outguard-'));
  const run = join(dir, 'run');
  mkdirSync(run);
  writeFileSync(join(run, '19.jsonl'), ROLLOUT);
  writeFileSync(join(run, '20.jsonl'), ROLLOUT);
  return { dir, run };
}

describe('output files checked before anything is written', () => {
  it('an input, by its name or through a symbolic or hard link, is refused even with --overwrite', () => {
    const { dir, run } = scratch();
    const input = join(run, '20.jsonl');
    symlinkSync(input, join(dir, 'sym.jsonl'));
    linkSync(input, join(dir, 'hard.jsonl'));
    for (const path of [input, join(dir, 'sym.jsonl'), join(dir, 'hard.jsonl')]) {
      const c = checkOutputs([samplesOutput(path)], { files: [input] }, true);
      expect(c.problems, path).toEqual([`--samples-out ${path}: is the input ${input}${path === input ? '' : ' (the same file through a link)'}; writing it would destroy it: give a new file`]);
    }
    // the followed folder: its files through links too, and any name inside it (it would be read back as a step)
    expect(checkOutputs([framesOutput(join(dir, 'hard.jsonl'))], { folder: run }, true).problems[0]).toMatch(/is the input .*20\.jsonl \(the same file through a link\)/);
    expect(checkOutputs([framesOutput(join(run, 'frames.jsonl'))], { folder: run }, true).problems).toEqual([`--out ${join(run, 'frames.jsonl')}: is inside the folder followed (${run}), so the watch would read it back as a step: write it outside that folder`]);
    symlinkSync(run, join(dir, 'run-link'));
    expect(checkOutputs([framesOutput(join(dir, 'run-link', 'new.jsonl'))], { folder: run }, false).problems[0]).toMatch(/is inside the folder followed/);
    expect(readFileSync(input, 'utf8')).toBe(ROLLOUT);
  });

  it('a directory, a link to nothing, and two outputs that are one file are refused', () => {
    const { dir, run } = scratch();
    expect(checkOutputs([framesOutput(dir)], { folder: run }, true).problems).toEqual([`--out ${dir}: is a directory, expected a file (say the file to write, e.g. ${join(dir, 'frames.jsonl')})`]);
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling.jsonl'));
    expect(checkOutputs([framesOutput(join(dir, 'dangling.jsonl'))], { folder: run }, true).problems[0]).toMatch(/a link to a file that is not there/);
    const same = join(dir, 'same.jsonl');
    expect(checkOutputs([framesOutput(same), samplesOutput(same)], { folder: run }, false).problems).toEqual([`--samples-out ${same}: is the same file as --out: give each output its own file`]);
    writeFileSync(same, '');
    symlinkSync(same, join(dir, 'same-link.jsonl'));
    expect(checkOutputs([framesOutput(same), samplesOutput(join(dir, 'same-link.jsonl'))], { folder: run }, false).problems).toHaveLength(1);
  });

  it("another program's file is refused unless --overwrite; the tool's own output (whole, empty, its one line cut by a kill) is not", () => {
    const { dir, run } = scratch();
    const file = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));
    const foreign = file('rollouts.jsonl', ROLLOUT);
    const refused = checkOutputs([framesOutput(foreign)], { folder: run }, false);
    expect(refused.problems).toEqual([`--out ${foreign}: an existing file that --out did not write (its first line is not one of its lines); give a new file, or --overwrite to replace it`]);
    expect(checkOutputs([framesOutput(foreign)], { folder: run }, true)).toEqual({ problems: [], replaced: [expect.objectContaining({ path: foreign })] });
    // a samples file is no frames file and the other way round
    expect(checkOutputs([framesOutput(file('s.jsonl', SAMPLE))], { folder: run }, false).problems).toHaveLength(1);
    expect(checkOutputs([samplesOutput(file('f.jsonl', FRAME))], { folder: run }, false).problems).toHaveLength(1);
    const own = [framesOutput(file('frames.jsonl', FRAME + FRAME)), samplesOutput(file('samples.jsonl', SAMPLE)), framesOutput(file('empty.jsonl', '')), framesOutput(file('cut.jsonl', FRAME.slice(0, 12)))];
    expect(checkOutputs(own, { folder: run }, false)).toEqual({ problems: [], replaced: [] });
  });
});

describe('files replaced whole beside --out and --samples-out', () => {
  it('go through temp files of their own: links planted at the old temp names are neither followed nor left behind', () => {
    const { dir } = scratch();
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    const out = join(dir, 'frames.jsonl');
    const samplesPath = join(dir, 'samples.jsonl');
    for (const p of [`${out}.tmp`, `${out}.files.json.tmp`, `${out}.discover.json.tmp`, `${samplesPath}.tmp`]) symlinkSync(victim, p);
    const frames = new FramesFile(out);
    const frame = (scalar: number): MetricsFrame => ({ step: 1, version: 1, scalars: { 'support/token_entropy': scalar }, series: {}, ratioEdges: [], perf: {}, changes: {}, trace: [] });
    frames.write(frame(1), false);
    frames.write(frame(2), true); // a replaced step: the file rewritten whole
    frames.fileRead('1.jsonl', { size: 1, mtimeMs: 1 });
    frames.saveDiscovered({} as DiscoverySnapshot);
    const samples = new SamplesFile(samplesPath, '');
    const row = { step: 1, file: '1.jsonl', index: 0, state: 's', behavior: 'b', reward: 1 } as SampleRecord;
    samples.step(1, [row]);
    samples.step(1, [row]); // measured again: its lines replaced through a temp file
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(readFileSync(out, 'utf8')).toBe('{"step":1,"support/token_entropy":2}\n');
    expect(readFileSync(samplesPath, 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
    expect(readdirSync(dir).filter((n) => /\.[0-9a-f]{16}\.tmp$/.test(n))).toEqual([]);
  });

  it('a link at the name of a file replaced whole is replaced by the file, its target untouched', () => {
    const { dir } = scratch();
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    const linked = join(dir, 'linked.jsonl');
    symlinkSync(victim, linked);
    replaceText(linked, 'x');
    expect([readFileSync(victim, 'utf8'), readFileSync(linked, 'utf8')]).toEqual(['precious', 'x']);
  });
});

function watch(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/watch.ts'), ...args], { cwd: ROOT });
  let stderr = '';
  child.stderr.on('data', (b) => (stderr += b));
  return new Promise((r) => child.on('close', (code) => r({ code, stderr })));
}

describe('the commands refuse before writing anything', () => {
  it('npm run import: --samples-out or --out an input, a directory, a foreign file: exit 2, the files as they were; --overwrite replaces a foreign file', async () => {
    const { dir } = scratch();
    const run = join(dir, 'verl');
    cpSync(join(EX, 'verl'), run, { recursive: true });
    const five = readFileSync(join(run, '5.jsonl'), 'utf8');
    const imp = (args: string[]) => runInProcess(importMain, ['--format', 'verl', run, ...rules, ...args], () => 1);
    for (const args of [['--samples-out', join(run, '5.jsonl')], ['--out', join(run, '5.jsonl')], ['--out', dir]]) {
      const r = await imp(args);
      expect(r.code, args.join(' ')).toBe(EXIT_USAGE);
      expect(r.stderr, args.join(' ')).toMatch(args[1] === dir ? /--out .*: is a directory, expected a file/ : /is the input .*5\.jsonl.*writing it would destroy it/);
      expect(r.stderr).not.toMatch(/EISDIR|\n\s+at /);
    }
    const notes = join(dir, 'notes.jsonl');
    writeFileSync(notes, ROLLOUT);
    expect((await imp(['--out', notes])).stderr).toMatch(/an existing file that --out did not write/);
    expect(readFileSync(notes, 'utf8')).toBe(ROLLOUT);
    expect(readFileSync(join(run, '5.jsonl'), 'utf8')).toBe(five);
    expect((await imp(['--out', notes, '--overwrite'])).code).toBe(0);
    expect(readFileSync(notes, 'utf8')).toMatch(/^\{"step":1,/);
    // its own output is written again without --overwrite
    expect((await imp(['--out', notes])).code).toBe(0);
  }, 120_000);

  it('npm run watch: --out inside the followed folder, --samples-out an input through a link, --out DIR: exit 2, nothing written', async () => {
    const { dir, run } = scratch();
    symlinkSync(join(run, '19.jsonl'), join(dir, 'link.jsonl'));
    for (const [args, says] of [
      [['--out', join(run, '20.jsonl')], /--out .*20\.jsonl: is the input .*20\.jsonl; writing it would destroy it/],
      [['--out', join(dir, 'frames.jsonl'), '--samples-out', join(dir, 'link.jsonl')], /--samples-out .*link\.jsonl: is the input .*19\.jsonl \(the same file through a link\)/],
      [['--out', dir], /--out .*: is a directory, expected a file/],
    ] as const) {
      const r = await watch(['--format', 'verl', run, ...rules, ...args, '--idle-exit', '1']);
      expect(r.code, r.stderr).toBe(EXIT_USAGE);
      expect(r.stderr).toMatch(says);
      expect(r.stderr).not.toMatch(/EISDIR|\n\s+at /);
    }
    expect([readFileSync(join(run, '19.jsonl'), 'utf8'), readFileSync(join(run, '20.jsonl'), 'utf8')]).toEqual([ROLLOUT, ROLLOUT]);
    expect(existsSync(join(dir, 'frames.jsonl'))).toBe(false);
    // --overwrite: another program's file is replaced by the frames, not resumed from
    const notes = join(dir, 'notes.jsonl');
    writeFileSync(notes, ROLLOUT);
    const r = await watch(['--format', 'verl', run, ...rules, '--out', notes, '--overwrite', '--idle-exit', '1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`--out ${notes}: replaced (--overwrite)`);
    expect(readFileSync(notes, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { step: number }).step)).toEqual([20]); // both step files say step 20
  }, 120_000);
});
