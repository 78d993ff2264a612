// What the generate graph (src/model/graphs.ts: buildGenerateGraph) reads per row, laid out on the
// CPU where a row's window is known: its prompt with PAD (0) after the prompt, and per position the
// uniform of the next token, FORCED_UNIFORM where that token is not drawn (prompt, PAD). The graph
// then needs no per-row masks (nine kernels fewer per sampling pass), and the log-probs and
// entropies it computes for every position are kept only inside the window (0 elsewhere), here.
import type { SampleRequest } from '../core/engine';
import { FORCED_UNIFORM } from '../model/heads';

/** The drawn positions of row b of a request: predictions promptLength − 1 … promptLength − 1 + newTokens − 1. */
const windowOf = (r: SampleRequest, b: number) => [r.promptLength[b] - 1, r.promptLength[b] - 1 + r.newTokens];

/** prompt [P, B, T], uniforms [P, B, T − 1] and temperature [P] for the members of one run. */
export function generateFeeds(reqs: readonly (SampleRequest | null)[], members: readonly number[], B: number, T: number) {
  const [P, W] = [reqs.length, T - 1];
  const prompt = new Int32Array(P * B * T);
  const uniforms = new Float32Array(P * B * W).fill(FORCED_UNIFORM);
  const temperature = new Float32Array(P).fill(1);
  for (const p of members) {
    const r = reqs[p]!;
    const n = r.newTokens;
    if (r.uniforms.length !== B * n) throw new Error(`sample: need ${B * n} uniforms, got ${r.uniforms.length}`);
    temperature[p] = r.temperature;
    for (let b = 0; b < B; b++) {
      const len = r.promptLength[b];
      if (len < 1 || len + n > T) throw new Error(`sample: prompt length ${len} + ${n} new tokens must fit context ${T}`);
      prompt.set(r.prompt.subarray(b * T, b * T + len), (p * B + b) * T);
      uniforms.set(r.uniforms.subarray(b * n, (b + 1) * n), (p * B + b) * W + len - 1);
    }
  }
  return { prompt, uniforms, temperature };
}

/** Member p's log-probs or entropies [B, T − 1] (a copy of its block of `all`), 0 outside each row's drawn window. */
export function drawnOnly(all: Float32Array, r: SampleRequest, p: number, B: number, W: number): Float32Array {
  const out = new Float32Array(B * W);
  for (let b = 0; b < B; b++) {
    const [lo, hi] = windowOf(r, b);
    out.set(all.subarray((p * B + b) * W + lo, (p * B + b) * W + hi), b * W + lo);
  }
  return out;
}
