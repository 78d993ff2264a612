// The experiment CLI end to end on the tabular reference engine (seconds): every index run as its
// own process and merged equals the whole experiment in one process; scheduler index variables;
// an incomplete cell is refused; a non-finite stop exits with EXIT_NON_FINITE. (--jobs: experiment-jobs.test.ts.)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBundle } from '../core/experiment/bundle';
import { firstFrameDifference } from '../core/experiment/frame-difference';
import { experimentCell, parseExperimentSpec } from '../core/experiment/spec';
import { policyShape, pretrainBase } from '../core/pretrain';
import { BUILTIN_TASKS } from '../core/tasks/builtin';
import { createTabularEngine } from '../engine/tabular/tabular-engine';
import { EXIT_NON_FINITE } from './exit-codes';
import { LONG, experimentCli as cli, experimentFixture } from '../../tests/support/experiment-cli';

const { dir, specFile, specObj, common } = experimentFixture();

describe('npm run experiment', () => {
  it('--list prints the cell count, --list --json the indices', { timeout: LONG }, () => {
    expect(cli(['--spec', specFile, '--list']).out.trim()).toBe('4');
    expect(JSON.parse(cli(['--spec', specFile, '--list', '--json']).out)).toEqual([0, 1, 2, 3]);
  });

  it('every index run separately (incl. via SLURM_ARRAY_TASK_ID / JOB_COMPLETION_INDEX) then merged equals --all in one process', { timeout: LONG }, () => {
    const cells = join(dir, 'cells');
    const env: Record<string, string>[] = [{}, {}, { SLURM_ARRAY_TASK_ID: '2' }, { JOB_COMPLETION_INDEX: '3' }];
    env.forEach((e, i) => {
      const r = cli(['--spec', specFile, ...('SLURM_ARRAY_TASK_ID' in e || 'JOB_COMPLETION_INDEX' in e ? [] : ['--index', String(i)]), '--out-dir', cells, ...common], e);
      expect(r.code, r.err).toBe(0);
      const summary = JSON.parse(r.out.trim().split('\n').at(-1)!);
      expect(summary).toMatchObject({ cell: i, stepsTaken: 3, stepsPlanned: 3, stoppedBy: null });
    });
    const merged = join(dir, 'merged.json');
    expect(cli(['merge', cells, '--out', merged]).code).toBe(0);
    // a record keeps only what the lessons' value rules read: an experiment no lesson derives a value from is refused
    const rec = cli(['record', cells, '--out', join(dir, 'record.json')]);
    expect([rec.code, rec.err]).toEqual([1, expect.stringMatching(/no lesson value is derived from \S+ .*name its rules first/)]);
    const one = join(dir, 'one.json');
    const r = cli(['--spec', specFile, '--all', '--out', one, '--jobs', '1', ...common]);
    expect(r.code, r.err).toBe(0);
    const a = parseBundle(readFileSync(merged, 'utf8'));
    const b = parseBundle(readFileSync(one, 'utf8'));
    expect(a.runs).toHaveLength(4);
    expect(a.codeVersion).toBe(b.codeVersion);
    expect(a.spec).toEqual(parseExperimentSpec(specObj));
    a.runs.forEach((run, i) => {
      expect(firstFrameDifference(run.frames, b.runs[i].frames)).toBeNull();
      const { frames: fa, ...restA } = run;
      const { frames: fb, ...restB } = b.runs[i];
      expect(restA).toEqual(restB);
      expect(fa.map((f) => ({ ...f, perf: {} }))).toEqual(fb.map((f) => ({ ...f, perf: {} })));
    });
    // the paired report reads the bundle
    const rep = cli(['report', merged, '--metric', 'support/token_entropy', '--from', '1', '--to', '3']);
    expect(rep.code, rep.err).toBe(0);
    expect(JSON.parse(rep.out)).toMatchObject({ n: 2, total: 2, seeds: [4, 7], variantA: 0, variantB: 1, ci: null, skipped: [] });
    // two seeds: the pair count is said, and no interval given
    expect(rep.err).toMatch(/steps 1–3: 2 of 2 pairs cover steps 1–3\. .* n = 2 pairs: no 95 % interval is given below 5 pairs/);
    // and a re-run of a cell reproduces it bit for bit
    const rr = cli(['reproduce', merged, '--index', '1', ...common]);
    expect(rr.code, rr.err).toBe(0);
    expect(JSON.parse(rr.out.trim().split('\n').at(-1)!)).toEqual({ identical: true, cells: 1, otherEngine: [] });
  });

  it('--all --ensemble (each variant\'s seeds trained together on one population engine) equals --all cell by cell, bit for bit', { timeout: LONG }, () => {
    const one = join(dir, 'singles.json');
    const together = join(dir, 'together.json');
    const cells = join(dir, 'together-cells');
    const a = cli(['--spec', specFile, '--all', '--out', one, ...common]);
    expect(a.code, a.err).toBe(0);
    const b = cli(['--spec', specFile, '--all', '--ensemble', '--out', together, '--out-dir', cells, ...common]);
    expect(b.code, b.err).toBe(0);
    expect(b.out.trim().split('\n').map((l) => JSON.parse(l).stepsTaken)).toEqual([3, 3, 3, 3]);
    const singles = parseBundle(readFileSync(one, 'utf8'));
    const ens = parseBundle(readFileSync(together, 'utf8'));
    expect(ens.runs.map((r) => [r.variant, r.seed])).toEqual(singles.runs.map((r) => [r.variant, r.seed]));
    ens.runs.forEach((run, i) => {
      expect(run.timeline).toEqual(singles.runs[i].timeline);
      expect(run.frames.map((f) => ({ ...f, perf: {} }))).toEqual(singles.runs[i].frames.map((f) => ({ ...f, perf: {} })));
    });
    // the cell logs written along the way merge into the same bundle
    const merged = join(dir, 'together-merged.json');
    expect(cli(['merge', cells, '--out', merged]).code).toBe(0);
    parseBundle(readFileSync(merged, 'utf8')).runs.forEach((run, i) => expect(firstFrameDifference(run.frames, ens.runs[i].frames)).toBeNull());
    expect(cli(['--spec', specFile, '--index', '0', '--ensemble', ...common]).code).toBe(2);
  });

  it('merge refuses an incomplete cell by name; bad input is a usage error', { timeout: LONG }, () => {
    const cells = join(dir, 'partial');
    expect(cli(['--spec', specFile, '--index', '0', '--out-dir', cells, ...common]).code).toBe(0);
    const f = join(cells, 'cell-00000.jsonl');
    writeFileSync(f, readFileSync(f, 'utf8').trim().split('\n').slice(0, -1).join('\n') + '\n');
    const r = cli(['merge', cells, '--out', join(dir, 'x.json')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/cell-00000\.jsonl: incomplete/);
    expect(cli(['--spec', specFile, '--index', '9', ...common]).err).toMatch(/outside 0\.\.3/);
    expect(cli(['--spec', specFile, ...common]).code).toBe(2);
    expect(cli(['--spec', specFile, '--index', 'x', ...common]).code).toBe(2);
    expect(cli(['--bogus']).code).toBe(2);
  });

  it('a cell that hits a non-finite metric stops, reports the steps taken and exits with EXIT_NON_FINITE', { timeout: LONG }, async () => {
    const cfg = experimentCell(parseExperimentSpec(specObj), 0).config;
    // a pretrained tabular base whose logits are all NaN (row keys kept): the first step's metrics are NaN
    const shape = policyShape(cfg);
    const e = createTabularEngine(shape);
    await pretrainBase(e, BUILTIN_TASKS.strategies, 0, { steps: 5, batch: 16, lr: 0.05, temperature: cfg.temperature });
    const w = await e.getWeights();
    for (let i = 0; i < w.length; i++) if (i % (shape.vocab + 1) !== 0) w[i] = NaN;
    const base = join(dir, 'nan.f32');
    writeFileSync(base, Buffer.from(w.buffer));
    const out = join(dir, 'nan.jsonl');
    const r = cli(['--spec', specFile, '--index', '0', '--out', out, '--engine', 'tabular', '--base', base, '--quiet']);
    expect(r.code).toBe(EXIT_NON_FINITE);
    const summary = JSON.parse(r.out.trim());
    expect(summary.stepsTaken).toBe(1);
    // the summary says NaN where the metric is NaN (JSON.stringify wrote null, as for a metric that is absent)
    expect(Object.values(summary.final)).toContain('NaN');
    expect(Object.values(summary.final)).not.toContain(null);
    expect(summary.stoppedBy).toMatch(/non-finite metric .* at step 1/);
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.at(-1)).toMatchObject({ kind: 'end', stepsTaken: 1 });
  });
});
