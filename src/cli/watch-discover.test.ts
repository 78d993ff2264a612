// `npm run watch -- --format verl DIR` with no rule files: states and behaviors discovered, the
// clusters saved beside --out, each name said once with its title, and a follow stopped halfway and started again on the same --out
// writes what `npm run import` writes for the finished folder, byte for byte.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeCorpus, verlFiles } from '../../tests/support/discover-corpus';

const ROOT = join(import.meta.dirname, '../..');
const cli = (script: string, args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, script), ...args], { cwd: ROOT, encoding: 'utf8' });

describe('npm run watch with no rule files', () => {
  it('discovers states and behaviors; stopped and restarted on the same --out, it equals the one-shot import', () => {
    const dir = mkdtempSync(join(tmpdir(), 'invlab-watch-discover-'));
    const run = join(dir, 'run');
    mkdirSync(run);
    const files = [...verlFiles(makeCorpus({ seed: 31, steps: 8, perStep: 48 }))];
    const out = join(dir, 'frames.jsonl');
    const args = ['--format', 'verl', run, '--out', out, '--idle-exit', '1.5'];
    for (const [name, text] of files.slice(0, 4)) writeFileSync(join(run, name), text);
    const first = cli('src/cli/watch.ts', args);
    expect(first.status, first.stderr).toBe(0);
    expect(existsSync(`${out}.discover.json`)).toBe(true);
    const line = first.stdout.split('\n').find((l) => l.startsWith('step 1:'))!;
    expect(line.split(' | ').filter((p) => / H \d/.test(p)).length).toBeGreaterThanOrEqual(4); // several discovered states
    // each discovered name said once, with its title, right after the first step that holds it
    const lines = first.stdout.split('\n');
    const named = lines.filter((l) => /^new (state|behavior) /.test(l));
    expect(named.filter((l) => l.startsWith('new state ')).length).toBeGreaterThanOrEqual(4);
    expect(named.filter((l) => l.startsWith('new behavior ')).length).toBeGreaterThanOrEqual(2);
    expect(new Set(named.map((l) => l.split(':')[0])).size).toBe(named.length);
    for (const l of named) expect(l).toMatch(/^new (state|behavior) \S+: \S/);
    expect(lines.findIndex((l) => l.startsWith('new state '))).toBeGreaterThan(lines.findIndex((l) => l.startsWith('step 1:')));
    expect(lines.findIndex((l) => l.startsWith('new state '))).toBeLessThan(lines.findIndex((l) => l.startsWith('step 2:')));
    for (const [name, text] of files.slice(4)) writeFileSync(join(run, name), text);
    const second = cli('src/cli/watch.ts', args);
    expect(second.status, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/resuming: 4 steps/);
    const oneShot = cli('src/cli/import.ts', ['--format', 'verl', run, '--out', join(dir, 'import.jsonl')]);
    expect(oneShot.status, oneShot.stderr).toBe(0);
    expect(oneShot.stderr).toMatch(/behaviors \[[^\]]*unclassified/);
    // under the summary, what a person reads for each discovered name
    expect(oneShot.stderr).toMatch(/^ {2}state \S+: "/m);
    expect(oneShot.stderr).toMatch(/^ {2}behavior \S+: \S/m);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(dir, 'import.jsonl'), 'utf8'));
  }, 180_000);
});
