import { describe, expect, it } from 'vitest';
import { Rng } from '../rng';
import { INVALID, classify, renderBehavior } from './grammar';
import { BUILTIN_TASKS } from './builtin';
import { referenceBatch, referenceMix, REFERENCE_DEFAULTS } from './index';
import { castVotes, chooseHint, majority, type HintVote } from './judge';
import { CONTEXT, EOS, FILLER_BASE, NEW_TOKENS, PROMPT_LENGTH, VOCAB, VOCAB_USED, markerToken } from './vocab';

describe('vocabulary', () => {
  it('fits the reference model', () => {
    expect(VOCAB_USED).toBeLessThanOrEqual(VOCAB);
    expect(PROMPT_LENGTH + NEW_TOKENS).toBe(CONTEXT);
  });
});

describe('judge', () => {
  it('majority with tie → 0', () => {
    expect(majority([1, 1, -1])).toBe(1);
    expect(majority([-1, -1, 0])).toBe(-1);
    expect(majority([1, 0, -1])).toBe(0);
    expect(majority([1, -1])).toBe(0);
    expect(majority([1, 1, -1, -1])).toBe(0);
    expect(majority([0, 0, 1])).toBe(0);
    expect(majority([])).toBe(0);
  });
  it('noise-free votes equal the truth', () => {
    expect(castVotes(-1, 5, 0, new Rng(1))).toEqual([-1, -1, -1, -1, -1]);
  });
  it('hint rule: +1, long enough, longest wins', () => {
    const v: HintVote[] = [
      { vote: 1, behavior: 2, length: 4 },
      { vote: 1, behavior: 1, length: 9 },
      { vote: -1, behavior: null, length: 0 },
      { vote: 1, behavior: 3, length: 7 },
    ];
    expect(chooseHint(v, 5)).toEqual({ behavior: 1, length: 9 });
    expect(chooseHint(v, 10)).toBeNull();
  });
});

describe('classifier', () => {
  const b = BUILTIN_TASKS.strategies.behaviors.map((x) => x.markers);
  const [PLAN, STEP, ANSWER, CHECK] = (['PLAN', 'STEP', 'ANSWER', 'CHECK'] as const).map(markerToken);
  const f = FILLER_BASE;
  it('reads structure and ignores fillers', () => {
    expect(classify([PLAN, f, f + 3, STEP, ANSWER, f, EOS], b)).toBe(0);
    expect(classify([f, ANSWER, f + 1, EOS], b)).toBe(1);
    expect(classify([CHECK, ANSWER, EOS, 0, 0], b)).toBe(3);
  });
  it('rejects wrong order, missing EOS and foreign tokens', () => {
    expect(classify([STEP, PLAN, ANSWER, EOS], b)).toBe(INVALID);
    expect(classify([ANSWER, f, f], b)).toBe(INVALID);
    expect(classify([ANSWER, 1, EOS], b)).toBe(INVALID);
    expect(classify([EOS], b)).toBe(INVALID);
  });
  it('every rendered behavior classifies back, in every task', () => {
    const rng = new Rng(3);
    for (const task of Object.values(BUILTIN_TASKS)) {
      const markers = task.behaviors.map((x) => x.markers);
      for (let i = 0; i < markers.length; i++) {
        for (let k = 0; k < 20; k++) {
          const r = renderBehavior(markers[i], rng);
          expect(r.length).toBeLessThanOrEqual(NEW_TOKENS);
          expect(classify(r, markers)).toBe(i);
        }
      }
    }
  });
});

describe('tasks', () => {
  it('reference mixes and batches', () => {
    const t = BUILTIN_TASKS.strategies;
    expect(referenceMix(t, 0, null, REFERENCE_DEFAULTS)).toEqual([0.3, 0.4, 0.2, 0.1]);
    const hinted = referenceMix(t, 0, 3, REFERENCE_DEFAULTS);
    expect(hinted[3]).toBeGreaterThan(0.8);
    expect(hinted.reduce((a, x) => a + x, 0)).toBeCloseTo(1, 12);
    const { tokens, lossMask } = referenceBatch(t, 8, new Rng(2));
    expect(tokens.length).toBe(8 * CONTEXT);
    expect(lossMask[PROMPT_LENGTH - 2]).toBe(0);
    expect(lossMask[PROMPT_LENGTH - 1]).toBe(1);
  });
  it('assistant sessions end without a next state; toolchain ends with an outcome', () => {
    const rng = new Rng(5);
    const env = BUILTIN_TASKS.assistant.newEnv(rng, 3);
    const tr = [env.act(0, rng), env.act(1, rng), env.act(2, rng)];
    expect(tr.map((x) => x.hasNext)).toEqual([true, true, false]);
    expect(tr[2].done).toBe(true);
    const tc = BUILTIN_TASKS.toolchain.newEnv(rng, 4);
    const a = tc.act(2, rng);
    expect(a.done).toBe(true);
    expect(a.outcome === 0 || a.outcome === 1).toBe(true);
    expect(BUILTIN_TASKS.toolchain.good[0]).toEqual([0]);
    expect(BUILTIN_TASKS.strategies.good).toEqual([[0], [3], [0, 2]]);
  });
});
