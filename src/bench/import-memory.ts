// `npm run bench -- --import`: peak memory of `npm run import` on generated verl runs of the same
// size per step and different step counts (e.g. 50 MB in 30 steps, 200 MB in 120). A log in step
// order is measured holding at most OPEN_STEPS steps (src/core/import/measure/measure.ts), so the peak
// should not grow with the step count. Peak RSS is the child's own at exit (exit-usage.ts),
// else its VmHWM polled from /proc/<pid>/status (Linux).
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { Rng } from '../core/rng';
import { EXIT_USAGE_ENV, EXIT_USAGE_MARK } from './exit-usage';

const ROOT = join(import.meta.dirname, '../..');

/** Lines of the generated run: responses of 120–280 words from a 6,000-word vocabulary (every one unlike the others). */
export function runLines(seed = 7): (i: number, step: number) => string {
  const rng = new Rng(seed);
  const rand = () => rng.next();
  const vocab = Array.from({ length: 6000 }, (_, i) => `w${i.toString(36)}`);
  return (i, step) => {
    const n = 120 + Math.floor(rand() * 160);
    const words = Array.from({ length: n }, () => vocab[Math.floor(rand() ** 2 * vocab.length)]);
    const tool = rand() < 0.3 ? '<tool_call>\n{"name": "search", "arguments": {}}\n</tool_call> ' : '';
    return JSON.stringify({ input: `task state=s${i % 6} question ${i % 40}`, output: tool + words.join(' '), score: rand() < 0.4 ? 1 : 0, step }) + '\n';
  };
}

/** A verl rollout dump: `{step}.jsonl` per step of `runLines`. */
async function writeRun(dir: string, steps: number, bytesPerStep: number): Promise<number> {
  const next = runLines();
  let total = 0;
  for (let step = 1; step <= steps; step++) {
    const out = createWriteStream(join(dir, `${step}.jsonl`));
    let bytes = 0;
    for (let i = 0; bytes < bytesPerStep; i++) {
      const line = next(i, step);
      bytes += line.length;
      if (!out.write(line)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
    total += bytes;
  }
  return total;
}

/** Run the import CLI on `dir` (a V8 heap limit of `heapMb`, none when null; `args` added to its command line); its peak RSS, CPU and wall time, and its stderr. */
export async function importPeak(dir: string, workDir: string, heapMb: number | null, discover = false, args: readonly string[] = []): Promise<{ peakRssMb: number; seconds: number; cpuSeconds: number; steps: number; stderr: string }> {
  writeFileSync(join(workDir, 'states.json'), JSON.stringify({ kind: 'regex', pattern: 'state=(\\S+)' }));
  writeFileSync(join(workDir, 'behaviors.json'), JSON.stringify({ rules: [{ label: 'search', toolsInclude: ['search'] }, { label: 'long', minTokens: 200 }], fallback: 'short' }));
  const out = join(workDir, 'metrics.jsonl');
  const t0 = performance.now();
  const child = spawn(process.execPath, [...(heapMb === null ? [] : [`--max-old-space-size=${heapMb}`]), '--import', 'tsx', '--import', join(ROOT, 'src/bench/exit-usage.ts'), join(ROOT, 'src/cli/import.ts'), '--format', 'verl', dir, ...(discover ? [] : ['--states', join(workDir, 'states.json'), '--behaviors', join(workDir, 'behaviors.json')]), '--out', out, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, [EXIT_USAGE_ENV]: '1' } });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let peakKb = 0;
  let cpuTicks = 0;
  const poll = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) peakKb = Math.max(peakKb, Number(m[1]));
      // utime + stime of all its threads (fields 14 and 15; ticks of 1/100 s, Linux's USER_HZ), as of the last poll
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpuTicks = Number(fields[11]) + Number(fields[12]);
    } catch {
      /* exited between polls */
    }
  }, 100);
  const [code] = (await once(child, 'exit')) as [number];
  clearInterval(poll);
  if (code !== 0) throw new Error(`import exited ${code}: ${stderr.slice(-500)}`);
  const steps = readFileSync(out, 'utf8').trimEnd().split('\n').length;
  // the child's own figures at exit (exit-usage.ts); the polled ones if it printed none
  const at = stderr.lastIndexOf(EXIT_USAGE_MARK);
  const usage = at < 0 ? null : (JSON.parse(stderr.slice(at + EXIT_USAGE_MARK.length, stderr.indexOf('\n', at))) as { maxRssKb: number; cpuUs: number });
  if (usage) stderr = stderr.slice(0, at).trimEnd();
  return { peakRssMb: Math.max(peakKb, usage?.maxRssKb ?? 0) / 1024, seconds: (performance.now() - t0) / 1000, cpuSeconds: usage ? usage.cpuUs / 1e6 : cpuTicks / 100, steps, stderr };
}

export async function runImportBench(opts: { totalMb: number; stepCounts: number[]; heapMb: number; discover?: boolean }): Promise<object> {
  const maxSteps = Math.max(...opts.stepCounts);
  const bytesPerStep = (opts.totalMb * 1e6) / maxSteps;
  const runs = [];
  for (const steps of opts.stepCounts) {
    const work = mkdtempSync(join(tmpdir(), 'invlab-import-bench-'));
    const dir = join(work, 'run');
    mkdirSync(dir);
    try {
      const bytes = await writeRun(dir, steps, bytesPerStep);
      const r = await importPeak(dir, work, opts.heapMb, opts.discover);
      runs.push({ steps, input_mb: +(bytes / 1e6).toFixed(1), peak_rss_mb: +r.peakRssMb.toFixed(1), seconds: +r.seconds.toFixed(1), frames: r.steps });
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  // what Node, tsx and the import's modules take before any data: a run of one step of ten samples
  const work = mkdtempSync(join(tmpdir(), 'invlab-import-bench-'));
  let baseline: number;
  try {
    mkdirSync(join(work, 'run'));
    await writeRun(join(work, 'run'), 1, 10_000);
    baseline = +(await importPeak(join(work, 'run'), work, opts.heapMb, opts.discover)).peakRssMb.toFixed(1);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const first = runs[0];
  const last = runs[runs.length - 1];
  return {
    bench: 'import-memory',
    rules: opts.discover ? 'none: states and behaviors discovered' : 'states by regex, behaviors by tools and length',
    format: 'verl',
    heap_limit_mb: opts.heapMb,
    mb_per_step: +(bytesPerStep / 1e6).toFixed(2),
    baseline_rss_mb: baseline,
    runs,
    peak_ratio_last_vs_first: +(last.peak_rss_mb / first.peak_rss_mb).toFixed(3),
    above_baseline_ratio_last_vs_first: +((last.peak_rss_mb - baseline) / (first.peak_rss_mb - baseline)).toFixed(3),
    node: process.version,
  };
}
