// `npm run bench -- --only jobs`: wall time of `npm run experiment -- --all --jobs 1` against
// `--jobs N` (default 2: every core of the development machine) on a lesson's experiment cut to a
// few seeds and steps (public/experiments/l-votes-disagree.json: the real model on WASM, the shipped
// base), run interleaved (1, N, N, 1, …) so that load from other work falls on both alike. Says the
// load (1-minute average) around each run, each worker's peak RSS, whether the bundles' frames are
// identical, and what a machine with more cores would take for the whole lesson, extrapolated from
// the measured per-cell time and the per-core efficiency measured here.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBundle, type ExperimentBundle } from '../core/experiment/bundle';
import { cellCount, parseExperimentSpec } from '../core/experiment/spec';

export interface JobsBenchOptions {
  /** Interleaved pairs (jobs 1 and jobs N once each). */
  pairs: number;
  jobs: number;
  seeds: number;
  steps: number;
  /** Cores of the machine the estimate is for. */
  estimateCores: number;
}

const LESSON = fileURLToPath(new URL('../../public/experiments/l-votes-disagree.json', import.meta.url));
const CLI = fileURLToPath(new URL('../cli/experiment.ts', import.meta.url));

interface Timed {
  jobs: number;
  wall_s: number;
  load_before: number;
  load_after: number;
  peak_rss_mb: number[];
  /** Mean of the cells' own training time (their summary lines: after the engine is up). */
  cell_train_s: number;
  bundle: ExperimentBundle;
}

/** One `npm run experiment -- --all` in a child process (this process's tsx loader), timed. */
function runExperiment(spec: string, out: string, jobs: number): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const load_before = loadavg()[0];
    const t0 = performance.now();
    const child = spawn(process.execPath, [...process.execArgv, CLI, '--spec', spec, '--all', '--jobs', String(jobs), '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      const wall_s = (performance.now() - t0) / 1000;
      if (code !== 0) return reject(new Error(`experiment --jobs ${jobs} exited ${code}: ${stderr.slice(-2000)}`));
      const rss = /peak RSS per worker (.*)$/m.exec(stderr)?.[1] ?? '';
      const cells = stdout.trim().split('\n').map((l) => JSON.parse(l) as { wallSeconds: number });
      resolve({
        jobs, wall_s: +wall_s.toFixed(2), load_before: +load_before.toFixed(2), load_after: +loadavg()[0].toFixed(2),
        peak_rss_mb: [...rss.matchAll(/(\d+) MB/g)].map((m) => Number(m[1])),
        cell_train_s: +(cells.reduce((s, c) => s + c.wallSeconds, 0) / cells.length).toFixed(3),
        bundle: parseBundle(readFileSync(out, 'utf8')),
      });
    });
  });
}

/** The bundles' frames equal, wall-clock fields (perf) aside. */
function sameFrames(a: ExperimentBundle, b: ExperimentBundle): boolean {
  const frames = (x: ExperimentBundle) => JSON.stringify(x.runs.map((r) => ({ ...r, frames: r.frames.map((f) => ({ ...f, perf: {} })) })));
  return frames(a) === frames(b);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export async function runJobsBench(o: JobsBenchOptions) {
  const lesson = parseExperimentSpec(JSON.parse(readFileSync(LESSON, 'utf8')));
  const spec = { ...lesson, name: `${lesson.name} (bench: ${o.seeds} seeds, ${o.steps} steps)`, seeds: lesson.seeds.slice(0, o.seeds), steps: o.steps };
  const dir = mkdtempSync(join(tmpdir(), 'bench-jobs-'));
  const specFile = join(dir, 'spec.json');
  writeFileSync(specFile, JSON.stringify(spec));
  const runs: Timed[] = [];
  try {
    for (let p = 0; p < o.pairs; p++) {
      const order = p % 2 === 0 ? [1, o.jobs] : [o.jobs, 1];
      for (const j of order) runs.push(await runExperiment(specFile, join(dir, `out-${runs.length}.json`), j));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const ones = runs.filter((r) => r.jobs === 1);
  const many = runs.filter((r) => r.jobs === o.jobs);
  const speedups = ones.map((r, i) => +(r.wall_s / many[i].wall_s).toFixed(3));
  const speedup = median(speedups);
  // the lesson's whole experiment, extrapolated: a cell costs (engine start + steps) as measured
  // with one job; N cores run N cells at once at the per-core efficiency measured here
  const cells = ones[0].bundle.runs.length;
  const perCell = median(ones.map((r) => r.wall_s)) / cells;
  const perStep = median(ones.map((r) => r.cell_train_s)) / o.steps;
  const lessonCell = Math.max(0, perCell - perStep * o.steps) + perStep * lesson.steps;
  const lessonCells = cellCount(lesson);
  const efficiency = speedup / Math.min(o.jobs, cells);
  const oneJob = lessonCells * lessonCell;
  return {
    spec: { from: 'public/experiments/l-votes-disagree.json', variants: spec.variants.length, seeds: spec.seeds.length, steps: spec.steps, cells },
    cores: availableParallelism(),
    jobs: o.jobs,
    runs: runs.map(({ bundle: _b, ...r }) => r),
    identical_frames: runs.every((r) => sameFrames(r.bundle, runs[0].bundle)),
    speedup_pairs: speedups,
    speedup_median: speedup,
    per_core_efficiency: +efficiency.toFixed(3),
    estimate: {
      lesson: `${lesson.name}: ${lesson.variants.length} variants × ${lesson.seeds.length} seeds × ${lesson.steps} steps`,
      cell_s: +lessonCell.toFixed(2),
      one_job_s: +oneJob.toFixed(1),
      [`jobs_${o.estimateCores}_s`]: +(oneJob / (Math.min(o.estimateCores, lessonCells) * efficiency)).toFixed(1),
      assumes: `a cell costs ${perCell.toFixed(2)} s at ${o.steps} steps with one job here (engine start + steps at ${perStep.toFixed(3)} s/step), and ${o.estimateCores} cores keep the per-core efficiency measured on ${o.jobs}`,
    },
  };
}
