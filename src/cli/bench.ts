// `npm run bench` — prints one JSON object: the reference model on WASM in Node, with a per-op
// profile from onnxruntime's profiler. `--browser` runs the same benchmark in headless Chromium for
// wasm and webgpu (see tests/browser). Options: --reps N, --leak-steps N, --ensemble-p N (0 skips
// the ensemble figures), --no-profile; with --browser: --backend all|wasm|webgpu, --gpu swiftshader|real,
// --threads N (WASM threads compared with one, default 2),
// --long-steps N (a long run of the lab page: pause latency and heap after N steps at max speed,
// default 5,000; 0 skips it; --long-every N: pause and read the heap every N steps, default 1,000;
// --reps 0 skips the engine part). Without --browser, --backend webgpu runs the engine on WebGPU in
// Node (Dawn; bench-webgpu.ts: parity against WASM, ensembles --ensemble-ps 1,8,32,64; --quick).
import { runBenchmark } from '../engine/bench';
import { opProfile } from './profile';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const reps = flag('--reps', 20);
const leakSteps = flag('--leak-steps', 2000);
const ensembleP = flag('--ensemble-p', 8);
const longSteps = flag('--long-steps', 5000);
const longEvery = flag('--long-every', 1000);
const threads = flag('--threads', 2);

/** --backend webgpu without --browser: the engine on WebGPU in Node (bench-webgpu.ts). */
async function webgpuInNode(): Promise<void> {
  const { rerunWithVulkanLoader, runWebgpuBench } = await import('./bench-webgpu');
  const code = rerunWithVulkanLoader();
  if (code !== null) process.exit(code);
  const i = args.indexOf('--ensemble-ps');
  const ps = i >= 0 ? args[i + 1].split(',').map(Number) : undefined;
  const quick = args.includes('--quick');
  const result = await runWebgpuBench({ quick, reps: flag('--reps', quick ? 1 : 20), leakSteps: flag('--leak-steps', quick ? 0 : 500), ps });
  console.log(JSON.stringify(result, null, 2));
  // Dawn's teardown can keep the process alive for minutes after the work is done
  process.exit(0);
}

async function main() {
  if (!args.includes('--browser') && args[args.indexOf('--backend') + 1] === 'webgpu' && args.includes('--backend')) return webgpuInNode();
  const { ort } = await import('../engine/node');
  if (args.includes('--browser')) {
    const { runBrowserBench } = await import('./bench-browser');
    const pick = <T extends string>(name: string, values: readonly T[], fallback: T): T => {
      const i = args.indexOf(name);
      if (i < 0) return fallback;
      if (!values.includes(args[i + 1] as T)) throw new Error(`${name} must be one of ${values.join(' | ')}, got ${args[i + 1]}`);
      return args[i + 1] as T;
    };
    const backend = pick('--backend', ['all', 'wasm', 'webgpu'] as const, 'all');
    const gpu = pick('--gpu', ['swiftshader', 'real'] as const, 'swiftshader');
    console.log(JSON.stringify(await runBrowserBench({ reps, leakSteps, ensembleP, backend, gpu, longSteps, longEvery, threads }), null, 2));
    return;
  }
  const memory = () => {
    const m = process.memoryUsage();
    return { rss: m.rss, array_buffers: m.arrayBuffers };
  };
  const result = await runBenchmark(ort, { backend: 'wasm', reps, leakSteps, memory, ensembleP });
  const ops = args.includes('--no-profile') ? undefined : opProfile();
  console.log(JSON.stringify({ ...result, node: process.version, op_profile: ops }, null, 2));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
