// `npm run import -- --jobs N`: worker threads make behavior discovery's features, this thread
// clusters in reading order; the metrics and sample lines are byte for byte those of one thread,
// through the command (a run written to disk) and through the core with many small batches split
// over two workers; a --jobs that is not a whole number from 1 to 64 is a usage error naming it.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../../tests/support/cli-in-process';
import { makeStyledCorpus } from '../../tests/support/discover-styles';
import { scaled } from '../../tests/support/speed';
import { DISCOVER_BEHAVIORS, DISCOVER_STATES, measureLogs, memorySource, sampleLine, type SampleRecord } from '../core/import/index';
import { frameLine } from '../core/import/follow/frame-line';
import { importMain } from './import-main';
import { ImportJobs } from './import-jobs';
import { EXIT_USAGE } from './exit-codes';

const cli = (args: string[]) => runInProcess(importMain, args, () => 1);

describe('npm run import --jobs', () => {
  it('--jobs 2 writes the metrics and sample lines of --jobs 1, byte for byte', async () => {
    const c = await makeStyledCorpus('reasoning', { seed: 9, steps: 4, perStep: 128 });
    const dir = mkdtempSync(join(tmpdir(), 'invlab-import-jobs-'));
    for (const [name, text] of c.files) {
      mkdirSync(dirname(join(dir, 'run', name)), { recursive: true });
      writeFileSync(join(dir, 'run', name), text);
    }
    const outs = [];
    for (const jobs of ['1', '2']) {
      const [out, samples] = [join(dir, `metrics-${jobs}.jsonl`), join(dir, `samples-${jobs}.jsonl`)];
      const r = await cli(['--format', 'verl', join(dir, 'run'), '--out', out, '--samples-out', samples, '--jobs', jobs]);
      expect(r.code, r.stderr).toBe(0);
      outs.push([readFileSync(out, 'utf8'), readFileSync(samples, 'utf8')]);
    }
    expect(outs[0][0].trimEnd().split('\n')).toHaveLength(4);
    expect(outs[0][1].trimEnd().split('\n')).toHaveLength(4 * 128);
    expect(outs[1][0]).toBe(outs[0][0]);
    expect(outs[1][1]).toBe(outs[0][1]);
  }, scaled(120_000));

  it('many small batches over two workers give the frames and sample lines of one thread', async () => {
    const c = await makeStyledCorpus('agent', { seed: 4, steps: 4, perStep: 96 });
    const spec = { states: DISCOVER_STATES, behaviors: DISCOVER_BEHAVIORS, eps: 0.05 };
    const run = async (jobs: ImportJobs | undefined) => {
      const lines: string[] = [];
      const sink = { root: '', step: (_: number, rows: SampleRecord[]) => lines.push(...rows.map(sampleLine)), restart: () => (lines.length = 0) };
      const r = await measureLogs([...c.files].map(([name, text]) => memorySource(name, text, 4096)), spec, { format: c.format, features: jobs }, undefined, sink);
      return `${r.frames.map(frameLine).join('\n')}\n${lines.join('\n')}`;
    };
    const jobs = new ImportJobs(3, 20_000);
    let batches = 0;
    const made = jobs.features.bind(jobs);
    jobs.features = (samples, params) => (batches++, made(samples, params));
    try {
      const [one, three] = [await run(undefined), await run(jobs)];
      expect(batches).toBeGreaterThan(5); // the workers made the features, batch after batch
      expect(three).toBe(one);
    } finally {
      await jobs.close();
    }
  }, scaled(120_000));

  it.each(['0', '65', 'two', '1.5', '-2', ''])('--jobs %j is a usage error that names the flag', async (value) => {
    const r = await cli(['--format', 'verl', 'public/examples/verl', '--out', join(tmpdir(), 'never.jsonl'), '--jobs', value]);
    expect(r.code).toBe(EXIT_USAGE);
    expect(r.stderr).toMatch(/--jobs: expected a whole number from 1 to 64/);
  });
});
