import { describe, expect, it } from 'vitest';
import type { PolicyEngine, SampleRequest } from './engine';
import { Rng } from './rng';
import { generate } from './serve';
import { BUILTIN_TASKS } from './tasks/builtin';
import { CONTEXT, EOS, FILLER_BASE, PAD, PROMPT_LENGTH, markerToken } from './tasks/vocab';

// An engine that answers sample() with fixed responses (serve only needs sample()).
function fixed(responses: number[][]): PolicyEngine {
  return {
    async sample(req: SampleRequest) {
      const tokens = req.prompt.slice();
      const logp = new Float32Array(req.batch * (CONTEXT - 1)).fill(-1);
      responses.forEach((r, b) => r.forEach((t, i) => (tokens[b * CONTEXT + PROMPT_LENGTH + i] = t)));
      return { tokens, logp, entropy: logp.map(() => 1) };
    },
  } as unknown as PolicyEngine;
}

describe('generate', () => {
  const A = markerToken('ANSWER');
  const F = FILLER_BASE;
  it('ends responses at EOS or before a sampled PAD, and classifies them', async () => {
    const g = await generate(fixed([[A, F, EOS, F, F], [A, PAD, F, EOS], [F, F, F]]), BUILTIN_TASKS.strategies, [0, 1, 2], 0.6, new Rng(1));
    expect(g.responseLength).toEqual([3, 1, 3]);
    expect(g.behavior).toEqual([1, -1, -1]);
    expect(Array.from(g.tokens.subarray(PROMPT_LENGTH, PROMPT_LENGTH + 5))).toEqual([A, F, EOS, PAD, PAD]);
    expect(g.logp[PROMPT_LENGTH + 2]).toBe(0); // the prediction after EOS is gone
    expect(g.logp[PROMPT_LENGTH + 1]).toBe(-1); // EOS itself is kept
    expect(g.tokens[CONTEXT + PROMPT_LENGTH + 2]).toBe(PAD); // after the sampled PAD
  });
});
