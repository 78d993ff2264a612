// sampleOneHot (src/model/heads.ts) draws token = #{v : cdf_v < u} clamped to V − 1, where cdf is
// the running sum of the softmax, as onnxruntime's CumSum gives it (the rule the lab's tokens were
// drawn by before the cdf became a Gemm): checked on WASM at ties (u equal to a cdf value), u = 0,
// u near 1, peaked and flat rows, and forced rows (base kept, even where the cdf reaches 1).
import { describe, expect, it } from 'vitest';
import { ort } from '../engine/node';
import { Graph } from '../graph/builder';
import { encodeModel } from '../graph/encode';
import * as op from '../graph/ops';
import { FORCED_UNIFORM, sampleOneHot } from './heads';

const V = 16;
const R = 64;

async function session(build: (g: Graph) => Record<string, ReturnType<typeof op.cast>>) {
  const g = new Graph('t');
  for (const [name, t] of Object.entries(build(g))) g.output(name, t);
  return ort.InferenceSession.create(encodeModel(g), { executionProviders: ['wasm'], graphOptimizationLevel: 'all', logSeverityLevel: 3 });
}

describe('sampleOneHot', () => {
  it('is the inverse-CDF token of the CumSum cdf, at ties, u = 0 and forced rows too', async () => {
    const cdfOf = await session((g) => ({ cdf: op.cumsum(op.softmax(g.input('z', 'float32', [1, R, V]), -1), -1) }));
    const sample = await session((g) => ({
      oneHot: sampleOneHot(g.input('z', 'float32', [1, R, V]), g.input('u', 'float32', [1, R, 1]), g.input('base', 'float32', [1, R, V])),
    }));
    let seed = 11;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed / 2147483648);
    let ties = 0;
    let forcedAtOne = 0;
    for (let round = 0; round < 40; round++) {
      const scale = [0.05, 1, 8, 60][round % 4];
      const z = Float32Array.from({ length: R * V }, () => (rnd() * 2 - 1) * scale);
      const cdf = (await cdfOf.run({ z: new ort.Tensor('float32', z, [1, R, V]) })).cdf.data as Float32Array;
      const u = new Float32Array(R);
      const base = new Float32Array(R * V);
      const forced = (r: number) => r % 5 === 4;
      for (let r = 0; r < R; r++) {
        const kind = r % 5;
        u[r] = kind === 0 ? cdf[r * V + Math.floor(rnd() * V)] : kind === 1 ? (r % 2 ? 0 : 1 - 2 ** -24) : kind === 4 ? FORCED_UNIFORM : Math.floor(rnd() * 2 ** 24) / 2 ** 24;
        base[r * V + (forced(r) ? Math.floor(rnd() * V) : 0)] = 1;
      }
      const out = (await sample.run({ z: new ort.Tensor('float32', z, [1, R, V]), u: new ort.Tensor('float32', u, [1, R, 1]), base: new ort.Tensor('float32', base, [1, R, V]) })).oneHot.data as Float32Array;
      for (let r = 0; r < R; r++) {
        const row = Array.from(out.subarray(r * V, (r + 1) * V));
        let want = forced(r) ? base.subarray(r * V, (r + 1) * V).indexOf(1) : 0;
        if (!forced(r)) for (let v = 0; v < V; v++) if (cdf[r * V + v] < u[r]) want++;
        if (forced(r) && cdf[r * V + V - 1] >= 1) forcedAtOne++;
        if (cdf.subarray(r * V, (r + 1) * V).includes(u[r])) ties++;
        expect(row, `round ${round} row ${r}`).toEqual(Array.from({ length: V }, (_, v) => (v === Math.min(want, V - 1) ? 1 : 0)));
      }
    }
    expect(ties).toBeGreaterThan(100);
    expect(forcedAtOne).toBeGreaterThan(50);
  });
});
