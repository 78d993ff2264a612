// Reading a run's results in either output layout of src/model/graphs.ts (OutputLayout): the fused
// one-output layouts are split back into the engine's arrays ([P, B, T] tokens, [P, B, W] per-token
// values, [P, K] metrics, [P, B, W] ratio), so the rest of the engine sees the same arrays either way.
import type * as Ort from 'onnxruntime-web';
import type { OutputLayout } from '../model/graphs';

type Outputs = Record<string, Ort.Tensor>;

const data = async <A extends Float32Array | Int32Array>(t: Ort.Tensor) => (await t.getData()) as A;

/** Rows of width `width` holding parts of the given widths side by side, split into one array per part. */
function unzip(src: Float32Array, rows: number, widths: readonly number[]): Float32Array[] {
  const width = widths.reduce((a, w) => a + w, 0);
  const parts = widths.map((w) => new Float32Array(rows * w));
  for (let r = 0; r < rows; r++) {
    let at = r * width;
    widths.forEach((w, i) => {
      parts[i].set(src.subarray(at, at + w), r * w);
      at += w;
    });
  }
  return parts;
}

/** Per-row width of the output's last axis, and the rows before it. */
const rowsOf = (t: Ort.Tensor) => t.dims.slice(0, -1).reduce((a, d) => a * d, 1);

export async function readGenerate(out: Outputs, layout: OutputLayout, T: number): Promise<{ tokens: Int32Array; logp: Float32Array; entropy: Float32Array }> {
  if (layout === 'separate') {
    const [tokens, logp, entropy] = await Promise.all([data<Int32Array>(out.tokens), data<Float32Array>(out.logp), data<Float32Array>(out.entropy)]);
    return { tokens, logp, entropy };
  }
  const [tokens, logp, entropy] = unzip(await data<Float32Array>(out.out), rowsOf(out.out), [T, T - 1, T - 1]);
  return { tokens: Int32Array.from(tokens), logp, entropy };
}

export async function readScore(out: Outputs, layout: OutputLayout, T: number): Promise<{ logp: Float32Array; entropy: Float32Array }> {
  if (layout === 'separate') {
    const [logp, entropy] = await Promise.all([data<Float32Array>(out.logp), data<Float32Array>(out.entropy)]);
    return { logp, entropy };
  }
  const [logp, entropy] = unzip(await data<Float32Array>(out.stats), rowsOf(out.stats), [T - 1, T - 1]);
  return { logp, entropy };
}

/** Per member: gradNorm, and ratio, logp, entropy [P, B·W] (the engine's [P, B, W] layout). */
export async function readTrain(out: Outputs, layout: OutputLayout, P: number): Promise<{ gradNorm: Float32Array; ratio: Float32Array; logp: Float32Array; entropy: Float32Array }> {
  if (layout === 'separate') {
    const [gradNorm, ratio, logp, entropy] = await Promise.all(['gradNorm', 'ratio', 'logp', 'entropy'].map((k) => data<Float32Array>(out[k])));
    return { gradNorm, ratio, logp, entropy };
  }
  const all = await data<Float32Array>(out.out);
  const n = (all.length / P - 1) / 3;
  const [gradNorm, ratio, logp, entropy] = unzip(all, P, [1, n, n, n]);
  return { gradNorm, ratio, logp, entropy };
}
