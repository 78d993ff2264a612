/**
 * The numbers a lesson's text gives for its default seed are what a fresh run shows: each lesson
 * below trains seed 1 as the page does (the transformer on WASM, the shipped base; page and Node runs
 * agree bit for bit but for the last bit of Math.log) and reads the number the way the page draws it,
 * against the lesson's measurement file, which fills its text. Where the text gives a range over
 * seeds, seed 1's fresh value must lie in it; a claim over a few short runs (d's default clip, c's
 * tabular check) re-runs all of them. Small budgets: the steps each number needs. Numbers a
 * text derives or writes from another source (the judge's arithmetic, the onset rule, a bound, the
 * task's base mix) are checked against that source. Multi-seed experiment results are not re-run
 * here (hours of CPU): they are derived again from the experiments' records
 * (tests/unit/lesson-experiment-values.test.ts, which lists what no record holds), whose first seeds
 * are re-trained bit for bit by tests/unit/experiment-records-reproduce.test.ts; lesson o's log
 * counts are checked in src/core/experiment/lessons.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig, makeConfig } from '../../src/core/config';
import { Run } from '../../src/core/loop';
import { parseMeasures } from '../../src/core/lesson-text';
import { ONSET_RULE } from '../../src/core/measure/onset';
import { parsePreset } from '../../src/core/presets';
import type { Rng } from '../../src/core/rng';
import { castVotes, majority, type Vote } from '../../src/core/tasks/judge';
import { tabularFactory } from '../support/factory';
import { runLesson, seedMarkers } from '../support/plot-markers';
import { scaled } from '../support/speed';

const presets = join(import.meta.dirname, '../../public/presets');
const read = (path: string) => JSON.parse(readFileSync(join(presets, path), 'utf8')) as unknown;
const values = (id: string) => parseMeasures(id, read(`measured/${id}.json`)).values as Record<string, number>;
/** The lesson as the page shows it: texts filled from its measurements and settings. */
const lesson = (id: string) => parsePreset(id, read(`${id}.json`), parseMeasures(id, read(`measured/${id}.json`)));
const r3 = (x: number) => Math.round(x * 1000) / 1000;
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

  it('b: verify is rare in the base: the task\'s base mix, and seed 1\'s step 0 at 256 samples; the sample arithmetic', async () => {
    const v = values('b-clip-higher');
    const { evidence = '', resolved } = lesson('b-clip-higher');
    const mix = (JSON.parse(readFileSync(join(import.meta.dirname, '../../src/core/tasks/builtin/strategies.json'), 'utf8')) as { states: { name: string; baseMix: Record<string, number> }[] }).states.find((x) => x.name === 'code')!.baseMix;
    expect(evidence).toContain(`the task's base mix gives it ${Math.round(mix.verify * 100)} %`);
    const r = await runLesson('b-clip-higher', 1, { steps: 1 });
    expect(r.config.behaviorSamples).toBe(256);
    expect(r3(r.base['support/behavior_dist/code/verify'])).toBe(v['seed1.baseVerify']);
    // "about 6 of 256 samples", "with the default 64 samples one sample (0.016)"
    expect(evidence).toContain(`about ${Math.round(v['paired256.diff'] * resolved.behaviorSamples)} of ${resolved.behaviorSamples} samples`);
    expect(evidence).toContain(`with the default ${defaultConfig().behaviorSamples} samples one sample (${r3(1 / defaultConfig().behaviorSamples)})`);
  }, scaled(120_000));

  it('c: with K = 1 both clip fractions are exactly 0 at every step; with K = 4 (run B) they leave 0', async () => {
    const clip = (r: Awaited<ReturnType<typeof runLesson>>) => r.frames.map((f) => [f.scalars['gap/clipfrac_low'] ?? NaN, f.scalars['gap/clipfrac_high'] ?? NaN]);
    expect(clip(await runLesson('c-clip-never-binds', 1, { steps: 5 }))).toEqual(Array.from({ length: 5 }, () => [0, 0]));
    const b = clip(await runLesson('c-clip-never-binds', 1, { steps: 1, set: { updatesPerRollout: values('c-clip-never-binds')['compare.updatesPerRollout'] } }));
    expect(b[0][0] + b[0][1]).toBeGreaterThan(0);
  }, scaled(120_000));

  it('c: on the tabular reference engine both clip fractions are exactly 0 at every step of every seed the text gives', async () => {
    const v = values('c-clip-never-binds');
    const { config } = lesson('c-clip-never-binds');
    const make = tabularFactory();
    for (let seed = 1; seed <= v['tabular.seeds']; seed++) {
      const cfg = makeConfig({ ...config, seed, steps: v['tabular.steps'] });
      const engine = await make(cfg);
      const run = await Run.create(engine, cfg);
      try {
        for (let s = 0; s < cfg.steps; s++) {
          const f = await run.step();
          expect([f.scalars['gap/clipfrac_low'], f.scalars['gap/clipfrac_high']], `seed ${seed} step ${f.step}`).toEqual([0, 0]);
        }
      } finally {
        run.dispose();
        await engine.dispose();
      }
    }
  }, scaled(120_000));

  it('d: with the default norm clip both runs\' curves stay identical in exactly the seeds whose raw norms all exceed it', async () => {
    const v = values('d-at-least-one');
    const { evidence = '' } = lesson('d-at-least-one');
    const limit = defaultConfig().maxGradNorm;
    expect(evidence).toContain(`With the default clip (maxGradNorm ${limit})`);
    const steps = v['clip.steps'];
    let identical = 0;
    for (let seed = 1; seed <= v['clip.seeds']; seed++) {
      const run = (atLeastOne: boolean) => runLesson('d-at-least-one', seed, { steps, set: { atLeastOne, maxGradNorm: limit } });
      const [w, wo] = [await run(true), await run(false)];
      const allClipped = [w, wo].every((r) => r.frames.every((f) => (f.scalars['grad/norm'] as number) > limit));
      // what the policy does (behavior, reward, token entropy), equal up to float rounding; the bookkeeping of the promoted turns differs
      const scalars = (r: typeof w, i: number) => r.frames[i].scalars as Record<string, number>;
      const curves = Object.keys(scalars(w, 0)).filter((k) => /^(support|reward)\//.test(k));
      expect(curves.length).toBeGreaterThan(10);
      const same = w.frames.every((_, i) => curves.every((k) => Math.abs(scalars(w, i)[k] - scalars(wo, i)[k]) < 5e-6));
      expect(same, `seed ${seed}: identical curves exactly when every raw norm exceeds the clip`).toBe(allClipped);
      if (same) identical++;
    }
    expect(identical).toBe(v['clip.identical']);
  }, scaled(180_000));

  it('e: seed 1\'s code support moves between the low and the high the text gives over seeds', async () => {
    const v = values('e-opd-purity-volume');
    const r = await runLesson('e-opd-purity-volume', 1);
    const support = r.frames.map((f) => f.scalars['support/behavior_support/code'] as number);
    expect(Math.min(...support)).toBeGreaterThanOrEqual(v['support.lowMin']);
    expect(Math.min(...support)).toBeLessThanOrEqual(v['support.lowMax']);
    expect(Math.max(...support)).toBe(v['support.high']);
  }, scaled(240_000));

  it('h: at step 30 run A starts with search and run B (γ 1, no shaping) on invalid; with γ = 1 alone the two look alike', async () => {
    const v = values('h-long-horizon-credit');
    const at = async (set: Record<string, number>) => (await runLesson('h-long-horizon-credit', 1, { steps: v['seed1.step'], set })).frames[v['seed1.step'] - 1].scalars as Record<string, number>;
    const start = (x: Record<string, number>) => Object.fromEntries(Object.entries(x).filter(([k]) => k.startsWith('support/behavior_dist/start/')));
    const a = start(await at({}));
    expect(r3(a['support/behavior_dist/start/search'])).toBe(v['seed1.searchA']);
    const b = start(await at({ gamma: v['compare.gamma'], prmStepCoef: v['compare.prmStepCoef'] }));
    expect(r3(b['support/behavior_dist/start/invalid'])).toBe(v['seed1.invalidB']);
    const gammaOnly = start(await at({ gamma: v['compare.gamma'] }));
    expect(Object.keys(a).length).toBeGreaterThan(2);
    for (const k of Object.keys(a)) expect(Math.abs(gammaOnly[k] - a[k]), k).toBeLessThanOrEqual(0.05);
  }, scaled(180_000));

  it('j: I(S;B) without SFT ends at the most possible when one of three states gets its own behavior and two share one', () => {
    const v = values('j-collapse-vs-convergence');
    // I(S;B) = H(B) − H(B|S) with H(B|S) = 0 and behaviors of shares 1/3 and 2/3
    const bound = -(1 / 3) * Math.log(1 / 3) - (2 / 3) * Math.log(2 / 3);
    expect(Math.round(bound * 100) / 100).toBe(v['noSft.miLast']);
    expect(lesson('j-collapse-vs-convergence').evidence).toContain('the most possible when one of three states gets its own behavior and two share one');
  });

  it('k: the onset rule the text states is the one the numbers were computed with', () => {
    const { evidence = '' } = lesson('k-cascade');
    const w = ONSET_RULE.window;
    expect(evidence).toContain(`the first step where the trailing ${w}-step mean stays at least ${ONSET_RULE.fraction * 100} % of the way from the first ${w} steps' level to the last ${w} steps' level for ${w} steps`);
  });

  it('l: the judge\'s arithmetic: a nonzero majority has the wrong sign 11 % of the time when the votes disagree, 0.6 % when not', () => {
    const { evidence = '', resolved } = lesson('l-votes-disagree');
    // every way the votes can fall, with its probability, through the judge's own castVotes and majority
    const m = resolved.judgeVotes;
    const noise = resolved.judgeNoise;
    const outcomes: { votes: Vote[]; p: number }[] = [];
    const draws = [{ noisy: false, k: 0, p: 1 - noise }, ...[0, 1, 2].map((k) => ({ noisy: true, k, p: noise / 3 }))];
    const walk = (picked: (typeof draws)[number][]): void => {
      if (picked.length < m) return draws.forEach((d) => walk([...picked, d]));
      // castVotes draws next() for each vote, then int(3) for a noisy one: answer with this walk's draws
      let i = 0;
      const rng = { next: () => (picked[i++].noisy ? 0 : 1), int: () => picked[i - 1].k } as unknown as Rng;
      outcomes.push({ votes: castVotes(1, m, noise, rng), p: picked.reduce((a, d) => a * d.p, 1) });
    };
    walk([]);
    expect(outcomes.reduce((a, o) => a + o.p, 0)).toBeCloseTo(1, 12);
    const wrongShare = (disagree: boolean) => {
      const these = outcomes.filter((o) => (o.votes.includes(1) && o.votes.includes(-1)) === disagree && majority(o.votes) !== 0);
      return these.filter((o) => majority(o.votes) === -1).reduce((a, o) => a + o.p, 0) / these.reduce((a, o) => a + o.p, 0);
    };
    const pct = (x: number) => `${Math.round(x * 100)} %`;
    expect(evidence).toContain(`a nonzero majority has the wrong sign ${pct(wrongShare(true))} of the time if the votes disagree and ${(wrongShare(false) * 100).toFixed(1)} % if they do not`);
  });

  it('m: the threshold the text names is the gate\'s', () => {
    const { evidence = '', resolved } = lesson('m-drop-stale');
    const threshold = /rollout_logp_gap > ([\d.]+)/.exec(resolved.gate)?.[1];
    expect(threshold).toBeDefined();
    expect(evidence).toContain(`exceeds ${threshold} nats, then applies the built-in rules`);
    expect(evidence).toContain(`most served turns exceed ${threshold} nats`);
  });
});
