// `npm run watch` end to end: a verl folder written step by step while the follower runs; its
// --out equals `npm run import --out` of the finished folder byte for byte, a re-run resumes
// without writing a step twice, and the example run's alarm reaches --on-alarm as JSON.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const EX = join(ROOT, 'public/examples');
const dir = mkdtempSync(join(tmpdir(), 'invlab-watch-'));
const rules = ['--states', join(EX, 'states.json'), '--behaviors', join(EX, 'behaviors-regex.json')];
const tsx = (script: string, args: string[]) => [process.execPath, ['--import', 'tsx', join(ROOT, script), ...args]] as const;

function watch(args: string[], onStderr?: (text: string) => void): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [cmd, argv] = tsx('src/cli/watch.ts', args);
  const child = spawn(cmd, argv, { cwd: ROOT });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b) => (stdout += b));
  child.stderr.on('data', (b) => {
    stderr += b;
    onStderr?.(stderr);
  });
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
      await new Promise((r) => setTimeout(r, 150)); // a writer's pace (nothing is asserted on it)
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

  it.each([
    [['--port', 'x'], /--port: expected a port number 0–65535 \(0: any free one\), got x/],
    [['--port', '70000'], /--port: expected a port number 0–65535/],
    [['--site', 'dist'], /--site: only with --port/],
    [['--port', '0', '--site', join(ROOT, 'no-such-build')], /no-such-build\/index\.html: the lab is not built: run `npm run build`/],
  ])('--port and --site are checked: %s', async (flags, why) => {
    const r = await watch([join(EX, 'verl'), '--format', 'verl', ...rules, '--idle-exit', '1', ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(why);
  });

  it('--port streams the run as it is followed: a page connecting midway gets every step so far, then the rest, then the end', async () => {
    const run = join(dir, 'served');
    const site = join(dir, 'site');
    mkdirSync(run);
    mkdirSync(site);
    writeFileSync(join(site, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
    const out = join(dir, 'served.jsonl');
    let served: (url: string) => void = () => {};
    const serving = new Promise<string>((r) => (served = r));
    const followed = watch(['--format', 'verl', run, ...rules, '--out', out, '--idle-exit', '3', '--port', '0', '--site', site], (t) => {
      const at = /serving the live run at (http:\/\/127\.0\.0\.1:\d+)\//.exec(t)?.[1];
      if (at) served(at);
    });
    const files = readdirSync(join(EX, 'verl')).sort((a, b) => parseInt(a) - parseInt(b));
    let stream: Promise<string> | null = null;
    for (const [i, f] of files.entries()) {
      copyFileSync(join(EX, 'verl', f), join(run, f));
      await new Promise((r) => setTimeout(r, 150)); // a writer's pace (nothing is asserted on it)
      if (i === 9) {
        // the address is printed once the server listens: wait for that line (a loaded machine prints it late), or for the exit that says why not
        const url = await Promise.race([serving, followed.then((r) => Promise.reject(new Error(`watch exited (${r.code}) before serving: ${r.stderr}`)))]);
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        expect((await fetch(`${url}/`)).status).toBe(200);
        stream = fetch(`${url}/live/events`).then((r) => r.text()); // read to the end: the server ends it when the follow ends
      }
    }
    const r = await followed;
    expect(r.code, r.stderr).toBe(0);
    const events = (await stream!).split('\n\n').filter((b) => b.includes('event: '));
    const kinds = events.map((b) => /^event: (\w+)$/m.exec(b)![1]);
    expect(kinds[0]).toBe('hello');
    expect(kinds.at(-1)).toBe('end');
    const frames = events.filter((b) => b.includes('event: frame')).map((b) => JSON.parse(/^data: (.*)$/m.exec(b)![1]) as { frame: { step: number; scalars: Record<string, number> } });
    expect(frames.map((f) => f.frame.step)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const written = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    frames.forEach((f, i) => expect({ step: f.frame.step, ...f.frame.scalars }).toEqual(written[i]));
    // a resumed watch serves the steps already in --out first: a page opened on it shows the whole run
    let resumed: Promise<string> | null = null;
    const again = await watch(['--format', 'verl', run, ...rules, '--out', out, '--idle-exit', '3', '--port', '0', '--site', site], (t) => {
      const at = /serving the live run at (http:\/\/127\.0\.0\.1:\d+)\//.exec(t)?.[1];
      if (at && !resumed) resumed = fetch(`${at}/live/events`).then((r) => r.text());
    });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).not.toMatch(/^step /m);
    const replayed = (await resumed!).split('\n\n').filter((b) => b.includes('event: frame')).map((b) => JSON.parse(/^data: (.*)$/m.exec(b)![1]) as { frame: { step: number; scalars: Record<string, number> } });
    expect(replayed.map((f) => ({ step: f.frame.step, ...f.frame.scalars }))).toEqual(written);
  }, 180_000);
});
