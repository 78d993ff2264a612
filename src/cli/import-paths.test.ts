// `npm run import DIR` reads every folder `npm run watch DIR` reads (import-paths.ts and the follower
// share src/core/import/read/run-folder.ts): for each layout the follower knows (verl step files,
// TRL completions/, OpenClaw's live record + PRM files, OpenClaw kept as step_NNNN/ snapshot
// folders), written as the trainer lays it out with other files beside it, the import reads
// exactly the files the follower reads, and all of the run's samples; a folder with nothing to read
// names every file seen and why.
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../../tests/support/cli-in-process';
import { EXAMPLES } from '../../tests/support/example-import';
import { makeStyledCorpus } from '../../tests/support/discover-styles';
import { DISCOVER_BEHAVIORS, DISCOVER_STATES, RunFollower, type FormatId } from '../core/import/index';
import { nodeRegexEngine } from '../io/regex/node';
import { openParquet } from '../io/hyparquet';
import { importMain } from './import-main';
import { importPaths } from './import-paths';
import { nodeFolder } from './watch/node-fs';

const root = mkdtempSync(join(tmpdir(), 'invlab-import-paths-'));
const cli = (args: string[]) => runInProcess(importMain, args, () => 1);

function write(dir: string, files: Iterable<[string, string | Uint8Array]>): void {
  for (const [path, body] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), body);
  }
}

/** A folder as the writer lays it out: the example run's files at `under/`, with a config and notes beside them. */
function exampleFolder(name: string, format: FormatId, under: string): string {
  const dir = join(root, name);
  const files: Record<FormatId, string[]> = {
    verl: Array.from({ length: 20 }, (_, i) => `verl/${i + 1}.jsonl`),
    trl: Array.from({ length: 20 }, (_, i) => `trl/completions_${String(i + 1).padStart(5, '0')}.parquet`),
    openclaw: ['openclaw/openclaw-record.jsonl', 'openclaw/openclaw-record_prm.jsonl'],
    jsonl: ['generic.jsonl'],
  };
  for (const f of files[format]) {
    const to = join(dir, under, f.slice(f.indexOf('/') + 1));
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(join(EXAMPLES, f), to);
  }
  write(dir, [['config.yaml', 'trainer: {}\n'], ['notes/README.md', '# run\n']]);
  return dir;
}

/** The files the follower reads of the folder (its progress after the end), relative to it; its notices into `notices`. */
async function followedFiles(dir: string, format: FormatId, notices: string[] = []): Promise<string[]> {
  const f = new RunFollower(nodeFolder(dir), { format, spec: { states: DISCOVER_STATES, behaviors: DISCOVER_BEHAVIORS, eps: 0.05 }, regex: nodeRegexEngine(), parquet: openParquet, settleMs: 0 }, { frame: () => {}, notice: (t) => notices.push(t) });
  await f.finish();
  return f.progress().files.map((x) => x.path).sort();
}

const relative = (dir: string, files: readonly string[]) => files.map((f) => f.slice(dir.length + 1)).sort();
const summary = (stderr: string) => /(\d+) samples in (\d+) steps/.exec(stderr);

describe('npm run import DIR reads the folders npm run watch reads', () => {
  const layouts: [FormatId, string, number, number][] = [
    // format, where the writer puts the files, samples, steps (the shipped example run)
    ['verl', 'rollout_data', 1280, 20],
    ['trl', 'output/completions', 1280, 20],
    ['openclaw', 'records', 1280, 20],
    ['jsonl', 'logs', 1280, 20],
  ];
  for (const [format, under, samples, steps] of layouts)
    it(`${format}: the files the follower reads, at depth, without --format; config and notes beside them are counted, not read`, async () => {
      const dir = exampleFolder(`ex-${format}`, format, under);
      const listed = await importPaths([dir], 'auto');
      expect(relative(dir, listed.files)).toEqual(await followedFiles(dir, format));
      expect(listed.otherFiles).toBe(2);
      const r = await cli([dir, '--out', join(root, `${format}.frames.jsonl`)]);
      expect(r.stderr).not.toMatch(/nothing to import/);
      expect(r.code).toBe(0);
      expect(summary(r.stderr)?.slice(1).map(Number)).toEqual([samples, steps]);
      expect(r.stderr).toMatch(/2 other files in the folder not read/);
    });

  it('verl step files are read in step order (2 before 10); a verl file whose name has no step is read by the import, and the follower says why it cannot follow it', async () => {
    const dir = exampleFolder('ex-verl-order', 'verl', 'r');
    const listed = await importPaths([dir], 'verl');
    expect(listed.files.map((f) => /(\d+)\.jsonl$/.exec(f)![1]).map(Number)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    copyFileSync(join(EXAMPLES, 'verl/1.jsonl'), join(dir, 'r/rerun.jsonl'));
    expect(relative(dir, (await importPaths([dir], 'verl')).files)).toContain('r/rerun.jsonl');
    const notices: string[] = [];
    expect(await followedFiles(dir, 'verl', notices)).not.toContain('r/rerun.jsonl');
    expect(notices.join('\n')).toMatch(/r\/rerun\.jsonl: not followed: a follow tells a step file's step by its name \(\{step\}\.jsonl\)/);
  });

  it('OpenClaw-RL step_NNNN/ snapshot folders: every turn read, each snapshot its step; a live file beside them is said not read, with why', async () => {
    const corpus = await makeStyledCorpus('agent', { seed: 3, steps: 4, perStep: 24 });
    const dir = join(root, 'openclaw-snapshots');
    write(dir, corpus.files);
    expect([...corpus.files.keys()].every((p) => /^step_\d{4}\//.test(p))).toBe(true);
    // the live files the server is writing now, beside the snapshots: not a snapshot
    const live = [...corpus.files].find(([p]) => !p.endsWith('_prm.jsonl'))!;
    write(dir, [[live[0].replace(/^step_\d+\//, ''), live[1]]]);
    const listed = await importPaths([dir], 'auto');
    expect(relative(dir, listed.files)).toEqual(await followedFiles(dir, 'openclaw'));
    expect(relative(dir, listed.files)).toEqual([...corpus.files.keys()].sort());
    const r = await cli([dir, '--out', join(root, 'snapshots.frames.jsonl')]);
    expect(r.code).toBe(0);
    expect(summary(r.stderr)?.slice(1).map(Number)).toEqual([corpus.truth.length, 4]);
    expect(r.stderr).toMatch(/openclaw_record\.jsonl: not read: this folder holds per-step snapshot directories/);
  });

  it('a folder with nothing to read: exit 1, every file seen and why it is not read', async () => {
    const dir = join(root, 'nothing');
    write(dir, [['run.log', 'step 1\n'], ['completions/completions_00001.parquet', 'PAR1'], ['step_0001/notes.txt', 'x']]);
    const r = await cli(['--format', 'verl', dir, '--out', join(root, 'nothing.jsonl')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/nothing to import as verl: 3 files seen, none read/);
    expect(r.stderr).toMatch(/run\.log: not a log file/);
    expect(r.stderr).toMatch(/completions_00001\.parquet: not read: a \.parquet file is TRL's/);
    expect(r.stderr).toMatch(/step_0001\/notes\.txt: not a log file/);
    const auto = await cli([dir, '--out', join(root, 'nothing.jsonl')]);
    expect(auto.code).toBe(1);
    const empty = join(root, 'empty');
    mkdirSync(empty);
    const e = await cli([empty, '--out', join(root, 'empty.jsonl')]);
    expect(e.code).toBe(1);
    expect(e.stderr).toMatch(/nothing to import: the folder holds no files/);
  });
});
