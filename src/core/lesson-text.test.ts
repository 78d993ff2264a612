import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as LESSON_TEXT from './lesson-text';
import { FIRST_READ_WORDS, fillText, parseMeasures, placeholdersIn, wordCount } from './lesson-text';
import { parsePreset } from './presets';

const root = join(import.meta.dirname, '../..');
const read = (file: string) => JSON.parse(readFileSync(join(root, file), 'utf8')) as Record<string, unknown>;
const IDS = ['a-support-collapse', 'b-clip-higher', 'c-clip-never-binds', 'd-at-least-one', 'e-opd-purity-volume', 'f-combine-gating', 'g-stale-weights-503', 'h-long-horizon-credit', 'i-sft-compresses', 'j-collapse-vs-convergence', 'k-cascade', 'l-votes-disagree', 'm-drop-stale', 'n-dynamic-sampling', 'o-fitted-gate'];
const TEXTS = ['title', 'watch', 'explanation', 'evidence'] as const;

function lesson(id: string) {
  const raw = read(`public/presets/${id}.json`);
  const measures = parseMeasures(id, read(`public/presets/measured/${id}.json`));
  return { raw, measures, filled: parsePreset(id, raw, measures) };
}

describe('lesson texts and their measurements', () => {
  it('fills placeholders, signs and minus signs; a missing value is an error', () => {
    expect(fillText('a {x} b {+y} c {+z} d {w}', { x: 0.5, y: 0.024, z: -0.003, w: '0.000' }, 'here')).toBe('a 0.5 b +0.024 c −0.003 d 0.000');
    expect(() => fillText('{nope}', {}, 'lesson q: watch')).toThrow('lesson q: watch: {nope} is not in the lesson');
    expect(() => parseMeasures('q', { lesson: 'q', how: ['x'], values: { a: Number.NaN } })).toThrow(/values\.a must be a finite number/);
    expect(() => parseMeasures('q', { lesson: 'r', how: ['x'], values: {} })).toThrow(/"lesson" must be "q"/);
    // a value's rule over an experiment record: it must name a value, and be a rule
    expect(parseMeasures('q', { lesson: 'q', how: ['x'], values: { n: 8 }, derived: { n: { of: 'seeds' } } }).derived).toEqual({ n: { of: 'seeds' } });
    expect(() => parseMeasures('q', { lesson: 'q', how: ['x'], values: {}, derived: { n: { of: 'seeds' } } })).toThrow('measurements of q: derived.n names no value');
    expect(() => parseMeasures('q', { lesson: 'q', how: ['x'], values: { n: 8 }, derived: { n: { of: 'paired', metric: 'm', a: 0, b: 1 } } })).toThrow(/derived\.n: "stat" must be one of/);
    expect(() => parseMeasures('q', { lesson: 'q', how: ['x'], values: {}, derived: [] })).toThrow(/"derived" must be an object of rules/);
  });

  it('every lesson has a measurement file; every value it holds is used and every number the texts name comes from it', () => {
    for (const id of IDS) {
      const { raw, measures } = lesson(id);
      const used = new Set(TEXTS.flatMap((k) => (typeof raw[k] === 'string' ? placeholdersIn(raw[k]) : [])));
      expect([...Object.keys(measures.values)].filter((k) => !used.has(k)), `${id}: values no text uses`).toEqual([]);
    }
  });

  it(`the first read (what to do and watch, what it means) is at most ${FIRST_READ_WORDS} words and writes no number by hand`, () => {
    for (const id of IDS) {
      const { raw, filled } = lesson(id);
      expect(filled.watch, id).toBeTruthy();
      expect(wordCount(`${filled.watch} ${filled.explanation}`), id).toBeLessThanOrEqual(FIRST_READ_WORDS);
      // digits outside placeholders: a measured number typed into the text, free to drift
      const bare = `${String(raw.watch)} ${String(raw.explanation)}`.replace(/\{\+?[\w.]+\}/g, '').replace(/\(space\)/g, '').replace(/\bstep 0\b/g, ''); // step 0 names the base
      const hand = (bare.match(/\d+(\.\d+)?/g) ?? []).filter((n) => !ALLOWED_FIRST_READ.has(`${id}:${n}`));
      expect(hand, `${id}: numbers written by hand in its first read`).toEqual([]);
    }
  });

  it("a lesson's experiment numbers are its shipped experiment's: seeds, steps and the values run B is set to", () => {
    for (const id of IDS) {
      const spec = `public/experiments/${id}.json`;
      if (!existsSync(join(root, spec))) continue;
      const exp = read(spec) as { seeds: number[]; steps: number; variants: { patch: Record<string, unknown> }[] };
      const v = lesson(id).measures.values;
      expect(v['exp.seeds'], id).toBe(exp.seeds.length);
      expect(v['exp.steps'], id).toBe(exp.steps);
      for (const [k, val] of Object.entries(v).filter(([k]) => k.startsWith('compare.'))) {
        expect(exp.variants.some((x) => x.patch[k.slice('compare.'.length)] === val), `${id}: ${k}`).toBe(true);
      }
    }
  });
});

/**
 * Numbers a first read may write itself (lesson:number): what collapse means (support 4 → 1, a mutual
 * information near 0, a ratio of exactly 1, a score of 0, the HTTP status 503), γ = 1 (no discount) and a setting turned off (SFT steps 0): definitions and
 * instructions, not measurements.
 */
const ALLOWED_FIRST_READ = new Set(['a-support-collapse:1', 'i-sft-compresses:0', 'i-sft-compresses:1', 'i-sft-compresses:4', 'j-collapse-vs-convergence:0', 'h-long-horizon-credit:1', 'c-clip-never-binds:0', 'c-clip-never-binds:1', 'k-cascade:1', 'd-at-least-one:0', 'g-stale-weights-503:503', 'o-fitted-gate:0']);

describe('the settings a lesson tells the class to change', () => {
  it('finds them by the label the controls show, and the groups they sit in', () => {
    const { settingsNamedIn, groupsNamedIn } = LESSON_TEXT;
    expect(settingsNamedIn('Press Fork, untick "at least one" (run B), then Play.')).toEqual(['atLeastOne']);
    expect(settingsNamedIn('Press Fork, set γ to 1 (run B).')).toEqual(['gamma']);
    expect(groupsNamedIn('Then set SFT-on-gold steps to 0 (a new run starts) and Play.')).toEqual(['sft']);
    expect(settingsNamedIn('Watch the steps and the gate.')).toEqual([]);
  });

  it('every lesson that tells the class to set something names a real setting', () => {
    for (const id of IDS) {
      const watch = lesson(id).filled.watch ?? '';
      const { settingsNamedIn } = LESSON_TEXT;
      if (/\b(set|untick|tick) /.test(watch)) expect(settingsNamedIn(watch).length, `${id}: ${watch}`).toBeGreaterThan(0);
    }
  });
});
