import { describe, expect, it } from 'vitest';
import { applyPatch, makeConfig, type Config } from './config';
import { Run } from './loop';
import type { ScalarName } from './measure/names';
import { tabularFactory } from '../../tests/support/factory';

const make = tabularFactory();

async function frames(cfg: Config, n: number) {
  const r = await Run.create(await make(cfg), cfg);
  const out = [];
  for (let i = 0; i < n; i++) {
    const { perf: _perf, ...f } = await r.step();
    out.push(f);
  }
  return out;
}

describe('Run', () => {
  it('is deterministic: same seed and config → identical frames', async () => {
    for (const cfg of [
      makeConfig({ task: 'assistant', method: 'combine', lr: 0.05, updatesPerRollout: 2, minibatches: 2, staleness: 1, pauseWindow: 0.2, requestRate: 3, klCoef: 0.1 }),
      makeConfig({ task: 'toolchain', method: 'grpo', lr: 0.05, prmStepCoef: 0.2, stepwiseZ: true, gamma: 0.9, dynamicSampling: true }),
    ]) {
      const a = await frames(cfg, 4);
      const b = await frames(cfg, 4);
      expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    }
    const c = await frames(makeConfig({ seed: 2, lr: 0.05 }), 2);
    const d = await frames(makeConfig({ seed: 3, lr: 0.05 }), 2);
    expect(JSON.stringify(c)).not.toBe(JSON.stringify(d));
  });

  it('frames carry the metric names of measure/names.ts', async () => {
    const [f] = await frames(makeConfig({ task: 'strategies', lr: 0.05 }), 1);
    for (const k of <ScalarName[]>[
      'support/token_entropy', 'support/token_support', 'support/behavior_entropy/math', 'support/behavior_support/math',
      'support/behavior_dist/math/decompose', 'grad/reward_var', 'grad/zero_std_frac', 'grad/norm', 'gap/clipfrac_low',
      'gap/clipfrac_high', 'gap/ppo_kl', 'gap/rollout_logprob_abs_diff', 'gap/requests_503', 'esr/effective_rate', 'esr/yield',
      'esr/hint_accept_rate', 'esr/queued', 'esr/masked', 'esr/dropped', 'train/loss', 'train/pg_loss', 'train/entropy',
    ]) expect(f.scalars[k], k).toBeTypeOf('number');
    expect(f.series['support/pass_at_k']).toHaveLength(64);
    expect(f.series['support/pass_at_k_base']).toHaveLength(64);
    expect(f.series['gate/rule_counts'].reduce((a, x) => a + x, 0)).toBe(f.scalars['esr/served']);
    expect(f.trace.length).toBeGreaterThan(0);
  });

  it('setConfig applies at the next step and is recorded; a patch is checked where it comes in (applyPatch)', async () => {
    const cfg = makeConfig({ lr: 0.05 });
    const r = await Run.create(await make(cfg), cfg);
    await r.step();
    r.setConfig({ clipHigh: 0.2, updatesPerRollout: 2 });
    expect(r.config.clipHigh).toBe(0.28);
    expect(() => applyPatch(r.config, { clipLow: 5 })).toThrow(/config\.clipLow/);
    // every run-fixing setting of the schema is refused, not only seed and task
    expect(() => r.setConfig({ dModel: 32, heads: 2 })).toThrow('Run.setConfig: dModel, heads fix the run; start a new run');
    const f = await r.step();
    expect(f.changes).toEqual({ clipHigh: 0.2, updatesPerRollout: 2 });
    expect(f.scalars['train/updates']).toBe(2);
    expect(r.timeline.at(-1)).toEqual({ step: 1, patch: { clipHigh: 0.2, updatesPerRollout: 2 } });
  });

  it('Binary RL on assistant keeps mask-0 turns queued and reports their compute share', async () => {
    const [f] = await frames(makeConfig({ task: 'assistant', lr: 0.05, atLeastOne: false }), 1);
    expect(f.scalars['esr/masked']).toBeGreaterThan(0);
    expect(f.scalars['esr/mask0_compute_share']).toBeGreaterThan(0);
    expect(f.scalars['esr/dropped']).toBe(0);
    expect(f.trace.some((t) => t.ruleName === 'no next state' && t.queued && t.lossMask === 0)).toBe(true);
  });

  it('the 503 pause window loses sessions unless retried', async () => {
    const [lost] = await frames(makeConfig({ lr: 0.05, pauseWindow: 0.5 }), 1);
    expect(lost.scalars['gap/requests_503']).toBeGreaterThan(0);
    expect(lost.scalars['gap/lost_503']).toBe(lost.scalars['gap/requests_503']);
    const [retried] = await frames(makeConfig({ lr: 0.05, pauseWindow: 0.5, retry503: true }), 1);
    expect(retried.scalars['gap/lost_503']).toBe(0);
  });
});
