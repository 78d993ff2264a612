// Per-op-type time of one PPO train step of the reference model, from onnxruntime's own profiler
// (the WASM runtime writes its trace to fd 1, so the profiled runs happen in a child process whose
// stdout is parsed here).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { OrtModule } from '../engine/ort-engine';
import { REFERENCE_BATCH, REFERENCE_SHAPE } from './engine';
import { encodeModel } from '../graph/encode';
import { buildTrainGraph, HYPER_FIELDS, hyperRow } from '../model/graphs';
import { initParams, paramLayout } from '../model/layout';
import { ppoTokenInputs } from '../model/ppo-coefs';
import { PPO_TOKEN_INPUTS } from '../model/ppo-head';
import type { PpoHyper } from '../core/engine';

const PROFILE_HYPER: PpoHyper = {
  lr: 1e-4, beta1: 0.9, beta2: 0.98, eps: 1e-8, weightDecay: 0, maxGradNorm: 1, clipLow: 0.2, clipHigh: 0.28,
  dualClip: 0, entropyCoef: 0, klCoef: 0, aggregation: 'token-mean', temperature: 1,
};

interface TraceEvent {
  cat: string;
  name: string;
  dur: number;
  ts: number;
  args: { op_name?: string };
}

async function profileRuns(ort: OrtModule, runs: number): Promise<void> {
  const layout = paramLayout(REFERENCE_SHAPE);
  const session = await ort.InferenceSession.create(encodeModel(buildTrainGraph(layout)), {
    executionProviders: ['wasm'], enableProfiling: true, graphOptimizationLevel: 'all',
  });
  const B = REFERENCE_BATCH;
  const T = REFERENCE_SHAPE.context;
  const P = layout.total;
  const f32 = (dims: number[], v: number) => new ort.Tensor('float32', new Float32Array(dims.reduce((a, b) => a * b, 1)).fill(v), dims);
  const n = B * (T - 1);
  const batch = { batch: B, tokens: new Int32Array(B * T), oldLogp: new Float32Array(n).fill(-4), refLogp: new Float32Array(n).fill(-4), lossMask: new Float32Array(n).fill(1), advantages: new Float32Array(n).fill(0.5) };
  // a population of one (the single-run graph)
  const feeds = {
    params: new ort.Tensor('float32', initParams(layout, 1), [1, P]), m: f32([1, P], 0), v: f32([1, P], 0),
    tokens: new ort.Tensor('int32', Int32Array.from({ length: B * T }, (_, i) => (i * 7) % REFERENCE_SHAPE.vocab), [1, B, T]),
    tokenInputs: new ort.Tensor('float32', ppoTokenInputs(batch, PROFILE_HYPER), [1, PPO_TOKEN_INPUTS.length, B, T - 1]),
    hyper: new ort.Tensor('float32', hyperRow(PROFILE_HYPER, 1, true), [1, HYPER_FIELDS.length]),
  };
  for (let i = 0; i <= runs; i++) await session.run(feeds);
  session.endProfiling(); // the WASM runtime writes this trace straight to fd 1
  await session.release();
}

/** Run the profile in a child process and aggregate its trace per op type. */
export function opProfile(runs = 5): Record<string, string> {
  const out = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), String(runs)], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const text = out.slice(out.lastIndexOf('[\n{'));
  const events: TraceEvent[] = JSON.parse(text.slice(text.indexOf('['), text.lastIndexOf(']') + 1));
  // the first run allocates every buffer: keep only the node events of the later runs
  const starts = events.filter((e) => e.name === 'model_run').map((e) => e.ts).sort((a, b) => a - b);
  runs = starts.length - 1;
  if (runs < 1) throw new Error('profile: the trace holds fewer than two runs');
  const steady = events.filter((e) => e.ts >= starts[1]);
  const byOp = new Map<string, { us: number; count: number }>();
  for (const e of steady) {
    if (e.cat !== 'Node' || !e.args.op_name) continue;
    const entry = byOp.get(e.args.op_name) ?? { us: 0, count: 0 };
    entry.us += e.dur;
    entry.count++;
    byOp.set(e.args.op_name, entry);
  }
  const total = [...byOp.values()].reduce((s, e) => s + e.us, 0);
  const rows = [...byOp.entries()].sort((a, b) => b[1].us - a[1].us).slice(0, 12);
  return Object.fromEntries([
    ['total_ms_per_step (profiled)', (total / runs / 1000).toFixed(2)],
    ...rows.map(([op, e]) => [op, `${((100 * e.us) / total).toFixed(1)}% (${e.count / runs} nodes, ${(e.us / runs / 1000).toFixed(2)} ms)`]),
  ]);
}

// run as the profiling child only (not when bundled into the bench: bench/webgpu/pack.sh)
if (process.argv[1] === fileURLToPath(import.meta.url) && /profile\.[cm]?[jt]s$/.test(process.argv[1])) {
  const { ort } = await import('../engine/node');
  await profileRuns(ort, Number(process.argv[2] ?? 5));
}
