import { describe, expect, it } from 'vitest';
import type { HintVote, Vote } from '../tasks/judge';
import { CONTEXT, PROMPT_LENGTH } from '../tasks/vocab';
import { sampleRow } from './advantage';
import { binaryRl } from './binary-rl';
import { combine } from './combine';
import { creditRewards } from './credit';
import { drGrpo, grpo } from './grpo';
import { opd } from './opd';
import type { GateOptions, JudgedTurn } from './types';

const OPTS: GateOptions = { atLeastOne: true, maskZeroMode: 'keep', hintMinLength: 5, wOpd: 1, wRl: 1, normalizeStd: true, dynamicSampling: false };
const HINT_OK: HintVote[] = [{ vote: 1, behavior: 2, length: 8 }, { vote: -1, behavior: null, length: 0 }, { vote: 1, behavior: 1, length: 6 }];
const HINT_SHORT: HintVote[] = [{ vote: 1, behavior: 2, length: 2 }];

function turn(session: number, t: number, score: Vote, hasNext = true, hintVotes: HintVote[] = [], group = session): JudgedTurn {
  return {
    session, group, turn: t, state: 0, tokens: new Int32Array(CONTEXT), responseLength: 3, behavior: 0,
    rolloutLogp: new Float32Array(CONTEXT - 1), hasNext, votes: [score, score, score], score: hasNext ? score : 0,
    reward: hasNext ? score : 0, hintVotes,
  };
}

describe('binary RL', () => {
  it('A = r; no next state and score 0 are masked but stay queued', () => {
    const r = binaryRl([turn(0, 0, 1), turn(0, 1, 0), turn(0, 2, -1, false)], { ...OPTS, atLeastOne: false });
    expect(r.decisions.map((d) => [d.queued, d.lossMask, d.reward])).toEqual([[true, 1, 1], [true, 0, 0], [true, 0, 0]]);
    expect(r.decisions.map((d) => d.reasons)).toEqual([['effective'], ['score-zero'], ['no-next-state']]);
    expect(r.esr).toBeCloseTo(1 / 3);
  });
  it('at-least-one promotes one 0-scored turn with a next state, with zero advantage', () => {
    const r = binaryRl([turn(0, 0, 0), turn(0, 1, 0), turn(0, 2, 0, false), turn(1, 0, 1), turn(1, 1, 0)], OPTS);
    expect(r.decisions.map((d) => d.lossMask)).toEqual([1, 0, 0, 1, 0]);
    expect(r.decisions[0].reasons).toEqual(['score-zero', 'promoted-at-least-one']);
    expect(r.decisions[0].reward).toBe(0);
    expect(r.counts.promoted).toBe(1);
    const row = sampleRow(turn(0, 0, 0), r.decisions[0], new Float32Array(CONTEXT - 1), null, 0);
    expect(Array.from(row.advantages).every((a) => a === 0)).toBe(true);
    expect(row.lossMask[PROMPT_LENGTH - 1]).toBe(1);
  });
  it('a session with only a last turn cannot promote', () => {
    const r = binaryRl([turn(0, 0, 0, false)], OPTS);
    expect(r.decisions[0].lossMask).toBe(0);
  });
  it('maskZeroMode drop removes mask-0 turns from the queue', () => {
    const r = binaryRl([turn(0, 0, 1), turn(0, 1, 0), turn(0, 2, 0, false)], { ...OPTS, maskZeroMode: 'drop' });
    expect(r.decisions.map((d) => d.queued)).toEqual([true, false, false]);
    expect(r.decisions[1].reasons).toContain('mask-zero-dropped');
    expect(r.esr).toBe(1);
  });
});

describe('OPD', () => {
  it('accepts the longest long-enough +1 hint and drops the rest', () => {
    const r = opd([turn(0, 0, 1, true, HINT_OK), turn(0, 1, 1, true, HINT_SHORT), turn(0, 2, 0, false, HINT_OK)], OPTS);
    expect(r.decisions.map((d) => d.queued)).toEqual([true, false, false]);
    expect(r.decisions[0].hint).toEqual({ behavior: 2, length: 8 });
    expect(r.decisions[1].reasons).toEqual(['hint-rejected']);
    expect(r.decisions[2].reasons).toEqual(['no-next-state']);
    expect(r.esr).toBeCloseTo(1 / 3);
  });
  it('A_t = logπ_T − logπ_old on response tokens, optionally clamped', () => {
    const d = opd([turn(0, 0, 1, true, HINT_OK)], OPTS).decisions[0];
    const old = new Float32Array(CONTEXT - 1).fill(-2);
    const teacher = new Float32Array(CONTEXT - 1).fill(-0.5);
    teacher[PROMPT_LENGTH] = -5;
    const row = sampleRow(turn(0, 0, 1), d, old, teacher, 0);
    expect(row.advantages[PROMPT_LENGTH - 1]).toBeCloseTo(1.5);
    expect(row.advantages[PROMPT_LENGTH]).toBeCloseTo(-3);
    expect(row.advantages[PROMPT_LENGTH + 2]).toBe(0);
    expect(row.advantages[0]).toBe(0);
    expect(sampleRow(turn(0, 0, 1), d, old, teacher, 1).advantages[PROMPT_LENGTH]).toBeCloseTo(-1);
  });
});

describe('Combine', () => {
  it('four cases; drops exactly hint-rejected ∧ eval = 0', () => {
    const r = combine([turn(0, 0, 1, true, HINT_OK), turn(0, 1, 0, true, HINT_OK), turn(0, 2, -1, true, HINT_SHORT), turn(0, 3, 0, true, HINT_SHORT)], { ...OPTS, wOpd: 0.5, wRl: 2 });
    expect(r.decisions.map((d) => [d.queued, d.reward, d.opdWeight])).toEqual([[true, 2, 0.5], [true, 0, 0.5], [true, -2, 0], [false, 0, 0]]);
    expect(r.decisions.map((d) => d.reasons.at(-1))).toEqual(['both', 'hint-only', 'eval-only', 'dropped-neither']);
    expect(r.counts).toEqual({ case_both: 1, case_hint_only: 1, case_eval_only: 1, case_neither: 1 });
  });
});

describe('GRPO', () => {
  const g = [turn(0, 0, 1, true, [], 0), turn(1, 0, 0, true, [], 0), turn(2, 0, 1, true, [], 1), turn(3, 0, 1, true, [], 1)];
  it('normalizes within groups; zero-variance groups carry no signal', () => {
    const r = grpo(g, OPTS);
    expect(r.decisions[0].reward).toBeCloseTo(1, 4);
    expect(r.decisions[1].reward).toBeCloseTo(-1, 4);
    expect(r.decisions[2].reasons).toEqual(['zero-variance-group']);
    expect(r.decisions[2].queued).toBe(true);
    expect(r.counts.zero_std_groups).toBe(1);
    expect(r.esr).toBe(0.5);
  });
  it('Dr.GRPO only centers; dynamic sampling drops flat groups', () => {
    const r = drGrpo(g, { ...OPTS, dynamicSampling: true });
    expect(r.decisions.map((d) => d.reward)).toEqual([0.5, -0.5, 0, 0]);
    expect(r.decisions.map((d) => d.queued)).toEqual([true, true, false, false]);
  });
});

describe('long-horizon credit', () => {
  const ep = (s: number, outcome: 0 | 1, prm: Vote[], group = 0) =>
    prm.map((p, t) => ({ ...turn(s, t, p, true, [], group), outcome: t === prm.length - 1 ? outcome : undefined }));
  it('discounts the terminal outcome and adds PRM shaping', () => {
    const r = creditRewards(ep(0, 1, [1, -1, 1]), { gamma: 0.5, prmStepCoef: 0.1, stepwiseZ: false });
    expect(r[0]).toBeCloseTo(0.25 + 0.1);
    expect(r[1]).toBeCloseTo(0.5 - 0.1);
    expect(r[2]).toBeCloseTo(1 + 0.1);
    expect(creditRewards(ep(0, 0, [1, 1]), { gamma: 1, prmStepCoef: 0, stepwiseZ: false })).toEqual([-1, -1]);
  });
  it('step-wise z-score within (group, step)', () => {
    const turns = [...ep(0, 1, [1, 1]), ...ep(1, 0, [1, 1])];
    const r = creditRewards(turns, { gamma: 1, prmStepCoef: 0, stepwiseZ: true });
    expect(r.map((x) => Math.round(x * 1e6) / 1e6)).toEqual([1, 1, -1, -1]);
  });
});
