// A custom task is a setting like any other: checked by the config (the field and the spec's path
// named), fixed for a run, and trained by the same loop with its own names in every metric.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, makeConfig } from '../config';
import { Run } from '../loop';
import { tabularFactory } from '../../../tests/support/factory';
import { specText, taskLabel, taskOf } from './registry';
import type { TaskSpec } from './spec';

const triage = JSON.parse(readFileSync(new URL('../../../public/tasks/triage.json', import.meta.url), 'utf8')) as TaskSpec;
const text = specText(triage);

describe('a custom task as a setting', () => {
  it('resolves, with its own names and tokens', () => {
    const c = makeConfig({ taskSpec: text });
    const task = taskOf(c);
    expect(task.states.map((s) => s.name)).toEqual(['bug', 'feature']);
    expect(task.behaviors.map((b) => b.name)).toEqual(['patch', 'ask', 'plan']);
    expect(taskLabel(c)).toBe('custom: triage');
    expect(task.tokenNames.markers).toEqual(['PATCH', 'ASK', 'PLAN', 'STEP']);
  });
  it('a bad spec is refused naming the setting and the field', () => {
    const bad = structuredClone(triage);
    bad.states[1].baseMix.plan = 0.3;
    expect(() => makeConfig({ taskSpec: specText(bad) })).toThrow(ConfigError);
    expect(() => makeConfig({ taskSpec: specText(bad) })).toThrow(/config\.taskSpec: states\[1\]\.baseMix: probabilities must sum to 1/);
    expect(() => makeConfig({ taskSpec: text, focusState: 2 })).toThrow(/custom: triage has 2 states/);
  });
  it('trains on the loop; a running run refuses a new task spec and keeps its own', async () => {
    const cfg = makeConfig({ taskSpec: text, method: 'grpo', lr: 0.05, rolloutBatch: 16, behaviorSamples: 16, seed: 2 });
    const run = await Run.create(await tabularFactory({ pretrainSteps: 60 })(cfg), cfg);
    const f = await run.step();
    expect(f.scalars['support/behavior_dist/feature/plan']).toBeTypeOf('number');
    expect(f.trace[0].behavior).toMatch(/^(patch|ask|plan|invalid)$/);
    expect(f.trace.some((t) => /PATCH|ASK|PLAN/.test(t.response))).toBe(true);
    expect(() => run.setConfig({ taskSpec: '' })).toThrow();
    expect(run.config.taskSpec).toBe(text);
    await run.step();
    expect(taskOf(run.config).name).toBe('triage');
  }, 60_000);
});
