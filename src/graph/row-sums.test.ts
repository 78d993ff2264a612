// A bias / LayerNorm gradient's sum over rows is one Gemm with a shared ones row (reduceSumTo in
// src/graph/ops/shape.ts); on WASM it must be ReduceSum's sum bit for bit, or `npm run pretrain`
// would no longer reproduce the shipped checkpoints (src/cli/pretrain.test.ts).
import { describe, expect, it } from 'vitest';
import { ort } from '../engine/node';
import { Graph } from './builder';
import { encodeModel } from './encode';
import * as op from './ops';

describe('row sums', () => {
  it('reduceSumTo over symbolic rows is one Gemm per sum with one shared ones row, ReduceSum bit for bit on WASM', async () => {
    const g = new Graph('rows');
    const widths = [16, 64, 192, 256];
    const xs = widths.map((n, i) => g.input(`x${i}`, 'float32', [1, 'R', n]));
    xs.forEach((x, i) => {
      g.output(`gemm${i}`, op.reduceSumTo(x, [widths[i]]));
      g.output(`reduce${i}`, op.reduceSum(x, [0, 1]));
    });
    expect(g.nodes.filter((n) => n.op === 'Expand').length).toBe(1);
    expect(g.nodes.filter((n) => n.op === 'Gemm').length).toBe(widths.length);
    const s = await ort.InferenceSession.create(encodeModel(g), { executionProviders: ['wasm'], graphOptimizationLevel: 'all', logSeverityLevel: 3 });
    let seed = 5;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed / 2147483648);
    for (const R of [32, 240, 1024]) {
      const feeds = Object.fromEntries(
        widths.map((n, i) => [`x${i}`, new ort.Tensor('float32', Float32Array.from({ length: R * n }, () => (rnd() * 2 - 1) * 10 ** Math.floor(rnd() * 5 - 3)), [1, R, n])]),
      );
      const out = await s.run(feeds);
      for (let i = 0; i < widths.length; i++) {
        const [a, b] = [out[`gemm${i}`].data as Float32Array, out[`reduce${i}`].data as Float32Array];
        expect(Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length)), `R ${R}, n ${widths[i]}`).toEqual(Array.from(new Uint32Array(b.buffer, b.byteOffset, b.length)));
      }
    }
  });
});
