// The built-in gates (rule sets in src/core/gates/builtin.ts) reproduce, bit for bit, the metric
// frames of the hand-written gates they replaced, recorded before the removal on the same seeds
// (tests/fixtures/gates/builtin-frames.json, from record.ts). Differences are only in names:
// - esr/effective_rate was queued / served for OPD and Combine; that quantity is now esr/yield
//   (effective / served: for these two gates every queued sample is effective), and
//   esr/effective_rate is effective / queued for every gate;
// - the method counters esr/promoted, esr/case_*, esr/hint_accepted are now per-rule counts
//   (series gate/rule_counts); esr/groups and esr/zero_std_groups are gone (grad/zero_std_frac
//   is their ratio);
// - trace reasons are now the deciding rule's label; a dropped sample's loss mask is not compared
//   (it is never trained: the old GRPO gate left it at 1, the gate says 0).
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../../src/core/config';
import { gateOf } from '../../src/core/gates/builtin';
import { ruleName } from '../../src/core/gates/gate';
import { Run } from '../../src/core/loop';
import { tabularFactory } from '../support/factory';
import recorded from '../fixtures/gates/builtin-frames.json';
import { CASES, STEPS } from './builtin-gates.cases';

type Frame = { step: number; version: number; scalars: Record<string, number>; series: Record<string, number[]>; ratioEdges: number[]; changes: unknown; trace: Record<string, unknown>[] };
const OLD = recorded as unknown as Record<string, Frame[]>;

/** The old reason that named a sample's outcome → the built-in rule label that decides it now. */
const REASON_RULE: Record<string, string> = {
  effective: 'effective', 'score-zero': 'score zero', 'no-next-state': 'no next state', 'promoted-at-least-one': 'at-least-one',
  'hint-accepted': 'hint accepted', 'hint-rejected': 'hint rejected', both: 'both', 'hint-only': 'hint only', 'eval-only': 'eval only',
  'dropped-neither': 'neither', 'group-advantage': 'group advantage', 'zero-variance-group': 'zero-variance group', 'dynamic-sampling-dropped': 'dynamic sampling',
};
const COUNTER_RULE: Record<string, string> = {
  'esr/promoted': 'at-least-one', 'esr/hint_accepted': 'hint accepted', 'esr/case_both': 'both', 'esr/case_hint_only': 'hint only',
  'esr/case_eval_only': 'eval only', 'esr/case_neither': 'neither',
};
const GONE = new Set(['esr/groups', 'esr/zero_std_groups']);

const make = tabularFactory();

describe('built-in gates = the hand-written gates they replaced (recorded frames, tabular engine)', () => {
  it('the fixture covers every method', () => {
    expect(new Set(CASES.map((c) => c.config.method))).toEqual(new Set(['binary-rl', 'opd', 'combine', 'grpo', 'dr-grpo']));
    expect(Object.keys(OLD)).toEqual(CASES.map((c) => c.name));
  });

  for (const c of CASES) {
    it(c.name, async () => {
      const cfg = makeConfig(c.config);
      const gate = gateOf(cfg);
      const run = await Run.create(await make(cfg), cfg);
      for (let s = 0; s < STEPS; s++) {
        const { perf: _perf, ...live } = await run.step();
        const now = JSON.parse(JSON.stringify(live)) as Frame;
        const old = OLD[c.name][s];
        const at = `${c.name}, step ${s + 1}`;
        expect([now.step, now.version, now.ratioEdges, now.changes], at).toEqual([old.step, old.version, old.ratioEdges, old.changes]);
        const counts = now.series['gate/rule_counts'];
        const countOf = (label: string) => gate.rules.reduce((a, r, i) => a + (r.label === label ? counts[i] : 0), 0);
        for (const [k, v] of Object.entries(old.scalars)) {
          if (GONE.has(k)) continue;
          if (k in COUNTER_RULE) expect(countOf(COUNTER_RULE[k]), `${at}: ${k}`).toBe(v);
          else if (k === 'esr/effective_rate' && (cfg.method === 'opd' || cfg.method === 'combine')) expect(now.scalars['esr/yield'], `${at}: ${k}`).toBe(v);
          else expect(now.scalars[k], `${at}: ${k}`).toBe(v);
        }
        for (const [k, v] of Object.entries(old.series)) expect(now.series[k], `${at}: ${k}`).toEqual(v);
        expect(now.trace.length, at).toBe(old.trace.length);
        old.trace.forEach((o, i) => {
          const n = now.trace[i];
          const { reasons, lossMask, ...rest } = o;
          for (const [k, v] of Object.entries(rest)) expect(n[k], `${at}, sample ${i}: ${k}`).toEqual(v);
          if (o.queued) expect(n.lossMask, `${at}, sample ${i}: lossMask`).toBe(lossMask);
          const rs = reasons as string[];
          const last = rs[rs.length - 1] === 'mask-zero-dropped' ? rs[0] : rs[rs.length - 1];
          expect(n.ruleName, `${at}, sample ${i}: rule for ${rs.join(',')}`).toBe(REASON_RULE[last]);
          expect(ruleName(gate, n.rule as number)).toBe(n.ruleName);
        });
      }
      run.dispose();
    }, 120_000);
  }
});
