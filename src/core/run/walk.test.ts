// The walk of a live setting from its control to the graph, counting the checks on the way: a value
// is checked once at each boundary (the control on the page, the worker's message) and travels as a
// typed value in between. Each step names the code the lab runs there (ConfigField.svelte,
// Lab.setField, LabSettings.setField, RunState.patch and the comlink message, RunSession.setConfig,
// Run.setConfig, Run.step, the engine's trainStep). The gate rule's walk: src/core/gates/walk.test.ts.
import { describe, expect, it, vi } from 'vitest';
import type { Config } from '../config';
import type { PolicyEngine, PpoHyper } from '../engine';
import { recorder, tabularSessionDeps } from '../../../tests/support/session-deps';

// Every check of a setting's value goes through checkField (config/field.ts): count them per key.
const checks = vi.hoisted(() => new Map<string, number>());
vi.mock('../config/field', async (importOriginal) => {
  const m = await importOriginal<typeof import('../config/field')>();
  return {
    ...m,
    checkField: (key: string, value: unknown) => {
      checks.set(key, (checks.get(key) ?? 0) + 1);
      return m.checkField(key, value);
    },
  };
});
const counted = (key: string) => checks.get(key) ?? 0;

/** The engine's trainStep hyperparameters, as the graph receives them (its `clipHigh` input). */
function recordingHyper(seen: PpoHyper[]) {
  return (e: PolicyEngine): PolicyEngine =>
    new Proxy(e, {
      get(t, p) {
        if (p === 'trainStep') return (...a: Parameters<PolicyEngine['trainStep']>) => (seen.push(a[1]), t.trainStep(...a));
        const v = Reflect.get(t, p, t) as unknown;
        return typeof v === 'function' ? (v as () => unknown).bind(t) : v;
      },
    });
}

/** A lab run in a "worker": a RunSession on the tabular engine, as lab.worker.ts builds it. */
async function workerSide(config: Config, seen: PpoHyper[]) {
  const { RunSession } = await import('./session');
  const s = new RunSession(tabularSessionDeps({ wrap: recordingHyper(seen) }), recorder().listener, config);
  await s.init();
  await s.step(1);
  return s;
}

describe('the walk of a live setting', () => {
  it('clipHigh: checked once by its control and once by the worker; the page, the run and the graph take the typed value', async () => {
    const { checkField, makeConfig, withField } = await import('../config');
    const page = makeConfig({ lr: 0.05, behaviorSamples: 8, rolloutBatch: 8, updatesPerRollout: 2 });
    const seen: PpoHyper[] = [];
    const s = await workerSide(page, seen);
    checks.clear();

    // ConfigField.svelte commit: the typed text becomes a value (the field edit's boundary)
    expect(checkField('clipHigh', 0.35)).toBeNull();
    expect(counted('clipHigh')).toBe(1);
    // Lab.setField → LabSettings.setField: only the rules across fields (withField)
    const edited = withField(page, 'clipHigh', 0.35);
    // RunState.patch → comlink: the patch is cloned into the worker (the page→worker boundary)
    const message = structuredClone({ clipHigh: edited.clipHigh });
    expect(counted('clipHigh')).toBe(1);
    // RunSession.setConfig: the message is checked once (applyPatch); Run.setConfig takes it as it is
    expect(await s.setConfig(message)).toBeNull();
    expect(counted('clipHigh')).toBe(2);
    // Run.step: the pending patch applies; ppoHyper → the engine's trainStep → the graph's clipHigh input
    const before = seen.length;
    const st = await s.step(1);
    expect(st.config.clipHigh).toBe(0.35);
    expect(seen.length).toBeGreaterThan(before);
    expect(seen.slice(before).every((h) => h.clipHigh === 0.35)).toBe(true);
    expect(seen.slice(0, before).every((h) => h.clipHigh === 0.28)).toBe(true);
    expect(counted('clipHigh')).toBe(2);
    // a bad value is refused at the worker's boundary too (a message not from the control)
    expect(await s.setConfig({ clipHigh: -1 })).toMatch(/config\.clipHigh: -1 is outside/);
    await s.dispose();
  });
});
