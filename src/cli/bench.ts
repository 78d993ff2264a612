// `npm run bench` — prints one JSON object: the reference model on WASM in Node, with a per-op
// profile from onnxruntime's profiler. `--browser` runs the same benchmark in headless Chromium for
// wasm and webgpu (see tests/browser). Options: --reps N, --leak-steps N, --no-profile.
import { runBenchmark } from '../engine/bench';
import { opProfile } from './profile';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const reps = flag('--reps', 20);
const leakSteps = flag('--leak-steps', 2000);

async function main() {
  const { ort } = await import('../engine/node');
  if (args.includes('--browser')) {
    const { runBrowserBench } = await import('./bench-browser');
    console.log(JSON.stringify(await runBrowserBench({ reps, leakSteps }), null, 2));
    return;
  }
  const memory = () => {
    const m = process.memoryUsage();
    return { rss: m.rss, array_buffers: m.arrayBuffers };
  };
  const result = await runBenchmark(ort, { backend: 'wasm', reps, leakSteps, memory });
  const ops = args.includes('--no-profile') ? undefined : opProfile();
  console.log(JSON.stringify({ ...result, node: process.version, op_profile: ops }, null, 2));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
