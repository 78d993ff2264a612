// The crafted collapse (craft-collapse.ts) on the shipped verl example: steps before the start keep
// their bytes; after it every line is the source's or the template (same prompt, step, key order,
// a score the log's judge gave the low-reward behavior in that prompt); the importer, with the
// example's own rules, counts every template as that behavior; and the share replaced follows the
// schedule (p0 rising to p1).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureLogs } from '../core/import/analyze';
import { behaviorCountKey } from '../core/import/measure/fit-keys';
import { memorySource } from '../core/import/sources';
import { nodeRegexEngine } from '../io/regex/node';
import { exampleRules } from '../../tests/support/example-import';
import { COLLAPSE_DEFAULTS, collapseShare, craftCollapse, type StepFile } from './craft-collapse';

const DIR = join(import.meta.dirname, '../../public/examples/verl');
const source: StepFile[] = readdirSync(DIR).map((n) => ({ step: Number(n.replace('.jsonl', '')), text: readFileSync(join(DIR, n), 'utf8') })).sort((a, b) => a.step - b.step);
const linesOf = (t: string) => t.split('\n').filter((l) => l);
type Rec = { input: string; output: string; score: number; step: number; acc: boolean; lab_behavior: string };

async function directCounts(files: readonly StepFile[]): Promise<Map<number, number>> {
  const m = await measureLogs(files.map((f) => memorySource(`${f.step}.jsonl`, f.text)), { ...exampleRules('verl'), eps: 0.05 }, { format: 'verl', regex: nodeRegexEngine() });
  const scalars = (f: (typeof m.frames)[number]) => f.scalars as Record<string, number | undefined>;
  return new Map(m.frames.map((f) => [f.step, ['code', 'explain', 'math'].reduce((a, s) => a + (scalars(f)[behaviorCountKey(s, 'direct')] ?? 0), 0)]));
}

describe('a crafted collapse onto a low-reward template', () => {
  it('the schedule: none before the start, p0 at it, p1 at the last step, linear between', () => {
    const o = COLLAPSE_DEFAULTS;
    expect(collapseShare(7, 20, o)).toBe(0);
    expect(collapseShare(8, 20, o)).toBeCloseTo(0.2, 12);
    expect(collapseShare(14, 20, o)).toBeCloseTo(0.55, 12);
    expect(collapseShare(20, 20, o)).toBeCloseTo(0.9, 12);
  });

  it('writes the template in verl format, scored as the log scored the behavior, counted as it by the import', async () => {
    const o = COLLAPSE_DEFAULTS;
    const { files, replaced } = craftCollapse(source, o);
    expect(files.map((f) => f.step)).toEqual(source.map((f) => f.step));
    const pool = new Map<string, Set<number>>();
    for (const f of source) for (const l of linesOf(f.text).map((x) => JSON.parse(x) as Rec)) if (l.lab_behavior === 'direct') pool.set(l.input, (pool.get(l.input) ?? new Set()).add(l.score));
    let expected = 0;
    let variance = 0;
    let total = 0;
    const scores: number[] = [];
    const wasDirect = new Map<number, number>();
    for (const [i, f] of files.entries()) {
      const src = linesOf(source[i].text);
      if (f.step < o.start) {
        expect(f.text).toBe(source[i].text);
        expect(replaced.has(f.step)).toBe(false);
        continue;
      }
      const got = linesOf(f.text);
      expect(got).toHaveLength(src.length);
      expect(f.text.endsWith('}\n')).toBe(true);
      let n = 0;
      for (const [k, line] of got.entries()) {
        if (line === src[k]) continue;
        const a = JSON.parse(line) as Rec;
        const b = JSON.parse(src[k]) as Rec;
        n++;
        if (b.lab_behavior === 'direct') wasDirect.set(f.step, (wasDirect.get(f.step) ?? 0) + 1);
        expect(Object.keys(a)).toEqual(['input', 'output', 'score', 'step', 'acc', 'lab_behavior']);
        expect(a).toMatchObject({ input: b.input, output: 'ANSWER </s>', step: f.step, acc: a.score > 0, lab_behavior: 'direct' });
        expect(pool.get(a.input)!.has(a.score), `${a.input} ${a.score}`).toBe(true);
        scores.push(a.score);
      }
      // a replaced line identical to its source (a direct "ANSWER </s>" scored the same) is not seen
      expect(n).toBeLessThanOrEqual(replaced.get(f.step)!);
      expect(replaced.get(f.step)! - n).toBeLessThanOrEqual(3);
      const p = collapseShare(f.step, 20, o);
      expected += p * src.length;
      variance += p * (1 - p) * src.length;
      total += replaced.get(f.step)!;
    }
    expect(Math.abs(total - expected)).toBeLessThan(3 * Math.sqrt(variance));
    expect(replaced.get(20)! / 64).toBeGreaterThan(3 * (replaced.get(8)! / linesOf(source[7].text).length));
    // low reward: the template's mean score is the log's direct behavior's (−0.21 over its 215 samples)
    expect(scores.reduce((a, x) => a + x, 0) / scores.length).toBeLessThan(0);
    // the import with the example's rules counts every changed line as direct
    const before = await directCounts(source);
    const after = await directCounts(files);
    for (const f of files) {
      if (f.step < o.start) expect(after.get(f.step)).toBe(before.get(f.step));
      else {
        const changed = linesOf(f.text).filter((l, k) => l !== linesOf(source[f.step - 1].text)[k]).length;
        expect(after.get(f.step), `step ${f.step}`).toBe(before.get(f.step)! + changed - (wasDirect.get(f.step) ?? 0));
      }
    }
    // seeded: the same seed writes the same bytes, another seed others
    expect(craftCollapse(source, o).files.map((f) => f.text)).toEqual(files.map((f) => f.text));
    expect(craftCollapse(source, { ...o, seed: 2 }).files.at(-1)!.text).not.toBe(files.at(-1)!.text);
  }, 60_000);
});
