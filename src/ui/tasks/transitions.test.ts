import { describe, expect, it } from 'vitest';
import { BUILTIN_SPECS } from '../../core/tasks/builtin';
import type { TransitionSpec } from '../../core/tasks/spec';
import { validateTaskSpec } from '../../core/tasks/validate';
import { nextText, parseNext, withHintP, withHintTo, withHintWhen, withNext, withNextMessage, withOutcome } from './transitions';

describe('the form’s environment edits', () => {
  it('next reads back as written, for every transition of the built-in specs', () => {
    for (const spec of Object.values(BUILTIN_SPECS))
      for (const st of spec.states) for (const t of Object.values(st.act)) expect(parseNext(nextText(t.next))).toEqual(t.next);
    expect(nextText({ results: 0.7, empty: 0.3 })).toBe('results=0.7, empty=0.3');
    expect(parseNext(' end ')).toBe('end');
  });

  it('a malformed distribution stays text or a bad number, and the validator names the field', () => {
    expect(parseNext('results=0.7, empty')).toBe('results=0.7, empty');
    expect(parseNext('results=x')).toEqual({ results: NaN });
    const spec = structuredClone(BUILTIN_SPECS.toolchain);
    withNext(spec.states[0].act.search, 'results=0.7, empty', spec.kind);
    const r = validateTaskSpec(JSON.parse(JSON.stringify(spec)));
    expect(r.errors.map((e) => e.path)).toEqual(['states[0].act.search.next']);
    withNext(spec.states[0].act.search, 'results=0.5, empty=0.4', spec.kind);
    expect(validateTaskSpec(JSON.parse(JSON.stringify(spec))).errors.map((e) => e.message)).toEqual(['probabilities must sum to 1']);
  });

  it('hints, outcomes and next messages edit the transition the validator reads', () => {
    const t: TransitionSpec = { truth: [1, 0, 0], hint: null, next: 'end', outcome: 0.3 };
    withHintTo(t, 'search');
    withHintP(t, 0.5);
    withHintWhen(t, 'not-positive');
    expect(t.hint).toEqual({ to: 'search', p: 0.5, when: 'not-positive' });
    withHintTo(t, 'read'); // p and when carry over
    expect(t.hint).toEqual({ to: 'read', p: 0.5, when: 'not-positive' });
    withHintWhen(t, 'always');
    expect(t.hint).toEqual({ to: 'read', p: 0.5 });
    withHintTo(t, '');
    expect(t.hint).toBeNull();
    withOutcome(t, NaN);
    expect('outcome' in t).toBe(false);
    withOutcome(t, 0.8);
    withNext(t, 'doc', 'long-horizon'); // not an ending action: no outcome
    expect(t).toEqual({ truth: [1, 0, 0], hint: null, next: 'doc' });
    withNextMessage(t, false);
    expect(t.nextMessage).toBe(false);
    withNextMessage(t, true);
    expect('nextMessage' in t).toBe(false);
  });
});
