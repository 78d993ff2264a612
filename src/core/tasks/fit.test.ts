// Tasks fitted from imports (fit.ts). The test: a task fitted from the shipped verl example
// reproduces the example's first-step behavior distribution per state within Monte Carlo error.
// "Reproduces" means, per state, over the behaviors (the import's invalid responses are left out of
// a base mix, as the fit says):
//   (1) the compiled task's base mix IS the first step's behavior frequencies (exact);
//   (2) the lab's own step 0 of the fitted task — the tabular engine, its base pretrained from the
//       spec as the CLI does (400 SFT steps, lr 0.05), Run.create's base measure with 1024 samples per
//       state — is within Monte Carlo error of the example's first step: the exact multinomial test
//       of the example's counts under the simulated distribution, and a two-sample binomial bound per
//       behavior (|q − p| ≤ 2.576·sqrt(p(1−p)/n + q(1−q)/1024)), each at α = 0.01;
//       The first training step's 64 served turns (states drawn by the compiled environment) pass
//       the exact test under the base mix, also at α = 0.01;
//   (3) the same tests REJECT the first step when the task is fitted from the last step instead
//       (support has collapsed by then): the test can fail.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../config/validate';
import type { MeasureResult } from '../import/analyze';
import { measureLogs } from '../import/analyze';
import { memorySource } from '../import/sources';
import { Run } from '../loop';
import { policyShape, pretrainBase } from '../pretrain';
import { createTabularEngine } from '../../engine/tabular/tabular-engine';
import { nodeRegexEngine } from '../../io/regex/node';
import { importExample } from '../../../tests/support/example-import';
import { exactMultinomialP } from '../../../tests/support/multinomial';
import { makeStreams } from '../rng';
import { serveSessions } from '../serve';
import { taskFromSpec } from './compile';
import { fitTask, type FitResult } from './fit';
import { specText } from './registry';
import type { TaskSpec } from './spec';
import { validateTaskSpec } from './validate';

const ALPHA = 0.01;
const N_SIM = 1024;
/** Two-sided normal quantile at α = 0.01. */
const Z = 2.576;

function firstStepCounts(m: MeasureResult, spec: TaskSpec): Record<string, number[]> {
  const f = m.frames[0].scalars as Record<string, number | undefined>;
  return Object.fromEntries(spec.states.map((s) => [s.name, spec.behaviors.map((b) => f[`support/behavior_count/${s.name}/${b.name}`] ?? 0)]));
}

/** The lab's step-0 behavior distribution of a spec's task: Run.create's base measure on the tabular engine. */
async function stepZero(spec: TaskSpec, seed: number): Promise<{ dist: Record<string, number[]>; served: Record<string, number[]> }> {
  const cfg = makeConfig({ taskSpec: specText(spec), behaviorSamples: N_SIM, seed, rolloutBatch: 64 });
  const engine = createTabularEngine(policyShape(cfg));
  await pretrainBase(engine, taskFromSpec(spec), seed, { steps: 400, batch: 64, lr: 0.05, temperature: cfg.temperature });
  await engine.setWeights(await engine.getWeights());
  const run = await Run.create(engine, cfg);
  const sc = run.baseScalars as Record<string, number>;
  // the first training step's served turns went through the compiled environment (states drawn by it)
  const served = (await run.step()).trace;
  run.dispose();
  return {
    dist: Object.fromEntries(spec.states.map((s) => [s.name, spec.behaviors.map((b) => sc[`support/behavior_dist/${s.name}/${b.name}`])])),
    served: Object.fromEntries(spec.states.map((s) => [s.name, spec.behaviors.map((b) => served.filter((t) => t.state === s.name && t.behavior === b.name).length)])),
  };
}

const valid = (r: FitResult) => validateTaskSpec(JSON.parse(JSON.stringify(r.spec)));

describe('a task fitted from the shipped verl example', () => {
  it('reproduces the first step\'s behavior distribution per state within Monte Carlo error', async () => {
    const m = await importExample('verl');
    const fit = fitTask(m, { name: 'verl example' });
    expect(valid(fit).errors).toEqual([]);
    const task = taskFromSpec(fit.spec);
    expect(task.states.map((s) => s.name)).toEqual(['code', 'explain', 'math']);
    const counts = firstStepCounts(m, fit.spec);
    // (1) the compiled base mix is the first step's frequencies
    task.states.forEach((s, i) => {
      const c = counts[s.name];
      const n = c.reduce((a, x) => a + x, 0);
      expect(n).toBeGreaterThan(10);
      task.baseMix[i].forEach((p, j) => expect(p).toBeCloseTo(c[j] / n, 12));
    });
    // (2) and (3): the simulated step 0
    const { dist: sim, served } = await stepZero(fit.spec, 1);
    const report: string[] = [];
    task.states.forEach((s, i) => {
      const q = sim[s.name];
      const simValid = q.reduce((a, x) => a + x, 0);
      expect(simValid, `${s.name}: share of valid responses at step 0`).toBeGreaterThan(0.95);
      const qv = q.map((x) => x / simValid);
      const c = counts[s.name];
      const n = c.reduce((a, x) => a + x, 0);
      c.forEach((k, j) => {
        const p = k / n;
        const bound = Z * Math.sqrt((p * (1 - p)) / n + (qv[j] * (1 - qv[j])) / N_SIM);
        expect(Math.abs(qv[j] - p), `${s.name}/${task.behaviors[j].name}: simulated ${qv[j]} vs first step ${p} (n = ${n})`).toBeLessThanOrEqual(bound);
      });
      const pv = exactMultinomialP(counts[s.name], qv);
      report.push(`${s.name}: counts ${counts[s.name].join('/')}, simulated ${qv.map((x) => x.toFixed(3)).join('/')}, exact p = ${pv.toFixed(3)}`);
      expect(pv, report.at(-1)).toBeGreaterThan(ALPHA);
      // the 64 turns of the first training step, served through the environment, against the base mix
      const ps = exactMultinomialP(served[s.name], task.baseMix[i]);
      report.push(`  served at step 1: ${served[s.name].join('/')}, exact p under the base mix = ${ps.toFixed(3)}`);
      expect(ps, report.at(-1)).toBeGreaterThan(ALPHA);
    });
    expect(Object.values(served).flat().reduce((a, x) => a + x, 0)).toBeGreaterThan(60);
    console.log(report.join('\n'));

    // the same test rejects a task fitted from the last step (support has collapsed by then)
    const last = fitTask(m, { baseSteps: [20, 20] });
    const simLast = (await stepZero(last.spec, 1)).dist;
    const ps = last.spec.states.map((s) => {
      const q = simLast[s.name];
      const t = q.reduce((a, x) => a + x, 0);
      return exactMultinomialP(counts[s.name], q.map((x) => x / t));
    });
    console.log(`fitted from step 20: exact p per state ${ps.map((p) => p.toExponential(2)).join(', ')}`);
    expect(Math.min(...ps)).toBeLessThan(ALPHA);
  }, 120_000);
});

// The judge's side: the fitted truth is the log's reward signs per state × behavior (all steps), and
// the lab's judge under the fit's settings (fit.settings: judgeNoise 0; judgeVotes as configured)
// gives turns of a state × behavior those signs. Per cell, the exact multinomial test of the signs of
// the served turns (tabular engine, base pretrained as above, 16 × 256 single-turn sessions, states
// drawn by the environment; the first 80 turns of each cell) under the log's shares, at
// α = 0.01 / 12 (Bonferroni over the cells). judgeVotes 1 and the default 3 give the same reward on
// every turn (one true vote per turn, copied: judge.ts castVotes); the lab's default judge
// (judgeNoise 0.1, 3 votes: what `npm run lab -- --task-file` gave before the fit printed its
// settings) is rejected: the test can fail.
describe('the fitted verl task\'s rewards', () => {
  it('have the log\'s reward signs per state × behavior under the fit\'s settings', async () => {
    const m = await importExample('verl');
    const fit = fitTask(m, { name: 'verl example' });
    expect(fit.settings).toEqual({ judgeNoise: 0 });
    const task = taskFromSpec(fit.spec);
    const logSigns = (s: string, b: string) => (['pos', 'zero', 'neg'] as const).map((x) => m.frames.reduce((a, f) => a + ((f.scalars as Record<string, number | undefined>)[`import/reward_count/${s}/${b}/${x}`] ?? 0), 0));
    const cfg = makeConfig({ taskSpec: specText(fit.spec), ...fit.settings, seed: 3 });
    expect(cfg.judgeVotes).toBe(3);
    const engine = createTabularEngine(policyShape(cfg));
    await pretrainBase(engine, task, 3, { steps: 400, batch: 64, lr: 0.05, temperature: cfg.temperature });
    const serve = async (judgeVotes: number, judgeNoise: number) => {
      const rng = makeStreams(3);
      const turns = [];
      for (let k = 0; k < 16; k++) turns.push(...(await serveSessions(engine, task, 256, 1, k * 256, { temperature: cfg.temperature, turns: cfg.sessionTurns, judgeVotes, judgeNoise, hintVotes: cfg.hintVotes }, rng)));
      return turns;
    };
    // the first PER_CELL turns of each cell (the exact test enumerates every outcome of n draws)
    const PER_CELL = 80;
    const signs = (turns: Awaited<ReturnType<typeof serve>>, s: number, b: number) => {
      const cell = turns.filter((t) => t.state === s && t.behavior === b).slice(0, PER_CELL);
      return [1, 0, -1].map((v) => cell.filter((t) => t.reward === v).length);
    };
    const pValues = async (judgeVotes: number, judgeNoise: number) => {
      const turns = await serve(judgeVotes, judgeNoise);
      return { turns, ps: task.states.flatMap((s, i) => task.behaviors.map((b, j) => {
        const log = logSigns(fit.importNames.states[i], fit.importNames.behaviors[j]);
        const n = log.reduce((a, x) => a + x, 0);
        return { cell: `${s.name}/${b.name}`, log, sim: signs(turns, i, j), p: exactMultinomialP(signs(turns, i, j), log.map((x) => x / n)) };
      })) };
    };
    const fitted = await pValues(cfg.judgeVotes, cfg.judgeNoise);
    const alpha = ALPHA / fitted.ps.length;
    console.log(fitted.ps.map((c) => `${c.cell}: log +/0/− ${c.log.join('/')}, simulated ${c.sim.join('/')}, exact p = ${c.p.toFixed(3)}`).join('\n'));
    for (const c of fitted.ps) {
      expect(c.sim.reduce((a, x) => a + x, 0), `${c.cell}: simulated turns`).toBeGreaterThan(30);
      expect(c.p, `${c.cell}: log ${c.log.join('/')}, simulated ${c.sim.join('/')}`).toBeGreaterThan(alpha);
    }
    // one vote or three: the same reward on every turn
    const one = await serve(1, 0);
    expect(one.map((t) => t.reward)).toEqual(fitted.turns.map((t) => t.reward));
    // the lab's default judge (its noise on top of the log's): rejected
    const noisy = await pValues(3, 0.1);
    console.log(`judgeNoise 0.1, 3 votes: smallest exact p ${Math.min(...noisy.ps.map((c) => c.p)).toExponential(2)}`);
    expect(Math.min(...noisy.ps.map((c) => c.p))).toBeLessThan(alpha);
  }, 120_000);
});

describe('the shipped fitted task', () => {
  it('public/tasks/fitted-verl.json is the fit of the shipped verl example (npm run import -- … --fit-task)', async () => {
    const shipped = JSON.parse(readFileSync(join(import.meta.dirname, '../../../public/tasks/fitted-verl.json'), 'utf8'));
    expect(shipped).toEqual(JSON.parse(JSON.stringify(fitTask(await importExample('verl'), { name: 'fitted from the verl example' }).spec)));
  });
});

describe('every shipped format fits a valid task', () => {
  it('openclaw, trl and generic JSONL fit the same states, behaviors, base mix, truth and token level as verl', async () => {
    const verl = fitTask(await importExample('verl'));
    for (const format of ['openclaw', 'trl', 'jsonl'] as const) {
      const fit = fitTask(await importExample(format));
      expect(valid(fit).errors, format).toEqual([]);
      expect(() => taskFromSpec(fit.spec)).not.toThrow();
      expect(fit.spec.kind, format).toBe('single-turn'); // the example's sessions have one turn each
      expect(fit.spec.states.map((s) => [s.name, s.baseMix]), format).toEqual(verl.spec.states.map((s) => [s.name, s.baseMix]));
      expect(fit.spec.behaviors.map((b) => b.name), format).toEqual(verl.spec.behaviors.map((b) => b.name));
      // rewards: the same run's scores (OpenClaw: the PRM's majority score)
      fit.spec.states.forEach((s, i) => expect(s.act, `${format} ${s.name}`).toEqual(verl.spec.states[i].act));
      // the token level: the same responses in each format's tokens (the generic file's own tokens end
      // with one "</s>", the texts' with "<", "/", "s", ">"), so the lengths' offset differs and the rest not
      fit.spec.states.forEach((s, i) => expect(s.responses, `${format} ${s.name}`).toEqual(verl.spec.states[i].responses));
    }
  }, 60_000);
});

const jsonl = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

async function crafted(name: string, text: string): Promise<MeasureResult> {
  return measureLogs([memorySource(name, text)], { states: { kind: 'field', field: 'state' }, behaviors: { rules: [{ label: 'never', responseRegex: '^NEVER$' }], fallback: 'invalid', useLogLabel: true }, eps: 0.05 }, { regex: nodeRegexEngine() });
}

describe('what the fit cannot know', () => {
  it('a behavior never sampled in a state, a small state, non-ternary rewards: stated defaults and notes', async () => {
    const rows: Record<string, unknown>[] = [];
    for (let i = 0; i < 40; i++) rows.push({ step: 1, state: 'big', prompt: 'p', response: 'r', reward: i % 3 === 0 ? 0.5 : i % 3 === 1 ? -1 : 0, behavior: i % 2 ? 'a' : 'b' });
    for (let i = 0; i < 5; i++) rows.push({ step: 1, state: 'small', prompt: 'q', response: 'r', reward: 1, behavior: 'a' });
    rows.push({ step: 2, state: 'small', prompt: 'q', response: 'r', reward: null, behavior: 'c' });
    const fit = fitTask(await crafted('crafted.jsonl', jsonl(rows)));
    expect(valid(fit).errors).toEqual([]);
    const at = (path: string) => fit.notes.filter((n) => n.path === path);
    const small = fit.spec.states.find((s) => s.name === 'small')!;
    const si = fit.spec.states.indexOf(small);
    // b never sampled in "small": no reward estimate, the default, and a question
    expect(small.act.b.truth).toEqual([0, 1, 0]);
    expect(at(`states[${si}].act.b.truth`)).toMatchObject([{ kind: 'unjudged', ask: true }]);
    expect(at(`states[${si}].act.b.truth`)[0].message).toMatch(/never judged in state "small".*no reward estimate.*What does the judge give it/);
    // c: sampled (step 2) but never judged; base mix from step 1 has it at 0
    expect(small.baseMix).toEqual({ a: 1, b: 0, c: 0 });
    expect(at(`states[${si}].act.c.truth`)[0].message).toMatch(/1 samples, none with a reward/);
    expect(at(`states[${si}].baseMix`)).toMatchObject([{ kind: 'few-samples' }]);
    expect(at(`states[${si}].act.a.truth`)).toMatchObject([{ kind: 'few-judged' }]);
    // 0.5 counts as +1, with a note
    const big = fit.spec.states.find((s) => s.name === 'big')!;
    expect(big.act.b.truth.map((x) => +x.toFixed(4))).toEqual([0.35, 0.35, 0.3]);
    expect(fit.notes.find((n) => n.kind === 'non-ternary')?.message).toMatch(/^14 of 45 judged rewards are not −1, 0 or \+1: each counts as its sign/);
    // the rule label no sample had is left out
    expect(fit.spec.behaviors.map((b) => b.name)).toEqual(['a', 'b', 'c']);
    expect(fit.notes.some((n) => n.kind === 'dropped' && /"never"/.test(n.message))).toBe(true);
  });

  it('more states than the model has tokens: the most sampled kept; odd names spelled safely', async () => {
    const rows: Record<string, unknown>[] = [];
    for (let s = 0; s < 12; s++) for (let i = 0; i <= s; i++) rows.push({ step: 1, state: `s#${s}`, prompt: 'p', response: 'r', reward: 1, behavior: 'x+y' });
    const fit = fitTask(await crafted('many.jsonl', jsonl(rows)));
    expect(valid(fit).errors).toEqual([]);
    // the import lists states in text order (s#10 before s#2)
    expect(fit.spec.states.map((s) => s.name)).toEqual(['s_10', 's_11', ...Array.from({ length: 8 }, (_, i) => `s_${i + 2}`)]);
    expect(fit.notes.filter((n) => n.kind === 'dropped' && n.path === 'states').map((n) => n.message.slice(0, 28))).toEqual(['state "s#0" (1 samples) left', 'state "s#1" (2 samples) left']);
    expect(fit.spec.behaviors[0]).toEqual({ name: 'x_y', markers: ['XY'], hint: 'hint:x_y' });
  });

  it('OpenClaw sessions: next-state mix, session end and the next message from the records', async () => {
    const rec: Record<string, unknown>[] = [];
    const prm: Record<string, unknown>[] = [];
    // 20 sessions: turn 1 in "ask" (tool a or b), turn 2 in "answer" or "ask"; b ends half its sessions
    for (let k = 0; k < 20; k++) {
      const tool = k % 2 ? 'b' : 'a';
      const two = tool === 'a' || k % 4 === 1;
      rec.push({ session_id: `s${k}`, turn: 1, step: 1, prompt_text: 'state=ask', response_text: 'x', tool_calls: [{ function: { name: tool } }], next_state: two ? { content: 'n' } : null });
      prm.push({ session_id: `s${k}`, turn: 1, score: tool === 'a' ? 1 : -1, votes: [1, 1, 1] });
      if (two) rec.push({ session_id: `s${k}`, turn: 2, step: 1, prompt_text: k % 3 ? 'state=answer' : 'state=ask', response_text: 'x', tool_calls: [{ function: { name: 'a' } }], next_state: null });
    }
    const m = await measureLogs([memorySource('r.jsonl', jsonl(rec)), memorySource('r_prm.jsonl', jsonl(prm))], {
      states: { kind: 'regex', pattern: 'state=(\\S+)' },
      behaviors: { rules: [{ label: 'a', toolSeq: ['a'] }, { label: 'b', toolSeq: ['b'] }], fallback: 'invalid' },
      eps: 0.05,
    }, { regex: nodeRegexEngine() });
    const fit = fitTask(m);
    expect(valid(fit).errors).toEqual([]);
    expect(fit.spec.kind).toBe('multi-turn');
    const ask = fit.spec.states.find((s) => s.name === 'ask')!;
    // a: 10 sessions went on, 3 of them (k = 0, 6, 12, 18 → k % 3 == 0: 0, 6, 12, 18) to "ask"
    const nextA = ask.act.a.next as Record<string, number>;
    expect(nextA.ask + nextA.answer).toBeCloseTo(1, 12);
    expect(nextA.ask).toBeGreaterThan(0);
    // b: ended 5 of 10 sessions → 'end' with a note
    expect(ask.act.b.next).toBe('end');
    expect(fit.notes.some((n) => n.path.endsWith('act.b.next') && /ended its session in 50\.0 %/.test(n.message))).toBe(true);
    // the turns in "answer" never had a next state
    expect(fit.spec.states.find((s) => s.name === 'answer')!.act.a.nextMessage).toBe(false);
    expect(fit.sessionTurns).toBeCloseTo(35 / 20, 12);
    // it trains: sessions of two turns on the tabular engine, states drawn by the fitted transitions
    const cfg = makeConfig({ taskSpec: specText(fit.spec), sessionTurns: 2, rolloutBatch: 16, behaviorSamples: 8, seed: 2 });
    const run = await Run.create(createTabularEngine(policyShape(cfg)), cfg);
    const frame = await run.step();
    run.dispose();
    expect(frame.scalars['esr/served']).toBeGreaterThanOrEqual(16);
    expect(new Set(frame.trace.map((t) => t.state))).toEqual(new Set(['ask', 'answer']));
  });
});
