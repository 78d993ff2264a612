import { describe, expect, it } from 'vitest';
import type { Config } from '../config';
import type { JudgedTurn } from '../credit/types';
import { sampleRow } from '../credit/advantage';
import type { HintVote, Vote } from '../tasks/judge';
import { chooseHint } from '../tasks/judge';
import { CONTEXT, PROMPT_LENGTH } from '../tasks/vocab';
import { builtinGateText, type GateKnobs } from './builtin';
import { compileGate } from './compile';
import { applyGate, ruleCounts, ruleName } from './gate';
import { loopJudgingOrder, sampleRecords } from './sample';

// The built-in gates on hand-made turns (the cases the hand-written gates were tested on).
const KNOBS: Omit<GateKnobs, 'method'> = { atLeastOne: true, maskZeroMode: 'keep', wOpd: 1, wRl: 1, normalizeStd: true, dynamicSampling: false };
const HINT_OK: HintVote[] = [{ vote: 1, behavior: 2, length: 8 }, { vote: -1, behavior: null, length: 0 }, { vote: 1, behavior: 1, length: 6 }];
const HINT_SHORT: HintVote[] = [{ vote: 1, behavior: 2, length: 2 }];

function turn(session: number, t: number, score: Vote, hasNext = true, hintVotes: HintVote[] = [], group = session): JudgedTurn {
  return {
    session, group, turn: t, state: 0, tokens: new Int32Array(CONTEXT), responseLength: 3, behavior: 0,
    rolloutLogp: new Float32Array(CONTEXT - 1), hasNext, votes: [score, score, score], score: hasNext ? score : 0,
    reward: hasNext ? score : 0, hintVotes,
  };
}

function decide(method: Config['method'], turns: JudgedTurn[], knobs: Partial<GateKnobs> = {}) {
  const gate = compileGate(builtinGateText({ ...KNOBS, ...knobs, method }));
  const outcomes = applyGate(gate, sampleRecords(turns, { hintMinLength: 5, staleness: 0, stateName: String }), loopJudgingOrder(turns));
  const decisions = outcomes.map((o, i) => ({ ...o, hint: o.usesHint ? chooseHint(turns[i].hintVotes, 0) : null }));
  const queued = decisions.filter((d) => d.queued);
  const effective = queued.filter((d) => d.lossMask === 1 && (d.reward !== 0 || d.opdWeight !== 0)).length;
  return { decisions, names: outcomes.map((o) => ruleName(gate, o.rule)), counts: ruleCounts(gate, outcomes), effectiveRate: queued.length ? effective / queued.length : 0, yield: effective / turns.length };
}

describe('binary RL', () => {
  it('A = r; no next state and score 0 are masked but stay queued', () => {
    const r = decide('binary-rl', [turn(0, 0, 1), turn(0, 1, 0), turn(0, 2, -1, false)], { atLeastOne: false });
    expect(r.decisions.map((d) => [d.queued, d.lossMask, d.reward])).toEqual([[true, 1, 1], [true, 0, 0], [true, 0, 0]]);
    expect(r.names).toEqual(['effective', 'score zero', 'no next state']);
    expect(r.effectiveRate).toBeCloseTo(1 / 3);
  });
  it('at-least-one promotes one 0-scored turn with a next state, with zero advantage', () => {
    const turns = [turn(0, 0, 0), turn(0, 1, 0), turn(0, 2, 0, false), turn(1, 0, 1), turn(1, 1, 0)];
    const r = decide('binary-rl', turns);
    expect(r.decisions.map((d) => d.lossMask)).toEqual([1, 0, 0, 1, 0]);
    expect(r.names[0]).toBe('at-least-one');
    expect(r.decisions[0].reward).toBe(0);
    expect(r.names.filter((n) => n === 'at-least-one')).toHaveLength(1);
    const row = sampleRow(turns[0], r.decisions[0], new Float32Array(CONTEXT - 1), null, 0);
    expect(Array.from(row.advantages).every((a) => a === 0)).toBe(true);
    expect(row.lossMask[PROMPT_LENGTH - 1]).toBe(1);
  });
  it('a session with only a last turn cannot promote', () => {
    expect(decide('binary-rl', [turn(0, 0, 0, false)]).decisions[0].lossMask).toBe(0);
  });
  it('maskZeroMode drop removes mask-0 turns from the queue', () => {
    const r = decide('binary-rl', [turn(0, 0, 1), turn(0, 1, 0), turn(0, 2, 0, false)], { maskZeroMode: 'drop' });
    expect(r.decisions.map((d) => d.queued)).toEqual([true, false, false]);
    expect(r.effectiveRate).toBe(1);
  });
});

describe('OPD', () => {
  it('accepts the longest long-enough +1 hint and drops the rest', () => {
    const r = decide('opd', [turn(0, 0, 1, true, HINT_OK), turn(0, 1, 1, true, HINT_SHORT), turn(0, 2, 0, false, HINT_OK)]);
    expect(r.decisions.map((d) => d.queued)).toEqual([true, false, false]);
    expect(r.decisions[0].hint).toEqual({ behavior: 2, length: 8 });
    expect(r.names).toEqual(['hint accepted', 'hint rejected', 'no next state']);
    expect(r.effectiveRate).toBe(1);
    expect(r.yield).toBeCloseTo(1 / 3);
  });
  it('A_t = logπ_T − logπ_old on response tokens, optionally clamped', () => {
    const d = decide('opd', [turn(0, 0, 1, true, HINT_OK)]).decisions[0];
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
    const r = decide('combine', [turn(0, 0, 1, true, HINT_OK), turn(0, 1, 0, true, HINT_OK), turn(0, 2, -1, true, HINT_SHORT), turn(0, 3, 0, true, HINT_SHORT)], { wOpd: 0.5, wRl: 2 });
    expect(r.decisions.map((d) => [d.queued, d.reward, d.opdWeight])).toEqual([[true, 2, 0.5], [true, 0, 0.5], [true, -2, 0], [false, 0, 0]]);
    expect(r.names).toEqual(['both', 'hint only', 'eval only', 'neither']);
    expect(r.counts).toEqual([1, 1, 1, 1, 0]);
  });
});

describe('GRPO', () => {
  const g = [turn(0, 0, 1, true, [], 0), turn(1, 0, 0, true, [], 0), turn(2, 0, 1, true, [], 1), turn(3, 0, 1, true, [], 1)];
  it('normalizes within groups; zero-variance groups carry no signal', () => {
    const r = decide('grpo', g);
    expect(r.decisions[0].reward).toBeCloseTo(1, 4);
    expect(r.decisions[1].reward).toBeCloseTo(-1, 4);
    expect(r.names[2]).toBe('zero-variance group');
    expect(r.decisions[2].queued).toBe(true);
    expect(r.effectiveRate).toBe(0.5);
  });
  it('Dr.GRPO only centers; dynamic sampling drops flat groups', () => {
    const r = decide('dr-grpo', g, { dynamicSampling: true });
    expect(r.decisions.map((d) => d.reward)).toEqual([0.5, -0.5, 0, 0]);
    expect(r.decisions.map((d) => d.queued)).toEqual([true, true, false, false]);
    expect(r.names[3]).toBe('dynamic sampling');
  });
  it('the GRPO gates read group fields (served in groups); the OpenClaw gates do not', () => {
    for (const m of ['grpo', 'dr-grpo'] as const) expect(compileGate(builtinGateText({ ...KNOBS, method: m })).grouped).toBe(true);
    for (const m of ['binary-rl', 'opd', 'combine'] as const) expect(compileGate(builtinGateText({ ...KNOBS, method: m })).grouped).toBe(false);
  });
});
