// A crafted collapse: a verl rollout dump (`{step}.jsonl` per step) in which, from step `start` on, a
// growing share of responses (p0 at `start`, rising linearly to p1 at the last step) is replaced by
// one low-reward template — a run that found a template and collapsed onto it, which is what a
// forecast trained under the judge's rewards cannot foresee (docs/tasks.md "Simulate and forecast").
//   npx tsx src/cli/craft-collapse.ts --from public/examples/verl --out DIR [--start 8] [--p0 0.2]
//     [--p1 0.9] [--template "ANSWER </s>"] [--behavior direct] [--seed 1]
// A replaced line keeps its prompt, step and key order (verl's own fields, as its trainer's
// _dump_generations writes them: input, output, score, step, then the reward's extra infos; compact
// JSON as in the shipped example, where verl's json.dumps puts a space after , and : — the importer
// reads both), every other line its bytes; its score is drawn from the scores the log's judge gave
// `behavior` in the same prompt over the whole log (the example's `lab_behavior` field says which
// lines those are), so the template is rewarded as the log's low-reward behavior is.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDecimal } from '../core/config/text';
import { Rng } from '../core/rng';
import { errorText } from '../core/unknown';
import { parseCommandLine, UsageError } from './args';
import { readTextFile } from './files';

export interface CollapseOptions {
  start: number;
  p0: number;
  p1: number;
  template: string;
  behavior: string;
  seed: number;
}

export const COLLAPSE_DEFAULTS: CollapseOptions = { start: 8, p0: 0.2, p1: 0.9, template: 'ANSWER </s>', behavior: 'direct', seed: 1 };

export interface StepFile {
  step: number;
  text: string;
}

/** The probability that a response of `step` is replaced: 0 before `start`, p0 → p1 linearly up to `last`. */
export function collapseShare(step: number, last: number, o: Pick<CollapseOptions, 'start' | 'p0' | 'p1'>): number {
  if (step < o.start) return 0;
  if (last === o.start) return o.p1;
  return o.p0 + ((o.p1 - o.p0) * (step - o.start)) / (last - o.start);
}

type Line = { input: string; output: string; score: number; step: number; [k: string]: unknown };
const parse = (text: string): Line[] => text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Line);

/** The files with the collapse written in, and per step how many lines were replaced. */
export function craftCollapse(files: readonly StepFile[], o: CollapseOptions): { files: StepFile[]; replaced: Map<number, number> } {
  const sorted = [...files].sort((a, b) => a.step - b.step);
  const last = sorted.at(-1)?.step ?? 0;
  // the judge's scores of the low-reward behavior, per prompt, over the whole log
  const pool = new Map<string, number[]>();
  for (const f of sorted) for (const l of parse(f.text)) if (l.lab_behavior === o.behavior) pool.set(l.input, [...(pool.get(l.input) ?? []), l.score]);
  const rng = new Rng(o.seed);
  const replaced = new Map<number, number>();
  const out = sorted.map((f) => {
    const p = collapseShare(f.step, last, o);
    if (p === 0) return f;
    let n = 0;
    const lines = f.text.split('\n').filter((l) => l.trim()).map((text) => {
      if (!rng.bernoulli(p)) return text; // a kept line keeps its bytes
      const l = JSON.parse(text) as Line;
      const scores = pool.get(l.input);
      if (!scores) throw new Error(`step ${f.step}: the log has no "${o.behavior}" line for the prompt ${JSON.stringify(l.input)} (no score to draw)`);
      n++;
      const score = scores[rng.int(scores.length)];
      // verl's extra infos of the shipped example: acc (the score is positive), the lab's label
      return JSON.stringify({ ...l, output: o.template, score, ...('acc' in l ? { acc: score > 0 } : {}), ...('lab_behavior' in l ? { lab_behavior: o.behavior } : {}) });
    });
    replaced.set(f.step, n);
    return { step: f.step, text: lines.join('\n') + '\n' };
  });
  return { files: out, replaced };
}

const USAGE = 'usage: npx tsx src/cli/craft-collapse.ts --from VERL_DIR --out DIR [--start 8] [--p0 0.2] [--p1 0.9] [--template "ANSWER </s>"] [--behavior direct] [--seed 1]';

function number(name: string, text: string | undefined, fallback: number, ok: (x: number) => boolean, what: string): number {
  if (text === undefined) return fallback;
  const x = parseDecimal(text);
  if (x === null || !ok(x)) throw new UsageError(`--${name}: expected ${what}, got ${text}`);
  return x;
}

function main(): number {
  const args = parseCommandLine({ from: { type: 'string' }, out: { type: 'string' }, start: { type: 'string' }, p0: { type: 'string' }, p1: { type: 'string' }, template: { type: 'string' }, behavior: { type: 'string' }, seed: { type: 'string' } }, USAGE, process.argv.slice(2), false);
  if ('exit' in args) return args.exit;
  const v = args.values;
  try {
    if (!v.from || !v.out) throw new UsageError('--from and --out are required');
    const share = (x: number) => x >= 0 && x <= 1;
    const o: CollapseOptions = {
      start: number('start', v.start, COLLAPSE_DEFAULTS.start, Number.isInteger, 'a whole number'),
      p0: number('p0', v.p0, COLLAPSE_DEFAULTS.p0, share, 'a share 0..1'),
      p1: number('p1', v.p1, COLLAPSE_DEFAULTS.p1, share, 'a share 0..1'),
      template: v.template ?? COLLAPSE_DEFAULTS.template,
      behavior: v.behavior ?? COLLAPSE_DEFAULTS.behavior,
      seed: number('seed', v.seed, COLLAPSE_DEFAULTS.seed, Number.isInteger, 'a whole number'),
    };
    const names = readdirSync(v.from).filter((n) => /^\d+\.jsonl$/.test(n));
    if (!names.length) throw new Error(`${v.from}: no {step}.jsonl file`);
    const files = names.map((n) => ({ step: Number(n.replace('.jsonl', '')), text: readTextFile(join(v.from!, n), n) }));
    const r = craftCollapse(files, o);
    mkdirSync(v.out, { recursive: true });
    for (const f of r.files) writeFileSync(join(v.out, `${f.step}.jsonl`), f.text);
    console.error(`${r.files.length} steps → ${v.out}; "${o.template}" replaced ${[...r.replaced].map(([s, n]) => `${n} at ${s}`).join(', ')}`);
    return 0;
  } catch (e) {
    console.error(e instanceof UsageError ? `${e.message}\n${USAGE}` : errorText(e));
    return e instanceof UsageError ? 2 : 1;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
