// The CLI end to end on a small budget (tabular reference engine, so it runs in seconds).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('npm run lab', () => {
  it('runs a preset and writes one line per step plus a summary', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'lab-')), 'run.jsonl');
    execFileSync('npx', ['tsx', 'src/cli/lab.ts', '--engine', 'tabular', '--preset', 'f-combine-gating', '--steps', '3', '--seed', '2', '--set', 'lr=0.05', '--pretrain-steps', '50', '--out', out, '--quiet'], { stdio: 'pipe' });
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(4);
    expect(lines[0]['esr/effective_rate']).toBeTypeOf('number');
    expect(lines[3].summary.config.method).toBe('combine');
    expect(lines[3].summary.config.seed).toBe(2);
  });
  it('rejects a bad --set naming the field', () => {
    expect(() => execFileSync('npx', ['tsx', 'src/cli/lab.ts', '--engine', 'tabular', '--set', 'clipLow=7'], { stdio: 'pipe' })).toThrow(/config\.clipLow/);
  });
});
