// `npm run bench -- --backend webgpu [--quick]`: the engine through onnxruntime-web's WebGPU EP in
// Node (Dawn via npm `webgpu`, a bench-only install: bench/webgpu/, `npm --prefix bench/webgpu ci`,
// done here on first use). Same JSON keys as the WASM bench plus `backend`, `adapter`, `parity`
// (against WASM on the same weights) and `ensembles_vs_wasm` (P = 1, 8, 32, 64 interleaved with
// WASM). --quick: a tiny model, P = 1 and 2, one rep — a correctness run on SwiftShader.
// --costs-only: the `costs` of one call per phase and `lab_step_dispatches` (minutes, not a quarter hour).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensembleSweep, parity } from './backends';
import { runBenchmark, REFERENCE_BATCH, REFERENCE_SHAPE } from './engine';
import { costsOnly, loopStepCosts } from './costs';
import { WEBGPU_INSTALL_DIR, loadNodeWebgpu } from '../engine/node-webgpu';
import type { PolicyShape } from '../core/engine';

/** The --quick workload: shader compilation on SwiftShader takes tens of seconds per kernel shape. */
export const QUICK_SHAPE: PolicyShape = { vocab: 16, context: 8, dModel: 16, layers: 1, heads: 2, mlp: 32 };
const QUICK_BATCH = 4;
const CHROMIUM_LIB = '/usr/lib/chromium';

export interface WebgpuBenchOptions {
  quick: boolean;
  reps: number;
  leakSteps: number;
  /** Ensemble sizes of the sweep (default 1, 8, 32, 64; --quick 1, 2). */
  ps?: number[];
  /** --costs-only: the per-phase counts (dispatches per kernel, graph nodes per op type) and nothing else. */
  costsOnly?: boolean;
}

/** The bench-only install, made on first use from its own lock (kept out of the lab's dependencies). */
export function ensureWebgpuInstall(log: (m: string) => void): void {
  if (existsSync(`${WEBGPU_INSTALL_DIR}node_modules/webgpu/index.js`)) return;
  log(`installing the bench-only WebGPU package: npm --prefix bench/webgpu ci (about 130 MB)…`);
  execFileSync('npm', ['--prefix', WEBGPU_INSTALL_DIR, 'ci', '--no-audit', '--no-fund'], { stdio: ['ignore', 'inherit', 'inherit'] });
}

/**
 * Dawn loads the Vulkan loader libvulkan.so.1 at startup; where the system has none, Chromium's copy
 * serves (it sits beside Chromium's SwiftShader ICD). The dynamic linker reads LD_LIBRARY_PATH only
 * at process start, so the bench re-runs itself with it set. Returns the child's exit code, or null
 * when this process can go on.
 */
export function rerunWithVulkanLoader(): number | null {
  if (process.env.INVLAB_VULKAN_CHECKED) return null;
  let hasLoader = false;
  try {
    hasLoader = /libvulkan\.so\.1/.test(execFileSync('ldconfig', ['-p'], { encoding: 'utf8' }));
  } catch {
    /* no ldconfig: try as is */
  }
  const env: NodeJS.ProcessEnv = { ...process.env, INVLAB_VULKAN_CHECKED: '1' };
  if (!hasLoader && existsSync(`${CHROMIUM_LIB}/libvulkan.so.1`)) env.LD_LIBRARY_PATH = [CHROMIUM_LIB, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  const r = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env });
  return r.status ?? 1;
}

export async function runWebgpuBench(o: WebgpuBenchOptions) {
  const log = (m: string) => console.error(`[bench webgpu] ${m}`);
  ensureWebgpuInstall(log);
  const t0 = performance.now();
  const wg = await loadNodeWebgpu();
  if (o.costsOnly) {
    try {
      const counts = await costsOnly(wg.ort, 'webgpu', o.quick ? QUICK_SHAPE : REFERENCE_SHAPE, o.quick ? QUICK_BATCH : REFERENCE_BATCH, wg.gpuCalls);
      return { backend: 'webgpu', adapter: wg.adapter.name, quick: o.quick, costs_only: true, ...counts, node: process.version, wall_s: (performance.now() - t0) / 1000 };
    } finally {
      wg.close();
    }
  }
  const { ort: wasm } = await import('../engine/node');
  log(`adapter: ${wg.adapter.name}${wg.adapter.software ? ' (software: correctness only, never a speed claim)' : ''}`);
  const shape = o.quick ? QUICK_SHAPE : REFERENCE_SHAPE;
  const batch = o.quick ? QUICK_BATCH : REFERENCE_BATCH;
  const ps = o.ps ?? (o.quick ? [1, 2] : [1, 8, 32, 64]);
  const memory = () => {
    const m = process.memoryUsage();
    return { rss: m.rss, array_buffers: m.arrayBuffers };
  };
  try {
    log('parity against WASM (same weights)…');
    const par = await parity({ webgpu: wg.ort, wasm }, shape, batch);
    log(`parity: ${JSON.stringify(par)}`);
    log('train / score / sample on WebGPU…');
    // loopSteps 0: the lab loop's many batch shapes would each compile shaders on SwiftShader; its
    // run counts do not depend on the backend and are taken on WASM below
    const single = await runBenchmark(wg.ort, {
      backend: 'webgpu', reps: o.reps, leakSteps: o.leakSteps, memory, ensembleP: o.quick ? 2 : 8, shape, batch, rooflineN: o.quick ? 64 : 512, gpu: wg.gpuCalls, loopSteps: 0,
    });
    log(`costs per call: ${JSON.stringify(single.costs)}`);
    const loop = await loopStepCosts(wasm, 'wasm', 3);
    log(`ensembles P = ${ps.join(', ')}, interleaved with WASM…`);
    const ensembles = await ensembleSweep({ webgpu: wg.ort, wasm }, shape, batch, ps, o.reps, log);
    return {
      ...single,
      backend: 'webgpu',
      adapter: wg.adapter.name,
      adapter_software: wg.adapter.software,
      quick: o.quick,
      parity: par,
      ensembles_vs_wasm: ensembles,
      loop_step: { backend: 'wasm', ...loop },
      node: process.version,
      wall_s: (performance.now() - t0) / 1000,
    };
  } finally {
    wg.close();
  }
}
