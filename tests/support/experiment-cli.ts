// The experiment CLI's tests' fixture (experiment.test.ts, experiment-jobs.test.ts): a tiny spec on
// the tabular reference engine in a fresh folder, and the CLI run as a child process.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function experimentFixture() {
  const dir = mkdtempSync(join(tmpdir(), 'experiment-'));
  const specFile = join(dir, 'exp.json');
  const specObj = {
    version: 1, name: 'cli-tiny', base: { task: 'strategies', method: 'grpo', rolloutBatch: 8, groupSize: 4, behaviorSamples: 8, lr: 0.05 },
    variants: [{ name: 'A', patch: {} }, { name: 'B', patch: { clipHigh: 0.2 } }], seeds: [4, 7], steps: 3,
  };
  writeFileSync(specFile, JSON.stringify(specObj));
  return { dir, specFile, specObj, common: ['--engine', 'tabular', '--pretrain-steps', '20', '--quiet'] };
}

/** `npm run experiment -- ARGS` (node with the tsx loader: no npx in between). */
export function experimentCli(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/experiment.ts', ...args], { encoding: 'utf8', env: { ...process.env, SLURM_ARRAY_TASK_ID: '', JOB_COMPLETION_INDEX: '', ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

// each CLI call starts tsx (seconds on a loaded machine): generous per-test limits
export const LONG = 600_000;
