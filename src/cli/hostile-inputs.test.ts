// Issue 24 §5, the command line: a metric named like an Object.prototype member, a bundle with
// 100,000 unknown keys or nested 100,000 levels deep, an edited frame given to `reproduce`, a base
// file that is no policy, and a file that is not UTF-8 — each refused or explained in one clear
// message (never a JS internal, megabytes of stderr, or an exit 1 with nothing said).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXIT_ERROR } from './exit-codes';

const dir = mkdtempSync(join(tmpdir(), 'hostile-cli-'));
const at = (name: string) => join(dir, name);
const spec = { version: 1, name: 'hostile', base: { task: 'strategies', method: 'grpo', rolloutBatch: 8, groupSize: 4, behaviorSamples: 8, lr: 0.05 }, variants: [{ name: 'A', patch: {} }, { name: 'B', patch: { clipHigh: 0.2 } }], seeds: [4], steps: 2 };
const tabular = ['--engine', 'tabular', '--pretrain-steps', '20'];
const LONG = 600_000;

// node --import tsx, as the other CLI tests: `npx tsx` costs about 0.7 s more CPU a run (npm's start, tsx's own child process)
function cli(file: string, args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', file, ...args], { encoding: 'utf8', env: { ...process.env, SLURM_ARRAY_TASK_ID: '', JOB_COMPLETION_INDEX: '' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
const experiment = (args: string[]) => cli('src/cli/experiment.ts', args);

let bundleText = '';
beforeAll(() => {
  writeFileSync(at('exp.json'), JSON.stringify(spec));
  const r = experiment(['--spec', at('exp.json'), '--all', '--out', at('bundle.json'), ...tabular, '--quiet']);
  expect(r.code, r.err).toBe(0);
  bundleText = readFileSync(at('bundle.json'), 'utf8');
}, LONG);

describe('hostile command-line inputs', () => {
  it('report --metric constructor names the metrics the bundle has, not "function Object()"', { timeout: LONG }, () => {
    for (const metric of ['constructor', 'toString', '__proto__']) {
      const r = experiment(['report', at('bundle.json'), '--metric', metric]);
      expect(r.code).toBe(EXIT_ERROR);
      expect(r.err).toMatch(new RegExp(`^no metric "${metric}" in the bundle's frames \\(they hold esr/`));
      expect(r.err + r.out).not.toMatch(/function|native code/);
    }
  });

  it('a bundle with 100,000 unknown keys: ten named, the rest counted (not 2 MB of stderr)', { timeout: LONG }, () => {
    const b = JSON.parse(bundleText) as Record<string, unknown>;
    for (let i = 0; i < 100_000; i++) b[`k${i}`] = i;
    writeFileSync(at('keys.json'), JSON.stringify(b));
    const r = experiment(['report', at('keys.json'), '--metric', 'train/loss']);
    expect(r.code).toBe(EXIT_ERROR);
    expect(r.err).toContain('k9: unknown key; …and 99,990 more');
    expect(r.err.length).toBeLessThan(1000);
  });

  it('report on a bundle whose changes nest 100,000 levels: the depth limit, not a stack overflow', { timeout: LONG }, () => {
    const deep = `{"lr":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`;
    expect(bundleText).toContain('"changes":{}');
    writeFileSync(at('deep.json'), bundleText.replace('"changes":{}', `"changes":${deep}`));
    const r = experiment(['report', at('deep.json'), '--metric', 'train/loss']);
    expect(r.code).toBe(EXIT_ERROR);
    expect(r.err.trim()).toBe(`file ${at('deep.json')}: the JSON nests objects or arrays more than 64 levels deep, the limit`);
  });

  it('reproduce of an edited frame says what differs, even with --quiet', { timeout: LONG }, () => {
    const b = JSON.parse(bundleText) as { runs: { frames: { scalars: Record<string, number> }[] }[] };
    b.runs[1].frames[1].scalars['train/loss'] += 0.5;
    writeFileSync(at('edited.json'), JSON.stringify(b));
    const r = experiment(['reproduce', at('edited.json'), ...tabular, '--quiet']);
    expect(r.code).toBe(EXIT_ERROR);
    expect(r.err).toMatch(/^NOT reproduced: cell 1 \(variant B, seed 4\), step 2, train\/loss: the bundle has [-\d.e]+, the re-run gave [-\d.e]+ \(the bundle's frame is not what this code trains from its seed/);
    expect(experiment(['reproduce', at('bundle.json'), ...tabular, '--index', '7', '--quiet']).err).toMatch(/cell 7 is not stored in the bundle \(stored: 0, 1\)/);
  });

  it('a --base file that is no policy is refused naming the file (a 10-byte file trained on the tabular engine)', { timeout: LONG }, () => {
    writeFileSync(at('ten.bin'), Buffer.alloc(10, 7));
    writeFileSync(at('twelve.bin'), Buffer.alloc(12));
    const ten = cli('src/cli/lab.ts', ['--engine', 'tabular', '--steps', '1', '--base', at('ten.bin'), '--quiet']);
    expect(ten.code).not.toBe(0);
    expect(ten.err).toContain(`--base ${at('ten.bin')}: 10 bytes is no whole number of float32 values`);
    const twelve = experiment(['--spec', at('exp.json'), '--index', '0', '--out', at('c.jsonl'), '--engine', 'tabular', '--base', at('twelve.bin'), '--quiet']);
    expect(twelve.code).toBe(EXIT_ERROR);
    expect(twelve.err).toContain(`--base ${at('twelve.bin')}: not raw little-endian float32 weights of the tabular engine's policy: setWeights: 3 values are not whole rows of 65`);
  });
});
