/**
 * Every number over seeds in a lesson's "How we know" is what its experiment's record gives: each
 * value with a rule under "derived" (public/presets/measured/<id>.json) is derived again from the
 * record (public/experiments/results/<spec>.json) by deriveLessonValue, the one function behind
 * those rules, and must equal the value the text shows; the record must be of the shipped spec. No
 * value is passed over silently: one that no rule derives is either checked by another test
 * (CHECKED_ELSEWHERE, which says where) or listed in NOT_RECORDED with why it has no record, and an
 * experiment whose record is still missing is listed in UNRECORDED_EXPERIMENTS with its measured
 * cost. Re-recording: docs/experiments.md.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deriveLessonValue } from '../../src/core/experiment/lesson-values';
import { parseRecord } from '../../src/core/experiment/record';
import { parseExperimentSpec } from '../../src/core/experiment/spec';
import { parseMeasures, type LessonMeasures } from '../../src/core/lesson-text';
import { recordSpecPath } from '../../src/cli/experiment-record';

const root = join(import.meta.dirname, '../..');
const readJson = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8')) as unknown;
const ids = readdirSync(join(root, 'public/presets/measured')).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();
const measures: Record<string, LessonMeasures> = Object.fromEntries(ids.map((id) => [id, parseMeasures(id, readJson(`public/presets/measured/${id}.json`))]));
const recordPath = (spec: string) => `public/experiments/results/${spec}.json`;

/** Values checked by another test, by name: what checks them. */
const CHECKED_ELSEWHERE: { lesson?: string; names: RegExp; by: string }[] = [
  { names: /^seed1\./, by: "seed 1's fresh run: tests/unit/lesson-numbers.test.ts" },
  { names: /^compare\./, by: 'a setting run B gets, not a measurement (src/core/lesson-text.test.ts checks it against the experiment\'s variants)' },
  { lesson: 'c-clip-never-binds', names: /^tabular\./, by: 'the preset re-run on the tabular engine for those steps and seeds: tests/unit/lesson-numbers.test.ts' },
  { lesson: 'd-at-least-one', names: /^clip\./, by: 'seeds 1 to clip.seeds re-run with the default norm clip: tests/unit/lesson-numbers.test.ts' },
  { lesson: 'j-collapse-vs-convergence', names: /^noSft\.miLast$/, by: 'the bound I(S;B) reaches: tests/unit/lesson-numbers.test.ts' },
  { lesson: 'o-fitted-gate', names: /^(log\.dropped|served\.logLate)$/, by: "the gate replayed on the verl log, not the experiment: src/core/experiment/lessons.test.ts re-counts it (34 dropped at step 1; yield 0.5375 over the last 5 steps, 64 / 0.5375 = 119)" },
];

/** Values over seeds that no experiment record holds, with why (none now: every one is derived from a record). */
const NOT_RECORDED: { lesson: string; names: RegExp; why: string }[] = [];

/** Experiments whose values have rules but no record yet: what recording them takes (none now: every rule's record ships). */
const UNRECORDED_EXPERIMENTS: Record<string, string> = {};

const specOf = (name: string) => {
  const { description: _prose, ...trained } = parseExperimentSpec(readJson(recordSpecPath(name)));
  return trained;
};

describe('lesson values over seeds, from the experiment records', () => {
  const records = [...new Set(ids.flatMap((id) => Object.values(measures[id].derived).map((r) => r.record ?? id)))].sort();

  it.each(records.filter((r) => existsSync(join(root, recordPath(r)))))('%s: the record is of the shipped spec (its prose aside), made from one code version on one base', (name) => {
    const record = parseRecord(readJson(recordPath(name)));
    expect(record.spec).toEqual(specOf(name));
    expect(record.runs).toHaveLength(record.spec.variants.length * record.spec.seeds.length);
  });

  it.each(ids.filter((id) => Object.keys(measures[id].derived).length > 0))('%s: every derived value is what its rule gives on the record', (id) => {
    const m = measures[id];
    const got: Record<string, number | string> = {};
    const want: Record<string, number | string> = {};
    for (const [name, rule] of Object.entries(m.derived)) {
      const spec = rule.record ?? id;
      if (!existsSync(join(root, recordPath(spec)))) {
        expect(UNRECORDED_EXPERIMENTS, `${id}: ${name} needs ${recordPath(spec)}, which is missing and not listed as unrecorded`).toHaveProperty([spec]);
        continue;
      }
      got[name] = deriveLessonValue(parseRecord(readJson(recordPath(spec))), rule);
      want[name] = m.values[name];
    }
    expect(got).toEqual(want);
  });

  it("an experiment's description quotes its lesson's derived values (its prose has no placeholders)", () => {
    const d = measures['d-at-least-one'].values;
    const description = parseExperimentSpec(readJson('public/experiments/d-at-least-one.json')).description;
    expect(description).toContain(`every seed promoted turns (${d['exp.promotedMin']}-${d['exp.promotedMax']} in ${d['exp.steps']} steps)`);
  });

  it('every value is derived from a record, checked elsewhere or listed with why it is not recorded; no list holds a stale entry', () => {
    const unaccounted: string[] = [];
    const used = new Set<object>();
    for (const id of ids) {
      for (const name of Object.keys(measures[id].values)) {
        const derived = Object.hasOwn(measures[id].derived, name);
        const elsewhere = CHECKED_ELSEWHERE.filter((e) => (e.lesson ?? id) === id && e.names.test(name));
        const listed = NOT_RECORDED.filter((e) => e.lesson === id && e.names.test(name));
        [...elsewhere, ...listed].forEach((e) => used.add(e));
        if (derived && elsewhere.length + listed.length > 0) unaccounted.push(`${id}: ${name} is derived and also listed`);
        if (!derived && elsewhere.length + listed.length === 0) unaccounted.push(`${id}: ${name}`);
      }
    }
    expect(unaccounted, 'values neither derived from a record, checked elsewhere nor listed as not recorded').toEqual([]);
    expect([...CHECKED_ELSEWHERE, ...NOT_RECORDED].filter((e) => !used.has(e)), 'list entries that match no value').toEqual([]);
    for (const spec of Object.keys(UNRECORDED_EXPERIMENTS)) expect(existsSync(join(root, recordPath(spec))), `${spec} is recorded now: take it off UNRECORDED_EXPERIMENTS`).toBe(false);
  });
});
