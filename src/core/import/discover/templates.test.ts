// One run written under other chat templates (tests/support/discover-styles/reasoning.ts `template`:
// the same draws as DeepSeek-R1 or R1-Zero write them) is read like the Qwen one: its behaviors, its
// states where the template keeps the request apart from the instruction, and never a special token
// (`<｜end▁of▁sentence｜>`, `<|endoftext|>`) among the words or names of what was found.
import { describe, expect, it } from 'vitest';
import { discoverCorpus, quality } from '../../../../tests/support/discover-quality';
import { reasoningCorpus } from '../../../../tests/support/discover-styles/reasoning';
import type { ChatTemplate } from '../../../../tests/support/discover-styles/common';
import { scaled } from '../../../../tests/support/speed';

const SPECIAL = /<\|[^<>]*\|>|｜|▁|end_of_sentence|endoftext|im_end|begin_of_sentence/;

async function read(template: ChatTemplate) {
  const c = await reasoningCorpus({ seed: 5, steps: 4, perStep: 160, template });
  const { behaviors, states, discovery } = discoverCorpus(c.truth, true);
  const found = [...discovery.behaviors!.behaviors(), ...discovery.states!.behaviors()];
  return { q: quality(c.truth, behaviors, states), found };
}

describe('a run under another chat template', () => {
  it('DeepSeek-R1 and R1-Zero runs are read like the Qwen one, with no special token in what was found', async () => {
    const qwen = await read('qwen');
    for (const t of ['deepseek', 'r1zero'] as const) {
      const { q, found } = await read(t);
      expect(q.meanNmi, t).toBeGreaterThanOrEqual(qwen.q.meanNmi - 0.03);
      expect(q.behaviors, t).toBeGreaterThanOrEqual(qwen.q.behaviors - 2);
      for (const b of found) for (const x of [b.name, b.title, ...b.words]) expect(x, `${t}: ${b.name}`).not.toMatch(SPECIAL);
      // R1-Zero's instruction stands before "User:", apart from the request; DeepSeek writes it on the
      // question's line, shared by every kind, and its states are not measured here (docs/import.md)
      if (t === 'r1zero') expect(q.stateNmi!, t).toBeGreaterThanOrEqual(qwen.q.stateNmi! - 0.03);
    }
  }, scaled(60_000));
});
