// `npm run watch` on a log labelled by its own `behavior` field (the default behaviors: useLogLabel):
// a label first seen after a restart is named in the frames the first run wrote, so --out equals
// `npm run import --out` of the finished log byte for byte.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'invlab-watch-labels-'));
const cli = (script: string, args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, script), ...args], { cwd: ROOT, encoding: 'utf8' });

describe('npm run watch with the log’s own labels', () => {
  it('a label first seen after a restart is named in the frames written before it; --out equals the one-shot import', () => {
    const lines = readFileSync(join(ROOT, 'public/examples/generic.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { step: number; behavior: string });
    const log = lines.map((o) => `${JSON.stringify({ ...o, behavior: o.step >= 13 && o.behavior === 'verify' ? 'aa-late' : o.behavior })}\n`);
    const firstHalf = lines.findIndex((o) => o.step > 10);
    const run = join(dir, 'run');
    mkdirSync(run);
    const states = join(dir, 'states.json');
    writeFileSync(states, JSON.stringify({ kind: 'field', field: 'state' }));
    const out = join(dir, 'frames.jsonl');
    writeFileSync(join(run, 'log.jsonl'), log.slice(0, firstHalf).join(''));
    const args = ['--format', 'jsonl', run, '--states', states, '--out', out, '--idle-exit', '1.5'];
    const first = cli('src/cli/watch.ts', args);
    expect(first.status, first.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).not.toContain('aa-late');
    appendFileSync(join(run, 'log.jsonl'), log.slice(firstHalf).join(''));
    const second = cli('src/cli/watch.ts', args);
    expect(second.status, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/behavior label aa-late first seen \(step \d+\): the \d+ frames written before are replaced/);
    const oneShot = cli('src/cli/import.ts', ['--format', 'jsonl', join(run, 'log.jsonl'), '--states', states, '--out', join(dir, 'import.jsonl')]);
    expect(oneShot.status, oneShot.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(dir, 'import.jsonl'), 'utf8'));
  }, 120_000);
});
