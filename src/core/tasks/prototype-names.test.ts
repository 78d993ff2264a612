// Behaviors and states named like members of Object.prototype ("constructor", "toString", …): every
// task entry point — the validator, the compiler, the pretraining mix, a link, the CLI's --task-file
// and the task editor's draft check — reads only the spec's own entries. A name missing from a
// state's `act` or `baseMix` is refused at its path; left out of a next-state mix it has
// probability 0; nothing inherited is ever drawn, shown or compiled.
import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTaskFile } from '../../cli/task-args';
import { encodeQueryValue } from '../config';
import { checkTaskDraft, preview } from '../../ui/tasks/draft';
import { browserSpecLinks } from '../../ui/state/task-links';
import { decodeUrl, describeErrors } from '../../ui/state/url';
import { Rng } from '../rng';
import { BUILTIN_SPECS } from './builtin';
import { taskFromSpec } from './compile';
import { REFERENCE_DEFAULTS, referenceMix } from './index';
import { specText } from './registry';
import type { TaskSpec } from './spec';
import { parseTaskSpec, validateTaskSpec, type SpecError } from './validate';

const NAMES = [...new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype'])];
/** The names a behavior or state may carry (the rest start with "_" and are refused as names). */
const NAMEABLE = NAMES.filter((n) => /^[A-Za-z0-9]/.test(n));
const internals = /function|native code|\[object /;
const tmp = mkdtempSync(join(tmpdir(), 'task-proto-'));

type Spec = TaskSpec & Record<string, unknown>;

/** `o[to] = o[from]` as an own entry ("__proto__" included, as JSON.parse would make it), `from` removed. */
function moveKey<T>(o: Record<string, T>, from: string, to: string): void {
  if (!Object.hasOwn(o, from)) return;
  const value = o[from];
  delete o[from];
  Object.defineProperty(o, to, { value, enumerable: true, writable: true, configurable: true });
}

/** The spec with behavior `from` renamed to `to` everywhere it is named. */
function renameBehavior(spec: Spec, from: string, to: string): void {
  const key = <T,>(o: Record<string, T>) => moveKey(o, from, to);
  for (const b of spec.behaviors) if (b.name === from) b.name = to;
  for (const st of spec.states) {
    key(st.baseMix);
    key(st.act);
    if (st.gold === from) st.gold = to;
    st.good = st.good.map((g) => (g === from ? to : g));
    for (const t of Object.values(st.act)) if (t.hint?.to === from) t.hint.to = to;
  }
}

/** The spec with state `from` renamed to `to` (its name, the start, every next). */
function renameState(spec: Spec, from: string, to: string): void {
  for (const st of spec.states) {
    if (st.name === from) st.name = to;
    for (const t of Object.values(st.act)) {
      if (t.next === from) t.next = to;
      else if (typeof t.next === 'object') moveKey(t.next, from, to);
    }
  }
  if (spec.start === from) spec.start = to;
}

type Case = { spec: Spec; name: string; expected: SpecError['path'] | null; leftOutOfNext: boolean };

/**
 * A built-in spec with one behavior (and one state) renamed to a prototype name, then one of: kept
 * whole (valid), its `act` entry deleted in one state, its `baseMix` entry deleted (its mass moved,
 * so the sum stays 1); in toolchain the renamed state (start) is one that next-state mixes leave out.
 */
const cases = fc.record({
  task: fc.constantFrom('strategies', 'assistant', 'toolchain' as const),
  name: fc.constantFrom(...NAMES),
  behavior: fc.nat(),
  state: fc.nat(),
  edit: fc.constantFrom('none', 'act', 'baseMix'),
}).map(({ task, name, behavior, state, edit }): Case => {
  const spec = structuredClone(BUILTIN_SPECS[task]) as Spec;
  const b = spec.behaviors[behavior % spec.behaviors.length].name;
  const s = spec.states[state % spec.states.length];
  renameBehavior(spec, b, name);
  // toolchain's next-state mixes name results and empty only: the renamed start state is left out
  const renamedState = task === 'toolchain' ? 'start' : s.name;
  renameState(spec, renamedState, name);
  const i = spec.states.indexOf(s);
  let expected: string | null = null;
  if (edit === 'act') {
    delete s.act[name];
    expected = `states[${i}].act.${name}`;
  } else if (edit === 'baseMix') {
    const other = spec.behaviors.find((x) => x.name !== name)!.name;
    s.baseMix[other] += Object.getOwnPropertyDescriptor(s.baseMix, name)!.value as number;
    delete s.baseMix[name];
    expected = `states[${i}].baseMix.${name}`;
  }
  return { spec, name, expected, leftOutOfNext: task === 'toolchain' };
});

const nameable = (n: string) => NAMEABLE.includes(n);

describe('Object.prototype names in task specs, at every entry point', () => {
  it('the validator: a missing act or baseMix entry is refused at its path; nothing throws', () => {
    fc.assert(fc.property(cases, ({ spec, name, expected }) => {
      const r = validateTaskSpec(JSON.parse(JSON.stringify(spec)));
      const text = parseTaskSpec(JSON.stringify(spec));
      expect(text.errors).toEqual(r.errors);
      if (!nameable(name)) {
        expect(r.ok).toBe(false);
        expect(r.errors.some((e) => /^behaviors\[\d+\]\.name$/.test(e.path))).toBe(true);
        return;
      }
      if (expected === null) expect(r.errors).toEqual([]);
      else expect(r.errors).toEqual([{ path: expected, value: 'missing', message: expect.stringMatching(/^required/) }]);
      for (const e of r.errors) expect(`${e.value} ${e.message}`).not.toMatch(internals);
    }), { numRuns: 400, seed: 24 });
  });

  it('the compiler and the pretraining mix hold the spec\'s own numbers; a left-out state is never drawn', () => {
    fc.assert(fc.property(cases, ({ spec, name, expected, leftOutOfNext }) => {
      if (!nameable(name) || expected !== null) return;
      const valid = validateTaskSpec(JSON.parse(JSON.stringify(spec)));
      expect(valid.ok).toBe(true);
      const task = taskFromSpec(valid.spec!);
      spec.states.forEach((st, s) => {
        const want = spec.behaviors.map((b) => st.baseMix[b.name]);
        expect(task.baseMix[s]).toEqual(want);
        expect(referenceMix(task, s, null, REFERENCE_DEFAULTS)).toEqual(want);
      });
      if (!leftOutOfNext) return;
      // toolchain: from the renamed start, behaviors[0] (search) goes to results 0.7 / empty 0.3
      const at = (n: string) => task.states.findIndex((st) => st.name === n);
      const counts = new Map<number | null, number>();
      const rng = new Rng(5);
      for (let k = 0; k < 400; k++) {
        const next = task.newEnv(rng, 4, 0).act(0, rng).next;
        counts.set(next, (counts.get(next) ?? 0) + 1);
      }
      expect([...counts.keys()].sort()).toEqual([at('results'), at('empty')].sort());
      expect(counts.get(at('results'))! / 400).toBeGreaterThan(0.6);
      expect(counts.get(at('results'))! / 400).toBeLessThan(0.8);
    }), { numRuns: 200, seed: 25 });
  });

  it('a link, the CLI --task-file and the task editor\'s draft check', () => {
    const file = join(tmp, 'spec.json');
    const store = new Map<string, string>();
    const links = browserSpecLinks({ getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) } as Storage);
    fc.assert(fc.property(cases, ({ spec, name, expected }) => {
      const text = JSON.stringify(spec);
      const valid = nameable(name) && expected === null;
      // link: inline when short enough, else stored under a name (as the lab writes it)
      const value = encodeQueryValue(text).length < 3900 ? text : links.store(text);
      const url = decodeUrl(`?spec=${encodeQueryValue(value)}`, new Map(), links);
      expect(url.state.config.taskSpec).toBe(valid ? specText(JSON.parse(text) as TaskSpec) : '');
      if (!valid) {
        const lines = describeErrors(url.errors, url.state.config).join('\n');
        expect(lines).toMatch(/^taskSpec: /);
        if (expected && nameable(name)) expect(lines).toContain(expected);
        expect(lines).not.toMatch(internals);
      }
      writeFileSync(file, text);
      if (valid) expect(readTaskFile(file)).toBe(specText(JSON.parse(text) as TaskSpec));
      else expect(() => readTaskFile(file)).toThrow(expected && nameable(name) ? `${file}: ${expected}: required` : file);
      const draft = checkTaskDraft(text);
      expect(draft.valid !== null).toBe(valid);
      if (expected && nameable(name)) expect(draft.errors.map((e) => e.path)).toEqual([expected]);
      for (const row of preview(draft.json!).flatMap((st) => st.rows)) {
        expect(typeof row.mix).toBe('number');
        expect(row.reward === null || typeof row.reward === 'number').toBe(true);
      }
    }), { numRuns: 150, seed: 26 });
  });

  it('"__proto__" as a key (JSON.parse makes it an own key) is an unknown name, not a prototype', () => {
    const text = JSON.stringify(BUILTIN_SPECS.strategies).replace('"baseMix":{', '"baseMix":{"__proto__":0,').replace('"act":{', '"act":{"__proto__":{},');
    const r = parseTaskSpec(text);
    expect(r.errors.map((e) => e.path)).toEqual(['states[0].baseMix.__proto__', 'states[0].act.__proto__']);
  });
});
