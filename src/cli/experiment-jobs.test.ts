// `npm run experiment -- --all --jobs N` on the tabular reference engine: any number of worker
// threads gives the frames of one job, bit for bit, and prints the summaries in cell order.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBundle } from '../core/experiment/bundle';
import { mainThreadReport } from './experiment-jobs';
import { LONG, experimentCli as cli, experimentFixture } from '../../tests/support/experiment-cli';

const { dir, specFile, common } = experimentFixture();

describe('npm run experiment --jobs', () => {
  it('--jobs 2 (and --ensemble --jobs 3: a variant split over workers) give the frames of --jobs 1 bit for bit, summaries in cell order', { timeout: LONG }, () => {
    const one = join(dir, 'jobs1.json');
    const a = cli(['--spec', specFile, '--all', '--out', one, '--jobs', '1', ...common]);
    expect(a.code, a.err).toBe(0);
    const single = parseBundle(readFileSync(one, 'utf8'));
    const frames = (b: typeof single) => b.runs.map((r) => ({ ...r, frames: r.frames.map((f) => ({ ...f, perf: {} })) }));
    for (const flags of [['--jobs', '2'], ['--ensemble', '--jobs', '3']]) {
      const out = join(dir, `jobs-${flags.join('')}.json`);
      const cells = join(dir, `jobs-cells-${flags.join('')}`);
      const r = cli(['--spec', specFile, '--all', '--out', out, ...(flags.includes('--ensemble') ? ['--out-dir', cells] : []), ...flags, ...common.filter((f) => f !== '--quiet')]);
      expect(r.code, r.err).toBe(0);
      expect(r.err).toMatch(flags.includes('--ensemble') ? /4 cell\(s\) in 3 group\(s\) on 3 jobs \(this thread and 2 worker threads\)/ : /4 cell\(s\) in 4 group\(s\) on 2 jobs \(this thread and 1 worker thread\)/);
      expect(r.err).toMatch(/peak RSS \d+ MB; CPU per worker [\d.]+ s(, [\d.]+ s)+ \(their own threads; this process [\d.]+ s in all\); idle at the end per worker/);
      expect(r.out.trim().split('\n').map((l) => JSON.parse(l).cell)).toEqual([0, 1, 2, 3]);
      const many = parseBundle(readFileSync(out, 'utf8'));
      expect(frames(many)).toEqual(frames(single));
      if (!flags.includes('--ensemble')) continue;
      // each worker wrote its cells' logs: they merge into the same frames
      const merged = join(dir, `jobs-merged-${flags.join('')}.json`);
      expect(cli(['merge', cells, '--out', merged]).code).toBe(0);
      expect(frames(parseBundle(readFileSync(merged, 'utf8')))).toEqual(frames(single));
    }
    expect(cli(['--spec', specFile, '--all', '--jobs', '0', ...common]).code).toBe(2);
    expect(cli(['--spec', specFile, '--index', '1', '--jobs', '2', ...common]).code).toBe(2);
  });

  it('the main thread yields to the event loop after each step only when worker threads run beside it', async () => {
    const report = { info: () => undefined, step: () => undefined };
    expect(mainThreadReport(report, 1)).toBe(report);
    const afterStep = mainThreadReport(report, 2).afterStep!;
    let handled = false;
    setImmediate(() => (handled = true)); // stands for a worker's message waiting to be handled
    await afterStep();
    expect(handled).toBe(true);
  });
});
