// The OpenClaw fit gets the check the verl fit has: a multi-turn run written from a scenario whose
// truth is known (each state's behavior mix, each state × behavior's next-state mix or session end,
// a turn cap) — the fit recovers the base mix, every next-state mix (exact multinomial tests, α =
// 0.01 over the cells), which pairs end their sessions, and the mean session length (within 3
// standard errors of the scenario's, computed exactly from its Markov chain).
import { describe, expect, it } from 'vitest';
import { measureLogs } from '../import/analyze';
import { memorySource } from '../import/sources';
import { Rng } from '../rng';
import { nodeRegexEngine } from '../../io/regex/node';
import { exactMultinomialP } from '../../../tests/support/multinomial';
import { behaviorCountKey, nextCountKey } from '../import/measure/fit-keys';
import { fitTask } from './fit';

const STATES = ['ask', 'answer', 'check'] as const;
type State = (typeof STATES)[number];
type Next = Partial<Record<State | 'end', number>>;
/** P(tool a) per state; tool b otherwise. */
const MIX: Record<State, number> = { ask: 0.6, answer: 0.3, check: 0.5 };
const NEXT: Record<State, { a: Next; b: Next }> = {
  ask: { a: { answer: 0.5, check: 0.3, ask: 0.1, end: 0.1 }, b: { end: 1 } },
  answer: { a: { check: 0.6, end: 0.4 }, b: { ask: 0.4, end: 0.6 } }, // 0.6: near the fit's end-at-half rule
  check: { a: { end: 1 }, b: { ask: 0.7, answer: 0.2, end: 0.1 } },
};
const MAX_TURNS = 8;
const SESSIONS = 600;

function draw(rng: Rng, p: Next): State | 'end' {
  const keys = Object.keys(p) as (State | 'end')[];
  return keys[rng.categorical(keys.map((k) => p[k]!))];
}

/** OpenClaw record and PRM lines of SESSIONS sessions starting in "ask", over 10 steps. */
function writeRun(seed: number): { rec: string; prm: string; lengths: number[] } {
  const rng = new Rng(seed);
  const rec: string[] = [];
  const prm: string[] = [];
  const lengths: number[] = [];
  for (let k = 0; k < SESSIONS; k++) {
    let state: State | 'end' = 'ask';
    let turn = 0;
    while (state !== 'end') {
      turn++;
      const tool: 'a' | 'b' = rng.bernoulli(MIX[state]) ? 'a' : 'b';
      const next: State | 'end' = turn === MAX_TURNS ? 'end' : draw(rng, NEXT[state][tool]);
      const step = 1 + (k % 10);
      rec.push(JSON.stringify({ session_id: `s${k}`, turn, step, prompt_text: `state=${state}`, response_text: 'x', tool_calls: [{ function: { name: tool } }], next_state: next === 'end' ? null : { content: 'n' } }));
      prm.push(JSON.stringify({ session_id: `s${k}`, turn, score: tool === 'a' ? 1 : -1, votes: [1, 1, 1] }));
      state = next;
    }
    lengths.push(turn);
  }
  return { rec: rec.join('\n') + '\n', prm: prm.join('\n') + '\n', lengths };
}

/** Mean and sd of the session length of the scenario, exactly (the chain over (state, turn)). */
function scenarioLength(): { mean: number; sd: number } {
  let dist = new Map<State, number>([['ask', 1]]);
  let mean = 0;
  let sq = 0;
  for (let turn = 1; turn <= MAX_TURNS; turn++) {
    const next = new Map<State, number>();
    for (const [s, p] of dist) {
      for (const [tool, q] of [['a', MIX[s]], ['b', 1 - MIX[s]]] as const) {
        for (const [t, r] of Object.entries(NEXT[s][tool]) as [State | 'end', number][]) {
          const w = p * q * r;
          if (t === 'end' || turn === MAX_TURNS) {
            mean += w * turn;
            sq += w * turn * turn;
          } else next.set(t, (next.get(t) ?? 0) + w);
        }
      }
    }
    dist = next;
  }
  return { mean, sd: Math.sqrt(sq - mean * mean) };
}

describe('the OpenClaw fit recovers a multi-turn scenario', () => {
  it('base mix, next-state mixes, session ends and the mean session length', async () => {
    const run = writeRun(11);
    const m = await measureLogs([memorySource('run.jsonl', run.rec), memorySource('run_prm.jsonl', run.prm)], {
      states: { kind: 'regex', pattern: 'state=(\\S+)' },
      behaviors: { rules: [{ label: 'a', toolSeq: ['a'] }, { label: 'b', toolSeq: ['b'] }], fallback: 'invalid' },
      eps: 0.05,
    }, { regex: nodeRegexEngine(), openclawBatch: 1_000_000 });
    // the base window covers every step, so the base mix is tested on all turns of each state
    const fit = fitTask(m, { baseSteps: [1, 10] });
    expect(fit.spec.kind).toBe('multi-turn');
    const cells: { what: string; p: number }[] = [];
    const byName = (s: State) => fit.spec.states.find((x) => x.name === s)!;
    const turnsIn = (s: State, tool: 'a' | 'b') => m.frames.reduce((a, f) => a + ((f.scalars as Record<string, number | undefined>)[behaviorCountKey(s, tool)] ?? 0), 0);
    for (const s of STATES) {
      const n = [turnsIn(s, 'a'), turnsIn(s, 'b')];
      const mix = byName(s).baseMix;
      expect(mix.a * (n[0] + n[1])).toBeCloseTo(n[0], 6);
      cells.push({ what: `${s} base mix`, p: exactMultinomialP(n, [MIX[s], 1 - MIX[s]]) });
      for (const tool of ['a', 'b'] as const) {
        const truth = NEXT[s][tool];
        const got = byName(s).act[tool].next;
        // the fit's rule: a pair that ended its sessions in at least half its turns ends them
        if ((truth.end ?? 0) >= 0.5) {
          expect(got, `${s} ${tool}`).toBe('end');
          continue;
        }
        expect(typeof got, `${s} ${tool}`).toBe('object');
        const goes = STATES.filter((t) => (truth[t] ?? 0) > 0);
        const cont = goes.reduce((a, t) => a + truth[t]!, 0);
        const mixGot = got as Record<string, number>;
        expect(Object.keys(mixGot).sort()).toEqual([...goes].sort());
        // counts back from the fitted shares: n_t = share × continuing turns of the pair
        const nextCounts = goes.map((t) => m.frames.reduce((a, f) => a + ((f.scalars as Record<string, number | undefined>)[nextCountKey(s, tool, t)] ?? 0), 0));
        const total = nextCounts.reduce((a, x) => a + x, 0);
        goes.forEach((t, i) => expect(mixGot[t]).toBeCloseTo(nextCounts[i] / total, 12));
        cells.push({ what: `${s} ${tool} next`, p: goes.length > 1 ? exactMultinomialP(nextCounts, goes.map((t) => truth[t]! / cont)) : 1 });
      }
    }
    const alpha = 0.01 / cells.length;
    for (const c of cells) expect(c.p, c.what).toBeGreaterThan(alpha);
    // the session length: the fit's mean is the log's, and the log's is the scenario's within 3 SE
    const logMean = run.lengths.reduce((a, x) => a + x, 0) / run.lengths.length;
    expect(fit.sessionTurns).toBeCloseTo(logMean, 9);
    const truth = scenarioLength();
    expect(Math.abs(fit.sessionTurns! - truth.mean)).toBeLessThan(3 * truth.sd / Math.sqrt(SESSIONS));
  }, 120_000);
});
