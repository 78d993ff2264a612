import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tabularFactory } from '../../../tests/support/factory';
import { makeConfig } from '../config';
import { Run } from '../loop';
import { gateOf } from './builtin';
import { funnelOf, replayCaveats } from './funnel';
import { compileGate } from './compile';

const GATE = compileGate(['votes_pos > 0 && votes_neg > 0 => drop # disagree', '!has_next_state => mask0 # unjudged', 'hint_accepted => mask1 0.5*rl + opd # hint', 'reward > 0 => mask1 rl # good'].join('\n'));

/** The same gate written out by hand: which rule, and whether the sample is queued / masked / effective. */
function reference(r: { votes_pos: number; votes_neg: number; has_next_state: boolean; hint_accepted: boolean; hint_len: number; reward: number }) {
  if (r.votes_pos > 0 && r.votes_neg > 0) return { rule: 0, queued: false, mask0: false, effective: false };
  if (!r.has_next_state) return { rule: 1, queued: true, mask0: true, effective: false };
  if (r.hint_accepted) return { rule: 2, queued: true, mask0: false, effective: r.reward !== 0 || r.hint_len > 0 };
  if (r.reward > 0) return { rule: 3, queued: true, mask0: false, effective: true };
  return { rule: 4, queued: false, mask0: false, effective: false };
}

const record = fc.record({
  votes_pos: fc.integer({ min: 0, max: 3 }),
  votes_neg: fc.integer({ min: 0, max: 3 }),
  has_next_state: fc.boolean(),
  hint_accepted: fc.boolean(),
  hint_len: fc.integer({ min: 0, max: 4 }),
  reward: fc.constantFrom(-1, 0, 1, 0.5),
});

describe('funnelOf', () => {
  it('counts what a plain reference of the same gate keeps, on any batch', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 40 }), (recs) => {
        const ref = recs.map(reference);
        const rules = [0, 0, 0, 0, 0];
        for (const r of ref) rules[r.rule]++;
        expect(funnelOf(GATE, recs)).toEqual({
          served: recs.length,
          queued: ref.filter((r) => r.queued).length,
          dropped: ref.filter((r) => !r.queued).length,
          masked: ref.filter((r) => r.mask0).length,
          effective: ref.filter((r) => r.effective).length,
          rules,
        });
      }),
      { seed: 8, numRuns: 200 },
    );
  });

  it('replaying the gate in use on a step\'s traced fields gives that step\'s rule counts and decisions', async () => {
    // every served sample is traced when fewer than 64 are served; the loop's decisions are then reproduced
    const cfg = makeConfig({ task: 'assistant', method: 'combine', rolloutBatch: 8, lr: 0.05, judgeNoise: 0.3 });
    const run = await Run.create(await tabularFactory()(cfg), cfg);
    for (let s = 0; s < 3; s++) {
      const f = await run.step();
      const served = f.scalars['esr/served'];
      expect(f.trace.length).toBe(served);
      const out = funnelOf(gateOf(cfg), f.trace.map((t) => t.fields));
      expect(out.rules).toEqual(f.series['gate/rule_counts']);
      // the loop trains at most a batch of what the gate queued; the rest is overflow
      expect(out.queued).toBe(f.scalars['esr/queued'] + f.scalars['esr/overflow']);
      expect(out.dropped).toBe(f.scalars['esr/dropped']);
      expect(out.effective / out.queued).toBeCloseTo(f.scalars['esr/effective_rate'], 12);
      expect(out.effective / out.served).toBeCloseTo(f.scalars['esr/yield'], 12);
      const rules = new Array<number>(out.rules.length).fill(0);
      for (const t of f.trace) rules[t.rule]++;
      expect(rules).toEqual(out.rules);
    }
    run.dispose();
  });

  it('names what a replay cannot know', () => {
    const plain = compileGate('true => mask1 rl');
    expect(replayCaveats(plain, plain)).toEqual([]);
    const grouped = compileGate('group_reward_std < 1e-6 => drop\ntrue => mask1 rl_zscore');
    expect(replayCaveats(grouped, plain).join()).toMatch(/group fields/);
    expect(replayCaveats(grouped, grouped)).toEqual([]);
    expect(replayCaveats(compileGate('rollout_logp_gap > 0.1 => drop\ntrue => mask1 rl'), plain).join()).toMatch(/rollout_logp_gap was not computed/);
  });
});
