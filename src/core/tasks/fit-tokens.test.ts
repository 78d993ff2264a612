// The token level of a fitted task (fit-responses.ts; the import's counts: import/measure/fit-tokens.ts).
// The test: step 0 of the fitted task matches the log's first-step token statistics per state
// within their standard errors. "Step 0" is the base the CLI pretrains from the spec (tabular engine,
// 400 SFT steps, lr 0.05, seed 1), sampled N_SIM times per state at the lab's temperature; "token
// statistics" are, per state, the mean response length in the model's tokens (marker + fillers,
// before EOS; the log's lengths mapped by the fit's rule, 1 + round((L − L_min)·s)) and the fillers'
// repeat rate Σ c(c − 1) / N(N − 1) (responses-weighted over the state's behaviors, with the log's
// weights on both sides), each side tallied by the same import code (ResponseTokens). Standard
// errors: the log's length from its histogram, its repeat rate by a delete-one-response jackknife
// over re-imports of the first step; the simulation's by a 32-block jackknife. |Δ| ≤ 2.576·√(se² + se²)
// per state and statistic (α = 0.01 each).
// Mutations checked (each makes a test below fail): compiling without the fitted length
// (index.ts rendering every response with the lab's grammar: verl, code length 2.60 ± 0.03 against
// the log's 5.94 ± 0.79; the crafted log's "ok" 2.33 against 1) and without the fitted filler count
// (grammar.ts drawing from all 20 fillers: the crafted log's two-wordings cell repeats at 0.055
// against the log's 0.489).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../config/validate';
import { measureLogs, type MeasureResult } from '../import/analyze';
import { ResponseTokens } from '../import/measure/fit-tokens';
import { memorySource } from '../import/sources';
import type { ScalarsWith } from '../measure/names';
import { policyShape, pretrainBase } from '../pretrain';
import { Rng } from '../rng';
import { generate } from '../serve';
import { createTabularEngine } from '../../engine/tabular/tabular-engine';
import { nodeRegexEngine } from '../../io/regex/node';
import { EXAMPLES, exampleRules } from '../../../tests/support/example-import';
import { taskFromSpec } from './compile';
import { fitTask, type FitResult } from './fit';
import { tokenLevel, type FitTokens, type LengthRule } from './fit-responses';
import { WindowSums, type FitSource } from './fit-sums';
import { specText } from './registry';
import { validateTaskSpec } from './validate';
import { CONTEXT, PROMPT_LENGTH, tokenName } from './vocab';

const Z = 2.576;
const N_SIM = 1024;
const BLOCKS = 32;
/** The model's own tokens: a body of L tokens is 1 + (L − 1) fillers. */
const MODEL_UNITS: LengthRule = { lMin: 1, lMax: 12, scale: 1 };

const windowOf = (scalars: ScalarsWith, m: Pick<FitSource, 'states' | 'behaviors'>) => new WindowSums({ format: 'jsonl', frames: [{ step: 0, scalars } as FitSource['frames'][number]], states: m.states, behaviors: m.behaviors }, [0, 0]);

/** Per state: the repeat rate with fixed weights per behavior (the log's responses, over the cells where the log has a rate). */
function stateRates(level: FitTokens, weights: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map<string, [number, number]>();
  for (const c of level.cells) {
    const w = weights.get(`${c.state}/${c.behavior}`);
    if (w === undefined || c.repeatRate === null) continue;
    const [a, n] = out.get(c.state) ?? [0, 0];
    out.set(c.state, [a + w * c.repeatRate, n + w]);
  }
  return new Map([...out].map(([s, [a, n]]) => [s, a / n]));
}
const logWeights = (level: FitTokens) => new Map(level.cells.filter((c) => c.repeatRate !== null).map((c) => [`${c.state}/${c.behavior}`, c.responses]));

const jackknifeSe = (xs: readonly number[]) => {
  const n = xs.length;
  const m = xs.reduce((a, x) => a + x, 0) / n;
  return Math.sqrt(((n - 1) / n) * xs.reduce((a, x) => a + (x - m) ** 2, 0));
};

interface Sampled {
  state: string;
  behavior: string;
  tokens: string[];
}

/** Step 0 of a fitted task: its base pretrained from the spec, N_SIM responses per state (valid ones kept). */
async function stepZero(fit: FitResult, seed: number): Promise<Sampled[]> {
  const task = taskFromSpec(fit.spec);
  const cfg = makeConfig({ taskSpec: specText(fit.spec), seed });
  const engine = createTabularEngine(policyShape(cfg));
  await pretrainBase(engine, task, seed, { steps: 400, batch: 64, lr: 0.05, temperature: cfg.temperature });
  const states = task.states.flatMap((_, s) => new Array<number>(N_SIM).fill(s));
  const gen = await generate(engine, task, states, cfg.temperature, new Rng(seed + 100));
  const out: Sampled[] = [];
  states.forEach((s, r) => {
    const b = gen.behavior[r];
    if (b < 0) return;
    const body = Array.from(gen.tokens.subarray(r * CONTEXT + PROMPT_LENGTH, r * CONTEXT + PROMPT_LENGTH + gen.responseLength[r] - 1));
    out.push({ state: task.states[s].name, behavior: task.behaviors[b].name, tokens: body.map((t) => tokenName(t, task.tokenNames)) });
  });
  return out;
}

/** The token level of sampled responses, tallied by the import's own code, in the model's units. */
function simLevel(fit: FitResult, xs: readonly Sampled[]): FitTokens {
  const t = new ResponseTokens();
  for (const x of xs) t.add(x.state, x.behavior, x.tokens);
  const scalars: ScalarsWith = {};
  t.scalars(scalars);
  const names = { states: fit.spec.states.map((s) => s.name), behaviors: fit.spec.behaviors.map((b) => b.name) };
  return tokenLevel(windowOf(scalars, names), names.states, names.behaviors, MODEL_UNITS);
}

/** The simulated per-state length and repeat rate with their block-jackknife SEs (weights: the log's). */
function simStats(fit: FitResult, xs: readonly Sampled[], weights: ReadonlyMap<string, number>) {
  const full = simLevel(fit, xs);
  const blocks = Array.from({ length: BLOCKS }, (_, j) => simLevel(fit, xs.filter((_, i) => i % BLOCKS !== j)));
  return new Map(full.states.map((s) => {
    const rate = stateRates(full, weights).get(s.state)!;
    const rateSe = jackknifeSe(blocks.map((b) => stateRates(b, weights).get(s.state)!));
    return [s.state, { length: s.length, lengthSe: s.lengthSe, rate, rateSe }];
  }));
}

/** The log's per-state repeat rate jackknifed: each response of the state left out of a re-import of the first step. */
async function logRateSe(measure: (text: string) => Promise<MeasureResult>, lines: readonly string[], stateOf: (line: string) => string, fit: FitResult, weights: ReadonlyMap<string, number>): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const s of fit.spec.states.map((x) => x.name)) {
    const rates: number[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (stateOf(lines[i]) !== s) continue;
      const m = await measure(lines.filter((_, j) => j !== i).join('\n') + '\n');
      const level = tokenLevel(windowOf(m.frames[0].scalars, m), m.states, m.behaviors, fit.tokens!.rule);
      rates.push(stateRates(level, weights).get(s)!);
    }
    out.set(s, jackknifeSe(rates));
  }
  return out;
}

interface Row {
  state: string;
  log: { length: number; lengthSe: number; rate: number; rateSe: number };
  sim: { length: number; lengthSe: number; rate: number; rateSe: number };
}

function compare(fit: FitResult, sim: Map<string, Row['sim']>, rateSe: Map<string, number>): Row[] {
  const logRates = stateRates(fit.tokens!, logWeights(fit.tokens!));
  return fit.tokens!.states.map((s) => ({ state: s.state, log: { length: s.length, lengthSe: s.lengthSe, rate: logRates.get(s.state)!, rateSe: rateSe.get(s.state)! }, sim: sim.get(s.state)! }));
}

const within = (a: number, sa: number, b: number, sb: number) => Math.abs(a - b) <= Z * Math.sqrt(sa * sa + sb * sb);
const show = (r: Row) => `${r.state}: length ${r.log.length.toFixed(2)} ± ${r.log.lengthSe.toFixed(2)} (log) vs ${r.sim.length.toFixed(2)} ± ${r.sim.lengthSe.toFixed(2)} (step 0); repeat rate ${r.log.rate.toFixed(4)} ± ${r.log.rateSe.toFixed(4)} vs ${r.sim.rate.toFixed(4)} ± ${r.sim.rateSe.toFixed(4)}`;

describe('the token level of a task fitted from the shipped verl example', () => {
  it('step 0 matches the first step\'s response lengths and filler repeats per state within their standard errors', async () => {
    const rules = exampleRules('verl');
    const measure = (text: string) => measureLogs([memorySource('1.jsonl', text)], { ...rules, eps: 0.05 }, { format: 'verl', regex: nodeRegexEngine() });
    const lines = readFileSync(join(EXAMPLES, 'verl/1.jsonl'), 'utf8').trimEnd().split('\n');
    const first = await measure(lines.join('\n') + '\n');
    const { importExample } = await import('../../../tests/support/example-import');
    const fit = fitTask(await importExample('verl'), { name: 'verl example' });
    expect(validateTaskSpec(JSON.parse(JSON.stringify(fit.spec))).errors).toEqual([]);
    // the fit's token level is the first step's (the base window), read from the counts in the frames
    expect(fit.tokens!.rule).toEqual({ lMin: 5, lMax: 16, scale: 1 });
    expect(tokenLevel(windowOf(first.frames[0].scalars, first), first.states, first.behaviors, fit.tokens!.rule).states).toEqual(fit.tokens!.states);
    // every kept behavior has a length distribution, within the model's window (marker + ≤ 11 fillers)
    for (const s of fit.spec.states) for (const b of fit.spec.behaviors) expect(s.responses?.[b.name]?.fillers.length).toBeLessThanOrEqual(12);
    const weights = logWeights(fit.tokens!);
    const stateOf = (l: string) => /state=(\S+)/.exec(JSON.parse(l).input)![1];
    const rows = compare(fit, simStats(fit, await stepZero(fit, 1), weights), await logRateSe(measure, lines, stateOf, fit, weights));
    console.log(rows.map(show).join('\n'));
    expect(rows.map((r) => r.state)).toEqual(['code', 'explain', 'math']);
    for (const r of rows) {
      expect(within(r.log.length, r.log.lengthSe, r.sim.length, r.sim.lengthSe), show(r)).toBe(true);
      expect(within(r.log.rate, r.log.rateSe, r.sim.rate, r.sim.rateSe), show(r)).toBe(true);
    }
  }, 180_000);
});

const jsonl = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

// A crafted log whose truth we know: one state, three answer types. "ok" (1 token, the shortest);
// "yesno", two wordings, "the answer is yes / no ." (5 tokens: its form, the answer is .; its one
// filler, yes or no: repeat rate ≈ 1/2 → 2 filler tokens); "essay", 30–60 words from 200 (longer
// than the model's window: lengths scaled; more diverse than 20 fillers: the model cannot hold it).
describe('the token level of a crafted log', () => {
  const rng = new Rng(5);
  const rows: Record<string, unknown>[] = [];
  const words = Array.from({ length: 200 }, (_, i) => `word${i}`);
  for (let i = 0; i < 120; i++) {
    const kind = i % 3 === 0 ? 'ok' : i % 3 === 1 ? 'yesno' : 'essay';
    const response = kind === 'ok' ? 'ok' : kind === 'yesno' ? `the answer is ${rng.next() < 0.5 ? 'yes' : 'no'} .` : Array.from({ length: 30 + rng.int(31) }, () => words[rng.int(200)]).join(' ');
    rows.push({ step: 1, state: 'ask', prompt: 'p', response, reward: kind === 'yesno' ? 1 : 0, behavior: kind });
  }
  const lines = jsonl(rows).trimEnd().split('\n');
  const measure = (text: string) => measureLogs([memorySource('crafted.jsonl', text)], { states: { kind: 'field', field: 'state' }, behaviors: { rules: [], fallback: 'invalid', useLogLabel: true }, eps: 0.05 }, { regex: nodeRegexEngine() });

  it('fits two wordings as 2 filler tokens, scales the long answers down, and says what the model cannot hold', async () => {
    const fit = fitTask(await measure(lines.join('\n') + '\n'));
    expect(validateTaskSpec(JSON.parse(JSON.stringify(fit.spec))).errors).toEqual([]);
    const r = fit.spec.states[0].responses!;
    const { lMin, lMax, scale } = fit.tokens!.rule;
    expect([lMin, scale]).toEqual([1, 11 / (lMax - 1)]);
    expect(lMax).toBeGreaterThan(50);
    expect(r.ok).toEqual({ fillers: [1], fillerTokens: 1 }); // "ok" is in every response: its form, no filler (a fixed form)
    expect(r.yesno.fillerTokens).toBe(2);
    expect(r.yesno.fillers).toEqual([0, 1]); // 5 tokens: round(4 · s) = 1 filler
    expect(r.essay.fillerTokens).toBe(20);
    expect(r.essay.fillers.length).toBe(12);
    const notes = fit.notes.filter((n) => n.kind === 'tokens').map((n) => n.message);
    expect(notes.some((m) => /the log's responses span 1\.\.\d+ tokens .* the model holds a marker and at most 11 fillers \(12 tokens before EOS\): lengths are scaled/.test(m))).toBe(true);
    expect(notes.some((m) => /the fillers of ask\/essay \(r = 0\.00\d, 1\/r = \d+\) are more diverse than the model's 20 filler tokens can hold/.test(m))).toBe(true);
    expect(notes.some((m) => /ask\/ok \(40 responses\): every word is in each of its responses/.test(m))).toBe(true);
  });

  it('step 0 matches it where the model can hold it, and differs where the notes say it cannot', async () => {
    const fit = fitTask(await measure(lines.join('\n') + '\n'));
    const sim = simLevel(fit, await stepZero(fit, 2));
    const cell = (level: FitTokens, b: string) => level.cells.find((c) => c.behavior === b)!;
    const report: string[] = [];
    for (const b of ['ok', 'yesno', 'essay']) {
      const l = cell(fit.tokens!, b);
      const s = cell(sim, b);
      report.push(`${b}: length ${l.length.toFixed(2)} ± ${l.lengthSe.toFixed(2)} vs ${s.length.toFixed(2)} ± ${s.lengthSe.toFixed(2)}; repeat rate ${l.repeatRate?.toFixed(4)} vs ${s.repeatRate?.toFixed(4)}`);
      expect(within(l.length, l.lengthSe, s.length, s.lengthSe), report.at(-1)).toBe(true);
    }
    console.log(report.join('\n'));
    // two wordings: ≈ 1/2 in the log; the model draws its filler from 2 tokens
    const yes = [cell(fit.tokens!, 'yesno').repeatRate!, cell(sim, 'yesno').repeatRate!];
    expect(Math.abs(yes[0] - 0.5)).toBeLessThan(0.05);
    expect(Math.abs(yes[1] - 0.5)).toBeLessThan(0.05);
    // the essay's words: ≈ 1/200 in the log; the model's 20 fillers cannot go below 1/20
    const essay = [cell(fit.tokens!, 'essay').repeatRate!, cell(sim, 'essay').repeatRate!];
    expect(essay[0]).toBeLessThan(0.01);
    expect(Math.abs(essay[1] - 0.05)).toBeLessThan(0.01);
    // "ok": a fixed form in the log and in the model (a marker, no filler)
    expect([cell(fit.tokens!, 'ok').repeatRate, cell(sim, 'ok').repeatRate]).toEqual([null, null]);
  }, 120_000);
});
