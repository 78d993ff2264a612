// `npm run watch` end to end: a verl folder written step by step while the follower runs; its
// --out equals `npm run import --out` of the finished folder byte for byte, a re-run resumes
// without writing a step twice, and the example run's alarm reaches --on-alarm as JSON.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const EX = join(ROOT, 'public/examples');
const dir = mkdtempSync(join(tmpdir(), 'invlab-watch-'));
const rules = ['--states', join(EX, 'states.json'), '--behaviors', join(EX, 'behaviors-regex.json')];
const tsx = (script: string, args: string[]) => [process.execPath, ['--import', 'tsx', join(ROOT, script), ...args]] as const;

function watch(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [cmd, argv] = tsx('src/cli/watch.ts', args);
  const child = spawn(cmd, argv, { cwd: ROOT });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b) => (stdout += b));
  child.stderr.on('data', (b) => (stderr += b));
  return new Promise((r) => child.on('close', (code) => r({ code, stdout, stderr })));
}

describe('npm run watch', () => {
  it('--reward is read as in npm run import: a bad one exits 2 naming the flag', async () => {
    const r = await watch([join(EX, 'verl'), '--format', 'verl', ...rules, '--reward', 'a++b']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--reward: expected a field name or names joined by "\+"/);
  });

  it('follows a verl folder as it is written: --out equals the one-shot import, a re-run resumes, alarms reach --on-alarm', async () => {
    const run = join(dir, 'run');
    mkdirSync(run);
    const out = join(dir, 'frames.jsonl');
    const alarms = join(dir, 'alarms.jsonl');
    const followed = watch(['--format', 'verl', run, ...rules, '--out', out, '--idle-exit', '6', '--on-alarm', `cat >> ${alarms}`]);
    const files = readdirSync(join(EX, 'verl')).sort((a, b) => parseInt(a) - parseInt(b));
    for (const f of files) {
      copyFileSync(join(EX, 'verl', f), join(run, f));
      await new Promise((r) => setTimeout(r, 150));
    }
    const r = await followed;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.match(/^step \d+:/gm)).toHaveLength(20);
    const [cmd, argv] = tsx('src/cli/import.ts', ['--format', 'verl', join(EX, 'verl'), ...rules, '--out', join(dir, 'import.jsonl')]);
    expect(spawnSync(cmd, argv, { cwd: ROOT }).status).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(dir, 'import.jsonl'), 'utf8'));
    const again = await watch(['--format', 'verl', run, ...rules, '--out', out, '--idle-exit', '2']);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/resuming: 20 steps/);
    expect(again.stdout).not.toMatch(/^step /m);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(dir, 'import.jsonl'), 'utf8'));
    const rung = readFileSync(alarms, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string });
    expect(rung.length).toBeGreaterThan(0);
    expect(r.stdout.match(/^ALARM /gm)).toHaveLength(rung.length);
  }, 180_000);
});
