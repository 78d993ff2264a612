// `npm run bench -- --only jobs`: wall time of `npm run experiment -- --all --jobs 1` against
// `--jobs N` (default 2: every core of the development machine) on a lesson's experiment cut to a
// few seeds and steps (public/experiments/l-votes-disagree.json: the real model on WASM, the shipped
// base), run interleaved (1, N, N, 1, …) so that load from other work falls on both alike. Says the
// load (1-minute average) around each run, the process's peak RSS and each worker's CPU, whether the bundles' frames are
// identical, the speedup the CPU times allow (each worker on a core of its own: what a quiet machine
// shows, whatever the load now), and what a machine with more cores would take for the whole lesson, extrapolated from
// the measured per-cell time and the per-core efficiency measured here.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
  /** The shipped experiment (public/experiments/NAME.json) cut to `seeds` and `steps`; default lesson l's. */
  experiment?: string;
}

const EXPERIMENTS = fileURLToPath(new URL('../../public/experiments/', import.meta.url));
const CLI = fileURLToPath(new URL('../cli/experiment.ts', import.meta.url));

interface Timed {
  jobs: number;
  wall_s: number;
  load_before: number;
  load_after: number;
  /** Peak RSS of the experiment's process (all its worker threads). */
  peak_rss_mb: number;
  /** CPU seconds of each job's own thread (the first: the process's main thread, which is one of the jobs). */
  cpu_s: number[];
  /** CPU seconds of the whole process: workers, main thread, V8's compile and GC threads. */
  process_cpu_s: number;
  /** Each worker's wait from its last results to the last worker's (the tail's imbalance). */
  idle_at_end_s: number[];
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
      const rss = /peak RSS (\d+) MB/.exec(stderr)?.[1];
      const cpu = /CPU per worker ([^(\n]*)/.exec(stderr)?.[1] ?? '';
      const all = /this process ([\d.]+) s in all/.exec(stderr)?.[1];
      const idle = /idle at the end per worker ([^;\n]*)/.exec(stderr)?.[1] ?? '';
      const seconds = (text: string) => [...text.matchAll(/([\d.]+) s/g)].map((m) => Number(m[1]));
      const cells = stdout.trim().split('\n').map((l) => JSON.parse(l) as { wallSeconds: number });
      resolve({
        jobs, wall_s: +wall_s.toFixed(2), load_before: +load_before.toFixed(2), load_after: +loadavg()[0].toFixed(2),
        peak_rss_mb: Number(rss), cpu_s: seconds(cpu), process_cpu_s: Number(all), idle_at_end_s: seconds(idle),
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
  const name = o.experiment ?? 'l-votes-disagree';
  const shipped = readdirSync(EXPERIMENTS).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
  if (!shipped.includes(name)) throw new Error(`--jobs-experiment: no shipped experiment ${JSON.stringify(name)} (one of ${shipped.join(', ')})`);
  const lesson = parseExperimentSpec(JSON.parse(readFileSync(join(EXPERIMENTS, `${name}.json`), 'utf8')));
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
  // load-proof: the speedup if every worker had a core of its own. The N jobs' critical path: the
  // busiest worker's own thread plus an even share of the rest of the process (main thread, V8's
  // compile and GC threads, which the workers share). The one job's: its whole CPU time (upper
  // bound) or only its main thread's (lower bound: its compile and GC threads on the spare core for
  // free). And the CPU the N jobs spent over the one job's.
  const cpuOne = (r: Timed) => r.process_cpu_s;
  const pathN = (r: Timed) => Math.max(...r.cpu_s) + (r.process_cpu_s - r.cpu_s.reduce((a, x) => a + x, 0)) / r.cpu_s.length;
  const ratio = (x: number) => +x.toFixed(3);
  const cpuBound = ones.map((r, i) => ratio(cpuOne(r) / pathN(many[i])));
  const cpuBoundMainThread = ones.map((r, i) => ratio(r.cpu_s[0] / pathN(many[i])));
  const cpuCost = ones.map((r, i) => ratio(many[i].process_cpu_s / cpuOne(r)));
  // the lesson's whole experiment, extrapolated: a cell costs (engine start + steps) as measured
  // with one job; N cores run N cells at once at the per-core efficiency measured here. Once from
  // the wall times (as loaded as the machine is now), once from the CPU times (a quiet machine).
  const cells = ones[0].bundle.runs.length;
  const lessonCells = cellCount(lesson);
  const perCell = median(ones.map((r) => r.wall_s)) / cells;
  const stepShare = Math.min(1, (median(ones.map((r) => r.cell_train_s)) / perCell));
  const scale = (cell: number) => cell * (1 - stepShare) + cell * stepShare * (lesson.steps / o.steps);
  const estimate = (cell: number, speedupOnN: number) => {
    const oneJob = lessonCells * scale(cell);
    const efficiency = speedupOnN / Math.min(o.jobs, cells);
    return { cell_s: +scale(cell).toFixed(2), one_job_s: +oneJob.toFixed(1), [`jobs_${o.estimateCores}_s`]: +(oneJob / (Math.min(o.estimateCores, lessonCells) * efficiency)).toFixed(1), per_core_efficiency: +efficiency.toFixed(3) };
  };
  return {
    spec: { from: `public/experiments/${name}.json`, variants: spec.variants.length, seeds: spec.seeds.length, steps: spec.steps, cells },
    cores: availableParallelism(),
    jobs: o.jobs,
    runs: runs.map(({ bundle: _b, ...r }) => r),
    // every run's frames against the first's (false where the code changed during the bench, too)
    identical_frames: runs.every((r) => sameFrames(r.bundle, runs[0].bundle)),
    identical_to_first: runs.map((r) => sameFrames(r.bundle, runs[0].bundle)),
    speedup_pairs: speedups,
    speedup_median: speedup,
    cpu_bound_speedup_pairs: cpuBound,
    cpu_bound_main_thread_pairs: cpuBoundMainThread,
    cpu_total_ratio_pairs: cpuCost,
    estimate: {
      lesson: `${lesson.name}: ${lesson.variants.length} variants × ${lesson.seeds.length} seeds × ${lesson.steps} steps`,
      from_wall: estimate(perCell, speedup),
      from_cpu: estimate(median(ones.map(cpuOne)) / cells, median(cpuBound)),
      assumes: `a cell's engine start costs ${(100 * (1 - stepShare)).toFixed(0)} % of a ${o.steps}-step cell here and its steps scale with the step count; ${o.estimateCores} cores keep the per-core efficiency measured on ${o.jobs} (memory bandwidth may not)`,
    },
  };
}
