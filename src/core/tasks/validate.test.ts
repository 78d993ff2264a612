import { describe, expect, it } from 'vitest';
import { BUILTIN_SPECS } from './builtin';
import { parseTaskSpec, validateTaskSpec, type SpecError } from './validate';

const bad = (mutate: (s: any) => void): SpecError[] => {
  const s = structuredClone(BUILTIN_SPECS.strategies) as any;
  mutate(s);
  const r = validateTaskSpec(s);
  expect(r.ok).toBe(false);
  return r.errors;
};
const paths = (e: SpecError[]) => e.map((x) => x.path);

describe('task spec validation', () => {
  it('accepts the built-ins', () => {
    for (const s of Object.values(BUILTIN_SPECS)) expect(validateTaskSpec(structuredClone(s)).errors).toEqual([]);
  });
  it('checks a state\'s responses (the token level): behaviors, P(k fillers) within the window, 1..20 filler tokens', () => {
    const ok = structuredClone(BUILTIN_SPECS.strategies) as any;
    ok.states[0].responses = { direct: { fillers: [0.5, 0.5], fillerTokens: 3 } };
    expect(validateTaskSpec(ok).errors).toEqual([]);
    const e = (r: unknown) => bad((s) => (s.states[0].responses = r));
    expect(paths(e({ nobody: { fillers: [1], fillerTokens: 1 } }))).toEqual(['states[0].responses.nobody']);
    expect(e({ direct: { fillers: [0.5, 0.6], fillerTokens: 1 } })).toEqual([{ path: 'states[0].responses.direct.fillers', value: '"sum 1.1"', message: 'probabilities must sum to 1' }]);
    expect(paths(e({ direct: { fillers: [1, -0], fillerTokens: 0 } }))).toEqual(['states[0].responses.direct.fillerTokens']);
    expect(e({ direct: { fillers: [1], fillerTokens: 21 } })[0].message).toBe('an integer 1..20: the model has 20 filler tokens');
    expect(paths(e({ direct: { fillers: [1], fillerTokens: 2, extra: 1 } }))).toEqual(['states[0].responses.direct.extra']);
    expect(paths(e({ direct: { fillers: ['1'], fillerTokens: 2 } }))).toEqual(['states[0].responses.direct.fillers[0]']);
    // decompose has 3 markers: at most 9 fillers, so P(0) … P(9): 10 entries
    const decompose = BUILTIN_SPECS.strategies.behaviors.find((b) => b.name === 'decompose')!.markers.length;
    expect(decompose).toBe(3);
    const eleven = e({ decompose: { fillers: [...new Array(10).fill(0), 1], fillerTokens: 2 } });
    expect(eleven).toEqual([{ path: 'states[0].responses.decompose.fillers', value: '"11 entries"', message: expect.stringMatching(/^1\.\.10 entries .*3 markers, so at most 9 fillers/) }]);
    expect(paths(e([]))).toEqual(['states[0].responses']);
  });
  it('names the field, the value and why', () => {
    const e = bad((s) => (s.states[1].baseMix.direct = 0.5));
    expect(e).toEqual([{ path: 'states[1].baseMix', value: '"sum 1.1"', message: 'probabilities must sum to 1' }]);
    expect(paths(bad((s) => (s.states[0].act.verify.truth = [0.5, 0.5])))).toEqual(['states[0].act.verify.truth']);
    expect(paths(bad((s) => (s.behaviors[2].markers = ['PLAN', 'NOPE'])))).toEqual(['behaviors[2].markers[1]']);
    expect(paths(bad((s) => (s.states[2].gold = 'guess')))).toEqual(['states[2].gold']);
    expect(paths(bad((s) => (s.states[0].act.direct.hint = { to: 'nobody' })))).toEqual(['states[0].act.direct.hint.to']);
    expect(paths(bad((s) => delete s.states[0].act.invalid))).toEqual(['states[0].act.invalid']);
    expect(paths(bad((s) => (s.states[0].baseMx = {})))).toEqual(['states[0].baseMx']);
    expect(paths(bad((s) => (s.version = 2)))).toEqual(['version']);
    // a state with no good behavior would stop a run at its first measure (pass@k, the request gap)
    expect(bad((s) => (s.states[1].good = []))).toEqual([{ path: 'states[1].good', value: '"0 entries"', message: expect.stringMatching(/^1\.\.4 entries/) }]);
  });
  it('a single-turn task always ends; only long-horizon endings have outcomes', () => {
    expect(paths(bad((s) => (s.states[0].act.direct.next = 'uniform')))).toEqual(['states[0].act.direct.next']);
    expect(paths(bad((s) => (s.states[0].act.direct.outcome = 0.5)))).toEqual(['states[0].act.direct.outcome']);
    const lh = structuredClone(BUILTIN_SPECS.toolchain) as any;
    delete lh.states[3].act.answer.outcome;
    expect(paths((validateTaskSpec(lh) as { errors: SpecError[] }).errors)).toEqual(['states[3].act.answer.outcome']);
  });
  it('enforces the limits of the model: token slots, response length, distinct behaviors', () => {
    expect(bad((s) => (s.behaviors[0].markers = new Array(13).fill('PLAN')))[0]).toMatchObject({ path: 'behaviors[0].markers', message: expect.stringMatching(/1\.\.12 entries/) });
    expect(bad((s) => (s.behaviors[1].markers = ['PLAN', 'STEP', 'ANSWER'])).map((e) => e.message).join()).toMatch(/could not tell them apart/);
    expect(paths(bad((s) => (s.vocabulary = { states: new Array(11).fill(0).map((_, i) => `s${i}`), markers: ['A'], hints: ['h'] })))).toContain('vocabulary.states');
    expect(paths(bad((s) => (s.behaviors[3].hint = s.behaviors[0].hint)))).toEqual(['behaviors.hint[3]']);
  });
  it('parses text with a bounded size and reports JSON errors', () => {
    expect(parseTaskSpec('{').errors[0].message).toMatch(/not JSON/);
    expect(parseTaskSpec(' '.repeat(200_001)).errors[0].message).toMatch(/at most/);
    expect(parseTaskSpec(JSON.stringify(BUILTIN_SPECS.toolchain)).ok).toBe(true);
  });
});

describe('a spec nested thousands of levels deep', () => {
  it('is refused naming the depth limit, never a RangeError (as text, as a value, at any field)', () => {
    for (const depth of [4000, 90_000]) {
      const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      const text = JSON.stringify(BUILTIN_SPECS.strategies).replace('"kind":"single-turn"', `"kind":${deep}`);
      for (const r of [parseTaskSpec(text), validateTaskSpec(JSON.parse(text)), parseTaskSpec(deep)]) {
        expect(r.ok).toBe(false);
        expect(r.errors).toEqual([{ path: '', value: '"nested too deep"', message: 'the task spec nests objects or arrays more than 64 levels deep, the limit' }]);
      }
    }
  });
});
