// AdamW's CPU scalars (adamwScalars) are what the float32 graph ops gave, bit for bit on WASM: 1 − β
// as a float32 Sub, and the no-clip case (+∞ max norm) a clip scale of exactly 1.
import { describe, expect, it } from 'vitest';
import { ort } from '../engine/node';
import { Graph } from '../graph/builder';
import { encodeModel } from '../graph/encode';
import * as op from '../graph/ops';
import { adamwScalars } from './optimizer';

describe('adamwScalars', () => {
  it('1 − β is the float32 Sub bit for bit, and max norm 0 gives a clip scale of exactly 1', async () => {
    const betas = [0.9, 0.98, 0.999, 0.9999, 0.5, 0.3, 1e-3, 1e-9, 0.99999994, 0.123456789, ...Array.from({ length: 500 }, (_, i) => Math.sin(i + 1) ** 2)];
    const norms = [0, 1e-30, 1e-6, 0.3, 1, 7.5, 1e6, 3e38];
    const g = new Graph('adamw');
    const beta = g.input('beta', 'float32', [betas.length]);
    g.output('oneMinus', op.sub(1, beta));
    const norm = g.input('norm', 'float32', [norms.length]);
    g.output('scale', op.min2(op.div(g.input('max', 'float32', [1]), op.add(norm, 1e-6)), 1));
    const s = await ort.InferenceSession.create(encodeModel(g), { executionProviders: ['wasm'], logSeverityLevel: 3 });
    const { maxGradNorm } = adamwScalars({ beta1: 0.9, beta2: 0.9, maxGradNorm: 0 });
    const out = await s.run({
      beta: new ort.Tensor('float32', Float32Array.from(betas), [betas.length]),
      norm: new ort.Tensor('float32', Float32Array.from(norms), [norms.length]),
      max: new ort.Tensor('float32', Float32Array.of(maxGradNorm), [1]),
    });
    const cpu = Float32Array.from(betas, (b) => adamwScalars({ beta1: b, beta2: b, maxGradNorm: 1 }).oneMinusBeta1);
    expect(Array.from(cpu)).toEqual(Array.from(out.oneMinus.data as Float32Array));
    expect(Array.from(out.scale.data as Float32Array)).toEqual(norms.map(() => 1));
    expect(adamwScalars({ beta1: 0.9, beta2: 0.9, maxGradNorm: 2 }).maxGradNorm).toBe(2);
  });
});
