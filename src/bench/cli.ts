// `npm run bench` — prints one JSON object: the reference model on WASM in Node, with a per-op
// profile from onnxruntime's profiler. `--browser` runs the same benchmark in headless Chromium for
// wasm and webgpu (see tests/browser). Options: --reps N, --leak-steps N, --ensemble-p N (0 skips
// the ensemble figures), --no-profile; with --browser: --backend all|wasm|webgpu, --gpu swiftshader|real,
// --threads N (WASM threads compared with one, default 2),
// --long-steps N (a long run of the lab page: pause latency and heap after N steps at max speed,
// default 5,000; 0 skips it; --long-every N: pause and read the heap every N steps, default 1,000;
// --reps 0 skips the engine part). Without --browser, --backend webgpu runs the engine on WebGPU in
// Node (Dawn; webgpu.ts: parity against WASM, ensembles --ensemble-ps 1,8,32,64; --quick; --costs-only:
// the kernel counts per phase alone).
// --import: peak memory of `npm run import` on generated verl runs (import-memory.ts; --import-mb
// total size of the longest run, default 200; --import-steps step counts, default 30,120;
// --import-heap-mb the child's V8 heap limit, default 64: a bounded import fits it at any length).
// --discover (with --import or --follow): no rule files, states and behaviors discovered (src/core/import/discover/).
// --follow: the run follower on a verl folder written step by step (follow.ts): latency from a step
// file written to its frame (--follow-samples per step, default 1,152) and RSS over --follow-steps
// steps (default 1,000).
// --only jobs: `npm run experiment -- --all` with --jobs 1 against --jobs N interleaved (jobs.ts;
// --jobs N default 2, --jobs-pairs default 2, --jobs-seeds default 16 and --jobs-steps default 60: lesson l's own
// experiment, 32 cells; --jobs-experiment NAME another shipped one, e.g. the short case
// `--jobs-experiment b-clip-higher --jobs-seeds 4 --jobs-steps 6`; --jobs-seeds 4 is a quick 8-cell cut,
// --estimate-cores default 8).
// --only discover-scale: discovery at scale (discover-scale.ts): one verl step of --scale-samples
// reasoning traces (default 8,192 of --scale-prompts 512 prompts) of --scale-min-tokens..--scale-max-tokens
// tokens (default 2000..8000) imported by `npm run import` with no rule files (wall, CPU, peak RSS),
// and the follow of a step of --follow-samples short answers (default 1,152).
// --only page-workers: the experiments page's memory with --page-workers C1,C2,… cores (default
// 1,2,4,8: navigator.hardwareConcurrency, one worker per core; page-workers.ts; needs the e2e build).
import { UsageError, parseCommandLine, usageOf, wholeNumber } from '../cli/args';
import { loadNow } from './load';
import { EXIT_ERROR, EXIT_USAGE } from '../cli/exit-codes';

// a bad flag is a usage error (exit 2), before any benchmark starts
const parsed = parseCommandLine(
  {
    browser: { type: 'boolean' }, 'no-profile': { type: 'boolean' },
    reps: { type: 'string' }, 'leak-steps': { type: 'string' }, 'ensemble-p': { type: 'string' }, 'long-steps': { type: 'string' }, 'long-every': { type: 'string' },
    threads: { type: 'string' }, import: { type: 'boolean' }, follow: { type: 'boolean' }, discover: { type: 'boolean' }, 'follow-steps': { type: 'string' }, 'follow-samples': { type: 'string' }, 'import-mb': { type: 'string' }, 'import-steps': { type: 'string' }, 'import-heap-mb': { type: 'string' }, backend: { type: 'string' }, gpu: { type: 'string' }, 'ensemble-ps': { type: 'string' }, quick: { type: 'boolean' }, 'costs-only': { type: 'boolean' },
    only: { type: 'string' }, jobs: { type: 'string' }, 'jobs-pairs': { type: 'string' }, 'jobs-seeds': { type: 'string' }, 'jobs-steps': { type: 'string' }, 'jobs-experiment': { type: 'string' }, 'estimate-cores': { type: 'string' }, 'page-workers': { type: 'string' },
    'scale-samples': { type: 'string' }, 'scale-prompts': { type: 'string' }, 'scale-min-tokens': { type: 'string' }, 'scale-max-tokens': { type: 'string' },
  },
  usageOf(import.meta.url, 28).replace(/^\/\/ ?/gm, ''),
  process.argv.slice(2),
  false,
);
if ('exit' in parsed) process.exit(parsed.exit);
const { values: v } = parsed;
const numbers = () => ({
  reps: wholeNumber('--reps', v.reps) ?? 20,
  leakSteps: wholeNumber('--leak-steps', v['leak-steps']) ?? 2000,
  ensembleP: wholeNumber('--ensemble-p', v['ensemble-p']) ?? 8,
  longSteps: wholeNumber('--long-steps', v['long-steps']) ?? 5000,
  longEvery: wholeNumber('--long-every', v['long-every'], 1) ?? 1000,
  threads: wholeNumber('--threads', v.threads, 1) ?? 2,
});

/** --backend webgpu without --browser: the engine on WebGPU in Node (webgpu.ts). */
async function webgpuInNode(): Promise<void> {
  const { rerunWithVulkanLoader, runWebgpuBench } = await import('./webgpu');
  const code = rerunWithVulkanLoader();
  if (code !== null) process.exit(code);
  const ps = v['ensemble-ps']?.split(',').map((p) => wholeNumber('--ensemble-ps', p, 1)!);
  const quick = v.quick === true;
  const result = await runWebgpuBench({ quick, costsOnly: v['costs-only'] === true, reps: wholeNumber('--reps', v.reps) ?? (quick ? 1 : 20), leakSteps: wholeNumber('--leak-steps', v['leak-steps']) ?? (quick ? 0 : 500), ps });
  console.log(JSON.stringify(result, null, 2));
  // Dawn's teardown can keep the process alive for minutes after the work is done
  process.exit(0);
}

async function main() {
  if (v.only !== undefined && v.only !== 'jobs' && v.only !== 'page-workers' && v.only !== 'discover-scale') throw new UsageError(`--only must be jobs, page-workers or discover-scale, got ${JSON.stringify(v.only)}`);
  if (v.only === 'discover-scale') {
    const { runDiscoverScaleBench } = await import('./discover-scale');
    const n = (name: 'scale-samples' | 'scale-prompts' | 'scale-min-tokens' | 'scale-max-tokens' | 'follow-samples', fallback: number) => wholeNumber(`--${name}`, v[name], 1) ?? fallback;
    const minTokens = n('scale-min-tokens', 2000);
    const maxTokens = n('scale-max-tokens', 8000);
    if (maxTokens < minTokens) throw new UsageError(`--scale-max-tokens (${maxTokens}) is below --scale-min-tokens (${minTokens})`);
    const loadBefore = loadNow();
    const r = await runDiscoverScaleBench({ samples: n('scale-samples', 8192), prompts: n('scale-prompts', 512), minTokens, maxTokens, followSamples: n('follow-samples', 1152) });
    console.log(JSON.stringify({ ...r, load: { before: loadBefore, after: loadNow() } }, null, 2));
    return;
  }
  if (v.only === 'page-workers') {
    const { runPageWorkersBench } = await import('./page-workers');
    const counts = (v['page-workers'] ?? '1,2,4,8').split(',').map((c) => wholeNumber('--page-workers', c, 1)!);
    console.log(JSON.stringify({ page_workers: await runPageWorkersBench(counts) }, null, 2));
    return;
  }
  if (v.only === 'jobs') {
    const { runJobsBench } = await import('./jobs');
    const n = (name: 'jobs' | 'jobs-pairs' | 'jobs-seeds' | 'jobs-steps' | 'estimate-cores', fallback: number) => wholeNumber(`--${name}`, v[name], 1) ?? fallback;
    const r = await runJobsBench({ jobs: n('jobs', 2), pairs: n('jobs-pairs', 2), seeds: n('jobs-seeds', 16), steps: n('jobs-steps', 60), estimateCores: n('estimate-cores', 8), experiment: v['jobs-experiment'] });
    console.log(JSON.stringify({ jobs: r }, null, 2));
    // the verdict in one line, for whoever runs it by hand (the JSON above is the record)
    console.error(`jobs ${r.jobs} vs 1: speedup ${r.speedup_median} (pairs ${r.speedup_pairs.join(', ')}; target 1.6), CPU bound ${r.cpu_bound_speedup_pairs.join(', ')} (one job's main thread only: ${r.cpu_bound_main_thread_pairs.join(', ')}), identical frames ${r.identical_frames ? 'yes' : 'NO'}, load ${r.runs.map((x) => x.load_before).join(', ')}`);
    return;
  }
  if (!v.browser && v.backend === 'webgpu') return webgpuInNode();
  if (v.follow) {
    const { runFollowBench } = await import('./follow');
    const loadBefore = loadNow();
    const r = await runFollowBench({ steps: wholeNumber('--follow-steps', v['follow-steps'], 2) ?? 1000, samples: wholeNumber('--follow-samples', v['follow-samples'], 1) ?? 1152, discover: !!v.discover });
    console.log(JSON.stringify({ ...r, load: { before: loadBefore, after: loadNow() } }, null, 2));
    return;
  }
  if (v.import) {
    const { runImportBench } = await import('./import-memory');
    const stepCounts = (v['import-steps'] ?? '30,120').split(',').map((s) => wholeNumber('--import-steps', s, 1)!);
    const loadBefore = loadNow();
    const r = await runImportBench({ totalMb: wholeNumber('--import-mb', v['import-mb'], 1) ?? 200, stepCounts, heapMb: wholeNumber('--import-heap-mb', v['import-heap-mb'], 16) ?? 64, discover: !!v.discover });
    console.log(JSON.stringify({ ...r, load: { before: loadBefore, after: loadNow() } }, null, 2));
    return;
  }
  const { reps, leakSteps, ensembleP, longSteps, longEvery, threads } = numbers();
  const { runBenchmark } = await import('./engine');
  const { opProfile } = await import('./profile');
  const { ort } = await import('../engine/node');
  if (v.browser) {
    const { runBrowserBench } = await import('./browser');
    const pick = <T extends string>(name: string, text: string | undefined, values: readonly T[], fallback: T): T => {
      if (text === undefined) return fallback;
      if (!(values as readonly string[]).includes(text)) throw new UsageError(`--${name} must be one of ${values.join(' | ')}, got ${JSON.stringify(text)}`);
      return text as T;
    };
    const backend = pick('backend', v.backend, ['all', 'wasm', 'webgpu'] as const, 'all');
    const gpu = pick('gpu', v.gpu, ['swiftshader', 'real'] as const, 'swiftshader');
    console.log(JSON.stringify(await runBrowserBench({ reps, leakSteps, ensembleP, backend, gpu, longSteps, longEvery, threads }), null, 2));
    return;
  }
  const memory = () => {
    const m = process.memoryUsage();
    return { rss: m.rss, array_buffers: m.arrayBuffers };
  };
  const result = await runBenchmark(ort, { backend: 'wasm', reps, leakSteps, memory, ensembleP });
  const ops = v['no-profile'] ? undefined : opProfile();
  console.log(JSON.stringify({ ...result, node: process.version, op_profile: ops }, null, 2));
}

main().catch((e: unknown) => {
  console.error(e instanceof UsageError ? e.message : e);
  process.exit(e instanceof UsageError ? EXIT_USAGE : EXIT_ERROR);
});
