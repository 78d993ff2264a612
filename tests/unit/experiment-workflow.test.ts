// .github/workflows/experiment.yml is valid YAML of the expected shape, and its `run:` commands are
// the real ones: the list, cell and merge steps are executed as written (tabular engine, tiny spec)
// with GitHub's artifact upload/download simulated by the shared cells/ folder.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseBundle } from '../../src/core/experiment/bundle';
import { parseYamlSubset } from '../support/yaml-subset';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
type Step = { uses?: string; run?: string; id?: string; with?: Record<string, unknown>; env?: Record<string, string> };
type Job = { needs?: string; steps: Step[]; strategy?: { matrix: { index: string } }; outputs?: Record<string, string> };
const wf = parseYamlSubset(readFileSync(join(root, '.github/workflows/experiment.yml'), 'utf8')) as { on: { workflow_dispatch: { inputs: Record<string, unknown> } }; env: Record<string, string>; jobs: Record<string, Job> };

describe('.github/workflows/experiment.yml', () => {
  it('parses: list → matrix of cells over its indices → merge of the artifacts', () => {
    expect(Object.keys(wf.on.workflow_dispatch.inputs)).toEqual(['spec', 'engine']);
    expect(wf.env).toEqual({ SPEC: '${{ inputs.spec }}', ENGINE: '${{ inputs.engine }}' });
    const { list, cell, merge } = wf.jobs;
    expect(list.outputs!.indices).toBe('${{ steps.list.outputs.indices }}');
    expect(list.steps.some((s) => s.id === 'list')).toBe(true);
    expect(cell.needs).toBe('list');
    expect(cell.strategy!.matrix.index).toBe('${{ fromJSON(needs.list.outputs.indices) }}');
    expect(cell.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!.with).toMatchObject({ name: 'cell-${{ matrix.index }}', path: 'cells/' });
    expect(merge.needs).toBe('cell');
    expect(merge.steps.find((s) => s.uses?.startsWith('actions/download-artifact'))!.with).toMatchObject({ pattern: 'cell-*', path: 'cells', 'merge-multiple': true });
    // expressions only through env (never spliced into shell text)
    for (const j of Object.values(wf.jobs)) for (const s of j.steps) expect(s.run ?? '').not.toContain('${{');
  });

  it('its commands run as written: every cell, then merge into a bundle', { timeout: 600_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'wf-'));
    for (const f of ['package.json', 'node_modules', 'src', 'public', 'tsconfig.json']) symlinkSync(join(root, f), join(dir, f));
    const spec = join(dir, 'tiny.json');
    writeFileSync(spec, JSON.stringify({ version: 1, name: 'wf', base: { task: 'strategies', method: 'grpo', rolloutBatch: 8, groupSize: 4, behaviorSamples: 8 }, variants: [{ name: 'A', patch: {} }, { name: 'B', patch: { lr: 0.01 } }], seeds: [1, 2], steps: 2 }));
    const outputs = join(dir, 'github_output');
    writeFileSync(outputs, '');
    const sh = (step: Step, extra: Record<string, string> = {}) => {
      const r = spawnSync('bash', ['-e', '-c', step.run!], { cwd: dir, encoding: 'utf8', env: { ...process.env, SLURM_ARRAY_TASK_ID: '', JOB_COMPLETION_INDEX: '', SPEC: spec, ENGINE: 'tabular', GITHUB_OUTPUT: outputs, ...extra } });
      expect(r.status, `${step.run}\n${r.stderr}`).toBe(0);
    };
    const runs = (job: Job) => job.steps.filter((s) => s.run && s.run !== 'npm ci');
    runs(wf.jobs.list).forEach((s) => sh(s));
    const indices = JSON.parse(/^indices=(.*)$/m.exec(readFileSync(outputs, 'utf8'))![1]) as number[];
    expect(indices).toEqual([0, 1, 2, 3]);
    for (const i of indices) runs(wf.jobs.cell).forEach((s) => sh(s, { INDEX: String(i) }));
    runs(wf.jobs.merge).forEach((s) => sh(s));
    const bundle = parseBundle(readFileSync(join(dir, 'bundle.json'), 'utf8'));
    expect(bundle.runs.map((r) => [r.variant, r.seed, r.frames.length, r.engine])).toEqual([[0, 1, 2, 'tabular'], [0, 2, 2, 'tabular'], [1, 1, 2, 'tabular'], [1, 2, 2, 'tabular']]);
  });
});
