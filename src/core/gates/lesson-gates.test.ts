// The custom gates of lessons l, m and n (public/presets): each parses, its experiment compares it
// with the built-in gate, it decides as the lesson says on fixed records, and the exact facts the
// lessons state (the judge's wrong-sign shares; zero-variance groups carry zero gradient and only
// dilute the token mean) hold on fixed batches.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultConfig, type Config } from '../config';
import { parseExperimentSpec } from '../experiment/spec';
import type { JudgedTurn } from '../credit/types';
import { parsePreset } from '../presets';
import { ppoReference } from '../ppo';
import { majority, type Vote } from '../tasks/judge';
import { CONTEXT } from '../tasks/vocab';
import { builtinGateText, gateOf } from './builtin';
import { compileGate } from './compile';
import { applyGate, type GateDecision } from './gate';
import { loopJudgingOrder, sampleRecords, type SampleRecord } from './sample';

const root = new URL('../../../public/', import.meta.url);
const read = (path: string) => JSON.parse(readFileSync(new URL(path, root), 'utf8')) as unknown;
const lesson = (id: string) => parsePreset(id, read(`presets/${id}.json`));

// One judged turn; single-turn sessions unless `turn`/`session` say otherwise.
function judged(t: Partial<JudgedTurn> & Pick<JudgedTurn, 'session' | 'group'>): JudgedTurn {
  const votes = t.votes ?? [];
  return {
    turn: 0, state: 0, tokens: new Int32Array(CONTEXT), responseLength: 3, behavior: 0, rolloutLogp: new Float32Array(CONTEXT - 1),
    hasNext: true, votes, score: majority(votes), reward: majority(votes), hintVotes: [], ...t,
  };
}

const ctx = (gap?: number[]) => ({ hintMinLength: 5, staleness: 0, stateName: () => 'code', gap });
const decisions = (o: GateDecision[]) => o.map(({ queued, lossMask, reward, opdWeight }) => ({ queued, lossMask, reward, opdWeight }));

describe.each(['l-votes-disagree', 'm-drop-stale', 'n-dynamic-sampling'])('lesson %s', (id) => {
  it('parses, its gate compiles, and its experiment compares the built-in gate (A) with the lesson gate (B)', () => {
    const p = lesson(id);
    expect(p.config.gate).toBeTruthy();
    expect(gateOf(p.resolved).rules.length).toBeGreaterThan(1);
    const spec = parseExperimentSpec(read(`experiments/${id}.json`));
    expect(spec.name).toBe(id);
    expect(spec.seeds.length).toBeGreaterThanOrEqual(8);
    expect(spec.variants[0].patch.gate ?? '').toBe('');
    expect(spec.variants[1].patch.gate).toBe(p.config.gate);
    for (const [k, v] of Object.entries(spec.base)) if (k !== 'measureEvery') expect(p.resolved[k as keyof Config]).toBe(v);
  });
});

describe('lesson l: drop turns whose votes disagree', () => {
  const cfg = lesson('l-votes-disagree').resolved;
  const builtin = compileGate(builtinGateText(cfg));
  const custom = gateOf(cfg);
  // sessions of 2 turns: every vote pattern of 3 votes on the first turn, the second unjudged
  const patterns: Vote[][] = [];
  for (const a of [-1, 0, 1] as Vote[]) for (const b of [-1, 0, 1] as Vote[]) for (const c of [-1, 0, 1] as Vote[]) patterns.push([a, b, c]);
  const turns = patterns.flatMap((votes, s) => [
    judged({ session: s, group: s, turn: 0, votes }),
    judged({ session: s, group: s, turn: 1, hasNext: false }),
  ]);
  const recs = sampleRecords(turns, ctx());
  const order = loopJudgingOrder(turns);

  it('drops exactly the turns with a +1 and a −1 vote; every other turn is decided as by the built-in gate', () => {
    const a = applyGate(builtin, recs, order);
    const b = applyGate(custom, recs, order);
    recs.forEach((r, i) => {
      if (r.votes.includes(1) && r.votes.includes(-1)) expect(b[i]).toMatchObject({ rule: 0, queued: false });
      else expect(decisions([b[i]])).toEqual(decisions([a[i]]));
    });
    expect(b.filter((o) => o.rule === 0)).toHaveLength(patterns.filter((v) => v.includes(1) && v.includes(-1)).length);
  });

  it('the judge arithmetic the lesson cites: at noise 0.3, a nonzero majority has the wrong sign 11 % of the time when the votes disagree, 0.6 % when not', () => {
    // each vote is the truth, or with probability `noise` a uniform draw of {−1, 0, +1} (castVotes)
    const noise = cfg.judgeNoise;
    const share = (truth: Vote, disagree: boolean) => {
      let nonzero = 0;
      let wrong = 0;
      for (const v of patterns) {
        if ((v.includes(1) && v.includes(-1)) !== disagree) continue;
        const p = v.reduce<number>((acc, x) => acc * ((x === truth ? 1 - noise : 0) + noise / 3), 1);
        const m = majority(v);
        if (m === 0) continue;
        nonzero += p;
        if (m !== truth) wrong += p;
      }
      return wrong / nonzero;
    };
    for (const truth of [1, -1] as Vote[]) {
      expect(share(truth, true)).toBeCloseTo(0.111, 3);
      expect(share(truth, false)).toBeCloseTo(0.006, 3);
    }
  });
});

describe('lesson m: drop turns whose rollout log-probs drifted', () => {
  const cfg = lesson('m-drop-stale').resolved;
  it('drops exactly the turns with rollout_logp_gap > 0.1; the rest as the built-in gate', () => {
    const gaps = [0, 0.05, 0.1, 0.1000001, 0.3, 2];
    const turns = gaps.map((_, s) => judged({ session: s, group: s, votes: [1, 1, s % 2 ? 0 : 1] }));
    const recs = sampleRecords(turns, ctx(gaps));
    const order = loopJudgingOrder(turns);
    const a = applyGate(compileGate(builtinGateText(cfg)), recs, order);
    const b = applyGate(gateOf(cfg), recs, order);
    expect(gateOf(cfg).reads.has('rollout_logp_gap')).toBe(true);
    recs.forEach((r, i) => {
      if (r.rollout_logp_gap > 0.1) expect(b[i]).toMatchObject({ rule: 0, queued: false });
      else expect(decisions([b[i]])).toEqual(decisions([a[i]]));
    });
    expect(b.filter((o) => !o.queued)).toHaveLength(3);
  });
});

describe('lesson n: drop zero-variance groups (dynamic sampling)', () => {
  const cfg = lesson('n-dynamic-sampling').resolved;
  const builtin = gateOf({ ...cfg, gate: '' });
  const custom = gateOf(cfg);
  // group 0: every session +1 (zero variance); group 1: +1, 0, −1, +1; group 2: all −1; group 3: +1, −1, 0, 0
  const rewards: Vote[][] = [[1, 1, 1, 1], [1, 0, -1, 1], [-1, -1, -1, -1], [1, -1, 0, 0]];
  const turns = rewards.flatMap((g, gi) => g.map((r, k) => judged({ session: gi * 4 + k, group: gi, votes: [r, r, r] })));
  const recs: SampleRecord[] = sampleRecords(turns, ctx());
  const order = loopJudgingOrder(turns);
  const zero = recs.map((r) => r.group_reward_std < 1e-6);

  it('decides exactly as the built-in GRPO gate with dynamic sampling on', () => {
    const ds = gateOf({ ...defaultConfig(), method: 'grpo', dynamicSampling: true });
    expect(decisions(applyGate(custom, recs, order))).toEqual(decisions(applyGate(ds, recs, order)));
    expect(custom.grouped).toBe(true);
  });

  it('the built-in gate trains zero-variance groups with A = 0 exactly; the lesson gate drops them and keeps the rest unchanged', () => {
    const a = applyGate(builtin, recs, order);
    const b = applyGate(custom, recs, order);
    expect(zero).toEqual(rewards.flatMap((g) => g.map(() => new Set(g).size === 1)));
    recs.forEach((_, i) => {
      if (zero[i]) {
        expect(a[i]).toMatchObject({ queued: true, lossMask: 1, reward: 0 });
        expect(b[i].queued).toBe(false);
      } else expect(decisions([b[i]])).toEqual(decisions([a[i]]));
    });
  });

  it('zero-variance rows carry zero gradient; keeping them only scales the token-mean gradient by kept / all tokens', () => {
    const T = 5;
    const h = { clipLow: 0.2, clipHigh: 0.28, dualClip: 0, entropyCoef: 0, klCoef: 0, aggregation: 'token-mean' as const };
    const outcomes = applyGate(builtin, recs, order);
    const batch = (rows: number[]) => {
      const n = rows.length * T;
      const logp = new Float64Array(n);
      const oldLogp = new Float64Array(n);
      const advantages = new Float64Array(n);
      const lossMask = new Float64Array(n);
      rows.forEach((row, b) => {
        for (let t = 0; t < T; t++) {
          const i = b * T + t;
          // fixed, different per token; ρ within the clip range for some tokens and outside for others
          oldLogp[i] = -1 - 0.1 * ((row * 7 + t * 3) % 11);
          logp[i] = oldLogp[i] + 0.15 * Math.sin(row * 1.3 + t);
          advantages[i] = outcomes[row].reward;
          lossMask[i] = 1;
        }
      });
      return ppoReference({ batch: rows.length, logp, oldLogp, advantages, lossMask }, h);
    };
    const all = recs.map((_, i) => i);
    const kept = all.filter((i) => !zero[i]);
    const full = batch(all);
    const part = batch(kept);
    all.forEach((row, b) => {
      for (let t = 0; t < T; t++) if (zero[row]) expect(full.gradLogp[b * T + t]).toBe(0);
    });
    const scale = kept.length / all.length;
    kept.forEach((row, k) => {
      const b = all.indexOf(row);
      for (let t = 0; t < T; t++) expect(full.gradLogp[b * T + t]).toBeCloseTo(scale * part.gradLogp[k * T + t], 14);
    });
    expect(part.gradLogp.some((g) => g !== 0)).toBe(true);
    expect(full.pgLoss).toBeCloseTo(scale * part.pgLoss, 14);
  });
});
