/**
 * The numbers a lesson's text gives for its default seed are what a fresh run shows: each lesson
 * below trains seed 1 as the page does (the transformer on WASM, the shipped base; page and Node runs
 * agree bit for bit but for the last bit of Math.log) and reads the number the way the page draws it,
 * against the lesson's measurement file, which fills its text. Where the text gives a range over
 * seeds, seed 1's fresh value must lie in it. Small budgets: the steps each number needs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMeasures } from '../../src/core/lesson-text';
import { runLesson, seedMarkers } from '../support/plot-markers';
import { scaled } from '../support/speed';

const values = (id: string) => parseMeasures(id, JSON.parse(readFileSync(join(import.meta.dirname, '../../public/presets/measured', `${id}.json`), 'utf8'))).values as Record<string, number>;
const r2 = (x: number) => Math.round(x * 100) / 100;

describe('the lessons\' seed-1 numbers, from a fresh run', () => {
  it('a: the marked drop to one behavior, token entropy there and at the end; seed 1 inside the ranges over seeds', async () => {
    const v = values('a-support-collapse');
    const m = seedMarkers(await runLesson('a-support-collapse', 1), 1);
    const drop = m.markers.find((x) => x.to === 1);
    expect(drop).toBeDefined();
    expect(drop!.step).toBe(v['seed1.dropStep']);
    expect(Math.floor(drop!.tokenShare * 100 + 1e-9)).toBe(v['seed1.dropShare']); // as the marker text rounds
    expect(drop!.kind).toBe('divergence'); // the text calls it pink
    expect(Math.round(m.endShare * 100)).toBe(v['seed1.endShare']);
    const last = m.markers[m.markers.length - 1];
    expect(last.step).toBeGreaterThanOrEqual(v['lastMarker.stepMin']);
    expect(last.step).toBeLessThanOrEqual(v['lastMarker.stepMax']);
    expect(m.supportFirst1).toBeGreaterThanOrEqual(v['supportFirst1.min']);
    expect(m.supportFirst1).toBeLessThanOrEqual(v['supportFirst1.max']);
    expect(Math.floor(m.endShare * 100)).toBeGreaterThanOrEqual(v['end.shareMin']);
    expect(Math.floor(m.endShare * 100)).toBeLessThanOrEqual(v['end.shareMax']);
  }, scaled(240_000));

  it('d: the raw grad norm at step 1 with and without at-least-one', async () => {
    const v = values('d-at-least-one');
    const norm = async (atLeastOne: boolean) => (await runLesson('d-at-least-one', 1, { steps: 1, set: { atLeastOne } })).frames[0].scalars['grad/norm'] as number;
    expect(r2(await norm(true))).toBe(v['seed1.normWith']);
    expect(r2(await norm(false))).toBe(v['seed1.normWithout']);
  }, scaled(120_000));

  it('i: support on code is 4 at step 0 (the base) and 1 from step 1 (after SFT), as the instruction says', async () => {
    const r = await runLesson('i-sft-compresses', 1, { steps: 1 });
    expect(r.base['support/behavior_support/code']).toBe(4);
    expect(r.frames[0].scalars['support/behavior_support/code']).toBe(1);
    expect(r.frames[0].scalars['support/behavior_dist/code/verify']).toBe(0);
  }, scaled(120_000));
});
