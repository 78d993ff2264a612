// The discovery-at-scale bench's step (reasoning-step.ts) is what it claims: read back through the
// real import, every response is a closed think of minTokens..maxTokens tokens as the import counts
// them (or noise), each prompt is sampled samples/prompts times, and a trace's behavior shows past
// its opening (the issue's complaint: only the first 400 words of each were read).
import { describe, expect, it } from 'vitest';
import { importSamples } from '../core/import/read/pipeline';
import { memorySource } from '../core/import/sources';
import { tokensOf } from '../core/import/measure/tokens';
import type { ImportedSample } from '../core/import/types';
import { reasoningStepLines } from './reasoning-step';

async function read(lines: string[]): Promise<ImportedSample[]> {
  const out: ImportedSample[] = [];
  const r = await importSamples([memorySource('1.jsonl', `${lines.join('\n')}\n`)], { format: 'verl' }, (s) => out.push(s));
  expect(r.issuesTotal).toBe(0);
  return out;
}

describe('reasoning step at scale', () => {
  it('long traces: tokens in range as the import counts them, 16 samples a prompt, moves past the opening', async () => {
    const lines = [...reasoningStepLines({ samples: 96, prompts: 6, minTokens: 2000, maxTokens: 8000 })];
    const samples = await read(lines.map((l) => l.json));
    expect(samples).toHaveLength(96);
    expect(new Set(samples.map((s) => s.prompt)).size).toBeLessThanOrEqual(6);
    const closed = samples.filter((s) => s.response.includes('</think>'));
    expect(closed.length).toBeGreaterThan(80);
    for (const s of closed) {
      const think = s.response.slice(0, s.response.indexOf('</think>'));
      const n = tokensOf({ ...s, response: think, tokens: null }).length;
      expect(n).toBeGreaterThanOrEqual(2000);
      expect(n).toBeLessThanOrEqual(8000 + 40);
    }
    // the truth is what was written: every trace but a direct one shows its move past its first 400 words
    const MOVE = { backtrack: /wait/i, enumerate: /\n(Case|Possibility|Option) \d+:/, verify: /Let me (check|verify)|Double-checking/ } as const;
    samples.forEach((s, k) => {
      const { behavior } = lines[k];
      const late = s.response.split(' ').slice(400).join(' ');
      if (behavior === 'noise') expect(s.response).not.toContain('</think>');
      else if (behavior === 'direct') for (const re of Object.values(MOVE)) expect(late).not.toMatch(re);
      else expect(late).toMatch(MOVE[behavior]);
    });
    expect(samples.every((s) => s.behavior === null && s.state === null)).toBe(true);
  });

  it('short answers: no think, minTokens..maxTokens tokens', async () => {
    const samples = await read([...reasoningStepLines({ samples: 64, prompts: 4, minTokens: 20, maxTokens: 120, shortAnswers: true })].map((l) => l.json));
    for (const s of samples) {
      expect(s.response).not.toContain('<think>');
      expect(tokensOf(s).length).toBeGreaterThanOrEqual(20);
      expect(tokensOf(s).length).toBeLessThanOrEqual(200);
    }
  });
});
