// What discovery keeps between steps does not grow with the run: on steps of responses no two alike
// (every step leaves dozens of would-be groups), the candidates kept, the named groups and each
// group's word counts stay within their caps over 120 steps (a 1,000-step follow: bench/ JSON).
import { describe, expect, it } from 'vitest';
import { Rng } from '../../rng';
import { BEHAVIOR_PARAMS, BehaviorDiscoverer } from './discoverer';
import type { ImportedSample } from '../types';

const params = { ...BEHAVIOR_PARAMS, maxNamed: 6, maxCandidates: 8, candidateAge: 5 };
const rng = new Rng(5);
const vocab = Array.from({ length: 3000 }, (_, i) => `word${i.toString(36)}x`);

function step(step: number, n: number): ImportedSample[] {
  return Array.from({ length: n }, (_, i) => {
    const words = Array.from({ length: 30 + Math.floor(rng.next() * 40) }, () => vocab[Math.floor(rng.next() ** 2 * vocab.length)]);
    return { file: `${step}.jsonl`, line: i + 1, step, group: null, prompt: `task ${i % 5}`, response: `${words.join(' ')}.`, reward: null, toolCalls: [], tokens: null, logprobs: null, lossMask: null, votes: [], behavior: null, state: null, fields: {} };
  });
}

describe('discovery state over a long run', () => {
  it('candidates, named groups and their word counts stay within their caps, step after step', () => {
    const d = new BehaviorDiscoverer([], params);
    let named = 0;
    for (let s = 1; s <= 120; s++) {
      d.labelStep(s, step(s, 40));
      if (s % 4) continue;
      const snap = d.save();
      const candidates = snap.clusters.filter((c) => c.name === null);
      named = snap.clusters.filter((c) => c.name !== null && c.mergedInto === null).length;
      expect(candidates.length).toBeLessThanOrEqual(params.maxCandidates);
      expect(named).toBeLessThanOrEqual(params.maxNamed);
      for (const c of snap.clusters) expect(c.words.length).toBeLessThanOrEqual(96);
      // a group merged away keeps its name and words for the legend, not its sum
      for (const c of snap.clusters) if (c.mergedInto !== null) expect(c.sum.i).toEqual([]);
    }
    // the caps were reached: every step left more would-be groups than are kept
    expect(named).toBe(params.maxNamed);
  });
});
