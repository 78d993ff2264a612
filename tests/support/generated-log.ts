// A fixed generated multi-step verl run (deterministic from its seed) for the import's measure
// tests: states in the prompt, GRPO groups (prompts repeated within a step), tool calls in the text,
// word tokens drawn from a skewed vocabulary so next-token counts repeat within and across states.
import { Rng } from '../../src/core/rng';

export function generatedVerlRun(opts: { steps: number; samplesPerStep: number; vocab?: number; seed?: number }): string[] {
  const rng = new Rng(opts.seed ?? 11);
  const vocab = Array.from({ length: opts.vocab ?? 300 }, (_, i) => `w${i.toString(36)}`);
  const files: string[] = [];
  for (let step = 1; step <= opts.steps; step++) {
    const lines: string[] = [];
    for (let i = 0; i < opts.samplesPerStep; i++) {
      const n = 5 + rng.int(60);
      const words = Array.from({ length: n }, () => vocab[Math.floor(rng.next() ** 2 * vocab.length)]);
      const tool = rng.next() < 0.3 ? '<tool_call>\n{"name": "search", "arguments": {}}\n</tool_call> ' : '';
      const input = `task state=s${i % 4} question ${Math.floor(i / 4) % 5}`;
      lines.push(JSON.stringify({ input, output: tool + words.join(' ') + (rng.next() < 0.5 ? '.' : ''), score: rng.next() < 0.4 ? 1 : 0, step }));
    }
    files.push(lines.join('\n') + '\n');
  }
  return files;
}
