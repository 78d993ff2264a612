// `npm run watch` end to end on the writers other than verl (src/cli/watch.test.ts has verl): a TRL
// completions/ folder whose parquet files grow in pieces, OpenClaw-RL's live record and PRM files
// (`openclawWrites`: lines in halves, both purged each step) and OpenClaw-RL kept as per-step snapshot
// directories (tests/support/writer-sim.ts `openclawSnapshotWrites`: copies cut mid-line, PRM lines
// landing a snapshot late), written to disk while the command follows; --out equals
// `npm run import --out` of the finished files byte for byte, and a re-run writes nothing again.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryFolder, openclawSnapshotWrites, openclawWrites, trlWrites, type Write } from '../../tests/support/writer-sim';
import { scaled } from '../../tests/support/speed';
import type { FollowProgress } from '../core/import/index';

const ROOT = join(import.meta.dirname, '../..');
const EX = join(ROOT, 'public/examples');
const dir = mkdtempSync(join(tmpdir(), 'invlab-watch-formats-'));
const rules = (format: string) => ['--states', join(EX, 'states.json'), '--behaviors', join(EX, format === 'openclaw' ? 'behaviors-tools.json' : 'behaviors-regex.json')];
const argv = (script: string, args: string[]) => ['--import', 'tsx', join(ROOT, script), ...args];

/** Resolves once the follower has read every byte of these files (their sizes now), by its --progress lines. */
type CaughtUp = (sizes: ReadonlyMap<string, number>) => Promise<void>;

/**
 * The command, when it has started following (before then an OpenClaw purge takes lines it never
 * saw), when it has read files up to given sizes (its `--progress` lines on stderr), and its Ctrl-C.
 */
function watch(args: string[]): { started: Promise<void>; caughtUp: CaughtUp; ended: Promise<{ code: number | null; stdout: string; stderr: string }>; interrupt: () => void } {
  const child = spawn(process.execPath, argv('src/cli/watch.ts', args), { cwd: ROOT });
  let stdout = '';
  let stderr = '';
  let started = () => {};
  const startedP = new Promise<void>((r) => (started = r));
  /** What the latest progress line says was read of each file. */
  let read = new Map<string, number>();
  let waiting: (() => void) | null = null;
  child.stdout.on('data', (b) => (stdout += b));
  child.stderr.on('data', (b) => {
    stderr += b;
    if (/^following /m.test(stderr)) started();
    // the latest whole progress line (a chunk may end inside one)
    const whole = stderr.slice(0, stderr.lastIndexOf('\n') + 1);
    const at = whole.lastIndexOf('progress {');
    if (at < 0 || (at > 0 && whole[at - 1] !== '\n')) return;
    const p = JSON.parse(whole.slice(at + 'progress '.length, whole.indexOf('\n', at))) as FollowProgress;
    read = new Map(p.files.map((f) => [f.path, f.read]));
    waiting?.();
  });
  const ended = new Promise<{ code: number | null; stdout: string; stderr: string }>((r) => child.on('close', (code) => (started(), waiting?.(), r({ code, stdout, stderr }))));
  const caughtUp: CaughtUp = async (sizes) => {
    const done = () => [...sizes].every(([path, size]) => read.get(path) === size);
    const limit = scaled(60_000);
    for (const t0 = Date.now(); !done(); ) {
      if (Date.now() - t0 > limit || child.exitCode !== null) throw new Error(`the follower did not read ${JSON.stringify([...sizes])} within ${limit} ms (it said it read ${JSON.stringify([...read])})\n${stderr}`);
      // woken by its next progress line, or after a while to look at the limit
      await new Promise<void>((r) => {
        waiting = r;
        setTimeout(r, 1000);
      });
      waiting = null;
    }
  };
  return { started: startedP, caughtUp, ended, interrupt: () => child.kill('SIGINT') };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Replays the simulator's writes onto disk, `every` writes at a time: growth is appended, anything
 * else rewritten. With `beforePurge`, a write that empties a file (OpenClaw's purge) first puts the
 * lines before it on disk and waits until the follower has read them (`--progress`), as a trainer
 * takes seconds between its last turn and the purge.
 */
async function writeToDisk(run: string, writes: Write[], every: number, beforePurge?: CaughtUp): Promise<string[]> {
  const mem = new MemoryFolder();
  const onDisk = new Map<string, Uint8Array>();
  const sync = (as: (p: string) => Uint8Array = (p) => mem.bytes(p)) => {
    for (const p of mem.paths()) {
      const now = as(p);
      const was = onDisk.get(p);
      if (was && was.length === now.length && was.every((b, j) => b === now[j])) continue;
      mkdirSync(dirname(join(run, p)), { recursive: true });
      if (was && now.length > was.length && was.every((b, j) => b === now[j])) appendFileSync(join(run, p), now.subarray(was.length));
      else writeFileSync(join(run, p), now);
      onDisk.set(p, now.slice());
    }
  };
  for (let i = 0; i < writes.length; i++) {
    const before = new Map(mem.paths().map((p) => [p, mem.bytes(p)]));
    writes[i](mem);
    if (beforePurge && mem.paths().some((p) => (before.get(p)?.length ?? 0) > 0 && mem.bytes(p).length === 0)) {
      sync((p) => before.get(p) ?? mem.bytes(p)); // the folder as it was just before the purge
      await beforePurge(new Map([...onDisk].filter(([, b]) => b.length > 0).map(([p, b]) => [p, b.length])));
    }
    if ((i + 1) % every && i < writes.length - 1) continue;
    sync();
    await sleep(40);
  }
  return mem.paths();
}

async function followAndCompare(format: string, writes: Write[], every: number, oneShotFiles: (run: string, paths: string[]) => string[], waitBeforePurge = false, name = format): Promise<string> {
  const run = join(dir, name);
  mkdirSync(run);
  const out = join(dir, `${name}-frames.jsonl`);
  const args = ['--format', format, run, ...rules(format), '--out', out];
  const followed = watch([...args, '--progress']);
  await followed.started;
  const paths = await writeToDisk(run, writes, every, waitBeforePurge ? followed.caughtUp : undefined);
  // the writer is done: Ctrl-C, which reads what is on disk and writes the steps still open as the
  // one-shot import would (src/cli/watch.ts), instead of 6 s of --idle-exit (the re-run below has it)
  followed.interrupt();
  const r = await followed.ended;
  expect(r.code, r.stderr).toBe(0);
  const oneShot = join(dir, `${name}-import.jsonl`);
  const imp = spawnSync(process.execPath, argv('src/cli/import.ts', ['--format', format, ...oneShotFiles(run, paths), ...rules(format), '--out', oneShot]), { cwd: ROOT, encoding: 'utf8' });
  expect(imp.status, imp.stderr).toBe(0);
  const want = readFileSync(oneShot, 'utf8');
  expect(want.trim().split('\n')).toHaveLength(20);
  expect(readFileSync(out, 'utf8'), r.stderr).toBe(want);
  expect(r.stdout.match(/^step \d+:/gm)).toHaveLength(20);
  const again = await watch([...args, '--idle-exit', '2']).ended;
  expect(again.code, again.stderr).toBe(0);
  expect(again.stdout).not.toMatch(/^step /m);
  expect(readFileSync(out, 'utf8')).toBe(want);
  return r.stderr;
}

describe('npm run watch on TRL and OpenClaw-RL snapshot folders', () => {
  it('trl: parquet files written in pieces; --out equals the one-shot import, a re-run writes nothing', async () => {
    const files = readdirSync(join(EX, 'trl')).sort().map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(EX, 'trl', name))) }));
    await followAndCompare('trl', trlWrites(files), 1, (run) => [run]);
  }, 240_000);

  it('openclaw: per-step snapshot directories, PRM lines a snapshot late; --out equals the one-shot import of the finished folder', async () => {
    const text = (f: string) => readFileSync(join(EX, 'openclaw', f), 'utf8');
    const writes = openclawSnapshotWrites(text('openclaw-record.jsonl'), text('openclaw-record_prm.jsonl'), { lateByOne: 3 });
    // the one-shot import of the finished folder: every snapshot's files, in path order
    const stderr = await followAndCompare('openclaw', writes, Math.ceil(writes.length / 80), (run, paths) => paths.filter((p) => p.includes('/')).map((p) => join(run, p)));
    expect(stderr).toMatch(/per-step snapshot directories/);
    // step k waited for snapshot k + 1, so the PRM lines landing there were joined at once: no frame replaced
    expect(stderr).not.toMatch(/measured again/);
  }, 240_000);

  it('openclaw: the live record and PRM files appended turn by turn and purged each step; --out equals the one-shot import of the whole run', async () => {
    const text = (f: string) => readFileSync(join(EX, 'openclaw', f), 'utf8');
    const { writes } = openclawWrites(text('openclaw-record.jsonl'), text('openclaw-record_prm.jsonl'));
    const stderr = await followAndCompare('openclaw', writes, Math.ceil(writes.length / 80), () => [join(EX, 'openclaw')], true, 'openclaw-live');
    expect(stderr).not.toMatch(/lost|never read/);
  }, 240_000);
});
