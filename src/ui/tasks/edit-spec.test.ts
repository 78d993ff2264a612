import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILTIN_SPECS, BUILTIN_TASK_NAMES } from '../../core/tasks/builtin';
import type { TaskSpec } from '../../core/tasks/spec';
import { parseTaskSpec } from '../../core/tasks/validate';
import { MAX_BEHAVIORS, MAX_STATES, addBehavior, addState, removeBehavior, removeState } from './edit-spec';

const triage = JSON.parse(readFileSync(new URL('../../../public/tasks/triage.json', import.meta.url), 'utf8')) as TaskSpec;
// the fitted task carries a token level (states[].responses) per behavior: removing one removes its entry
const fitted = JSON.parse(readFileSync(new URL('../../../public/tasks/fitted-verl.json', import.meta.url), 'utf8')) as TaskSpec;
const specs: [string, TaskSpec][] = [...BUILTIN_TASK_NAMES.map((n): [string, TaskSpec] => [n, BUILTIN_SPECS[n]]), ['triage', triage], ['fitted-verl', fitted]];
const valid = (s: TaskSpec) => {
  const r = parseTaskSpec(JSON.stringify(s));
  return r.ok ? '' : r.errors.map((e) => `${e.path}: ${e.message}`).join('; ');
};

describe('structural edits keep a valid spec valid', () => {
  for (const [name, spec] of specs) {
    it(`${name}: add and remove a state and a behavior, each step still a valid spec`, () => {
      const s = structuredClone(spec);
      expect(addBehavior(s)).toBe('');
      expect(valid(s)).toBe('');
      expect(s.behaviors.at(-1)!.name).toBe('new behavior');
      expect(s.states.every((st) => st.baseMix['new behavior'] === 0 && st.act['new behavior'])).toBe(true);
      expect(addState(s)).toBe('');
      expect(valid(s)).toBe('');
      expect(s.states.at(-1)!.name).toBe('new state');
      expect(removeBehavior(s, 0)).toBe('');
      expect(valid(s)).toBe('');
      expect(s.states.every((st) => Math.abs(Object.values(st.baseMix).reduce((a, b) => a + b, 0) - 1) < 1e-9)).toBe(true);
      expect(removeState(s, 0)).toBe('');
      expect(valid(s)).toBe('');
      expect(s.states.map((st) => st.name)).not.toContain(spec.states[0].name);
    });
  }

  it('up to the model\'s slots, then says why not; never below one', () => {
    const s = structuredClone(BUILTIN_SPECS.strategies);
    while (s.states.length < MAX_STATES) expect(addState(s)).toBe('');
    expect(valid(s)).toBe('');
    expect(addState(s)).toMatch(/at most 10 states/);
    while (s.behaviors.length < MAX_BEHAVIORS) expect(addBehavior(s)).toBe('');
    expect(valid(s)).toBe('');
    expect(addBehavior(s)).toMatch(/at most 12 behaviors/);
    const one = structuredClone(triage);
    expect(removeState(one, 0)).toBe('');
    expect(removeState(one, 0)).toMatch(/at least one state/);
    expect(valid(one)).toBe('');
  });
});

describe('shipped task files', () => {
  it('every file "Start from" offers is in public/ and is a valid spec', async () => {
    const { SHIPPED_TASK_FILES } = await import('./shipped');
    expect(SHIPPED_TASK_FILES).toContain('tasks/triage.json');
    for (const f of SHIPPED_TASK_FILES) expect(parseTaskSpec(readFileSync(new URL(`../../../public/${f}`, import.meta.url), 'utf8')).ok, f).toBe(true);
  });
});
