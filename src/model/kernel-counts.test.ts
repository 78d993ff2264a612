// Kernels the graphs ask for, counted on the graphs as built (no onnxruntime needed): a regression
// guard for the WebGPU dispatch counts (docs/performance.md, "Kernels per lab step"). Reshape,
// Unsqueeze and Shape run no kernel; onnxruntime may fuse or add a few, which the bench counts.
import { describe, expect, it } from 'vitest';
import type { Graph } from '../graph/builder';
import { buildGenerateGraph, buildSftGraph, buildTrainGraph } from './graphs';
import { paramLayout } from './layout';

const NO_KERNEL = new Set(['Reshape', 'Unsqueeze', 'Shape']);
const kernels = (g: Graph, op?: string) => g.nodes.filter((n) => !NO_KERNEL.has(n.op) && (op === undefined || n.op === op)).length;
const shape = (context: number, layers = 1) => ({ vocab: 16, context, dModel: 16, layers, heads: 2, mlp: 32 });

describe('kernels per graph', () => {
  it('sampling: 25 kernel nodes per decoded position (1 layer, one policy; 18 dispatches, GELU\'s 8 ops being one FastGelu in onnxruntime), layer 0 normed and projected once per run, no attention at the first position', () => {
    // contexts 6 and 7: at most 7 positions, so the per-position Splits stay single nodes (MAX_SPLIT_PARTS)
    const perPosition = kernels(buildGenerateGraph(paramLayout(shape(7)))) - kernels(buildGenerateGraph(paramLayout(shape(6))));
    expect(perPosition).toBe(25);
    // a token's draw is Softmax, one Gemm (cdf − u), Floor and one Gemm (the one-hot): no CumSum, Less or Cast per position
    const g = buildGenerateGraph(paramLayout(shape(7)));
    expect(kernels(g, 'CumSum')).toBe(0);
    expect(kernels(g, 'Floor')).toBe(6);
    // 6 draws and 5 attentions: the first position attends to itself alone (its value, no softmax)
    expect(kernels(g, 'Softmax')).toBe(6 + 5);
    // which positions are drawn is laid out on the CPU (src/engine/generate-feeds.ts): no per-row masks
    for (const mask of ['Less', 'And', 'Where']) expect(kernels(g, mask)).toBe(0);
    // the decode tables' one LN; every other norm is a SkipLayerNormalization per position
    expect(kernels(buildGenerateGraph(paramLayout(shape(6))), 'LayerNormalization')).toBe(1);
    // a second layer normalizes and projects per position again (its LN is in the residual norm)
    const twoLayers = kernels(buildGenerateGraph(paramLayout(shape(7, 2)))) - kernels(buildGenerateGraph(paramLayout(shape(6, 2))));
    expect(twoLayers - perPosition).toBe(20); // a second layer: its own QKV Gemm and Split, attention, MLP and two residual norms
  });

  it('PPO train step: the KL term is 8 kernel nodes, the entropy term 4, both left out where their coefficients are 0', () => {
    const layout = paramLayout(shape(8));
    const all = kernels(buildTrainGraph(layout));
    expect(all - kernels(buildTrainGraph(layout, 1, 'float32', 'fused', { kl: false, entropy: true }))).toBe(8);
    expect(all - kernels(buildTrainGraph(layout, 1, 'float32', 'fused', { kl: false, entropy: false }))).toBe(12);
  });

  it('train and SFT steps: bias and LayerNorm gradients sum their rows in Gemms with one shared ones row (one Expand)', () => {
    const layout = paramLayout(shape(8));
    for (const g of [buildTrainGraph(layout), buildSftGraph(layout)]) {
      expect(g.nodes.filter((n) => n.op === 'Expand' && n.outputs[0].shape.join() === '1,R').length).toBe(1);
      expect(g.nodes.filter((n) => n.op === 'Gemm' && n.outputs[0].shape[0] === 1).length).toBe(10);
      // the ReduceSums left keep no last axis of width d or more but the positions' sum over the batch ([1, B, T, d] → [1, 1, T, d])
      const kept = g.nodes.filter((n) => n.op === 'ReduceSum').map((n) => n.outputs[0].shape.at(-1));
      expect(kept.filter((d) => typeof d === 'number' && d >= 16)).toEqual([16]);
      // one one-hot of the tokens: the predicted tokens' and the embedding gradient's (a Gemm with transA, no Transpose)
      expect(kernels(g, 'Equal')).toBe(1);
      expect(g.nodes.filter((n) => n.op === 'Transpose' && n.inputs[0].shape.at(-1) === 16 && n.inputs[0].shape.length === 2).length).toBe(0);
    }
  });

  // AdamW's bias corrections 1 − β^t stay in the graph (float32 exp(t·ln β)): taken from the CPU they
  // differ by an ulp and `npm run pretrain` no longer reproduces the shipped checkpoints bit for bit
  // (src/cli/pretrain.test.ts).
});
