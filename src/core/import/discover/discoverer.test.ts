// The discovery API on generated runs (tests/support/discover-corpus.ts): noise goes to one label,
// prompt words do not split a behavior, a restart from `save` gives the labels an uninterrupted run
// gives, a behavior that appears mid-run gets a new label without relabelling earlier steps, and
// each behavior is named, described and explained.
import { describe, expect, it } from 'vitest';
import { TOPIC_WORDS, makeCorpus, type TruthSample } from '../../../../tests/support/discover-corpus';
import { BehaviorDiscoverer, StateDiscoverer, UNCLASSIFIED } from './discoverer';
import { Discovery } from './step-labels';
import { BehaviorClassifier, StateClassifier } from '../rules/rules';
import { emptySample } from '../formats/common';
import { unreadableParts } from '../../../../tests/support/readable-names';
import { lengthText } from './naming';

const stepsOf = (c: readonly TruthSample[]) => [...new Set(c.map((t) => t.sample.step))].sort((a, b) => a - b);
const held = (c: readonly TruthSample[], step: number) => c.filter((t) => t.sample.step === step).map((t) => t.sample);
const rules = () => ({ sc: new StateClassifier({ kind: 'single' }), bc: new BehaviorClassifier({ rules: [] }) });

function run(d: Discovery, c: readonly TruthSample[], steps: readonly number[]): string[] {
  const { sc, bc } = rules();
  return steps.flatMap((s) => d.step(s, held(c, s), sc, bc).map((l) => `${l.state}|${l.behavior}`));
}

describe('behavior discovery', () => {
  const corpus = makeCorpus({ seed: 11, steps: 8, perStep: 96 });

  it('noise (empty, cut-off, garbage) is one label, never a behavior per sample', () => {
    const d = new BehaviorDiscoverer();
    const labels = stepsOf(corpus).flatMap((s) => d.labelStep(s, held(corpus, s)));
    const noise = corpus.flatMap((t, i) => (t.behavior === 'noise' ? [labels[i]] : []));
    expect(noise.length).toBeGreaterThan(10);
    expect(noise.filter((l) => l === UNCLASSIFIED).length / noise.length).toBeGreaterThan(0.9);
    for (const b of d.behaviors()) expect(b.count).toBeGreaterThanOrEqual(3);
  });

  it('a one-word answer the step gives three times or more is a bare answer; a one-word fragment once is noise', () => {
    const answer = (line: number, response: string) => ({ ...emptySample('1.jsonl', line), step: 1, prompt: 'John is married to Ava. What is Ava to John?', response });
    const words = ['mother', 'Mother', 'aunt', 'mother', 'aunt', 'aunt', 'Gre'];
    const labels = new BehaviorDiscoverer().labelStep(1, words.map((w, i) => answer(i + 1, w)));
    expect(labels.slice(0, 6).every((l) => l !== UNCLASSIFIED)).toBe(true);
    expect(labels[6]).toBe(UNCLASSIFIED);
  });

  it('short answers of short words get a behavior in every script, not the noise label', () => {
    const forms = ['It is {n}.', 'यह {n} है।', '{n}。', 'هو {n}؟'];
    const samples = Array.from({ length: 48 }, (_, k) => ({ ...emptySample('1.jsonl', k + 1), step: 1, prompt: `What is ${k} plus ${k + 3}?`, response: forms[k % 4].replace('{n}', String(2 * k + 3)) }));
    const labels = new BehaviorDiscoverer().labelStep(1, samples);
    expect(labels.filter((l) => l === UNCLASSIFIED), labels.join()).toEqual([]);
  });

  it('the same frame about different topics in different states is one behavior', () => {
    const d = new BehaviorDiscoverer();
    const labels = stepsOf(corpus).flatMap((s) => d.labelStep(s, held(corpus, s)));
    const search = corpus.flatMap((t, i) => (t.behavior === 'search' ? [{ l: labels[i], st: t.state }] : []));
    const top = [...new Set(search.map((x) => x.l))].map((l) => ({ l, n: search.filter((x) => x.l === l).length })).sort((a, b) => b.n - a.n)[0];
    expect(top.n / search.length).toBeGreaterThan(0.85);
    expect(new Set(search.filter((x) => x.l === top.l).map((x) => x.st)).size).toBeGreaterThanOrEqual(3);
  });

  it('in a session, a reply that reports a tool result and one that acknowledges a correction are two behaviors, each one label', () => {
    const head = '<|im_start|>system\nYou help customers with their orders.<|im_end|>\n<|im_start|>user\nWhere is my order A1?<|im_end|>\n<|im_start|>assistant\nLet me check.<|im_end|>\n';
    const afterTool = `${head}<|im_start|>user\n<tool_response>\n{"status": "shipped"}\n</tool_response><|im_end|>\n<|im_start|>assistant\n`;
    const afterUser = `${head}<|im_start|>user\nNo, that is wrong, please check again.<|im_end|>\n<|im_start|>assistant\n`;
    const reports = ['Here is what I found: it is {v}.', 'According to the system, it is {v}.', 'Good news: it is {v}.'];
    const acks = ['Sorry about that, it is {v}.', 'You are right, it should be {v}.', 'My mistake, it is {v}.'];
    const values = ['on its way', 'ready', 'confirmed', 'delayed by a day'];
    const reply = (k: number, prompt: string, pool: string[]) => ({ ...emptySample('1.jsonl', k + 1), step: 1, prompt, response: `${pool[k % 3].replace('{v}', values[(k * 7) % 4])}<|im_end|>` });
    const samples = Array.from({ length: 48 }, (_, k) => (k % 2 ? reply(k, afterUser, acks) : reply(k, afterTool, reports)));
    const labels = new BehaviorDiscoverer().labelStep(1, samples);
    const [r, a] = [labels.filter((_, k) => k % 2 === 0), labels.filter((_, k) => k % 2 === 1)];
    expect(new Set(r).size, r.join()).toBe(1);
    expect(new Set(a).size, a.join()).toBe(1);
    expect(r[0]).not.toBe(a[0]);
  });

  it('a restart from save() continues with the labels an uninterrupted run gives', () => {
    const steps = stepsOf(corpus);
    const uninterrupted = new Discovery(new BehaviorDiscoverer(), new StateDiscoverer());
    const whole = run(uninterrupted, corpus, steps);
    const first = new Discovery(new BehaviorDiscoverer(), new StateDiscoverer());
    const a = run(first, corpus, steps.slice(0, 3));
    const snap = JSON.parse(JSON.stringify(first.save())) as ReturnType<Discovery['save']>;
    const second = new Discovery(new BehaviorDiscoverer(), new StateDiscoverer());
    second.restore(snap);
    expect([...a, ...run(second, corpus, steps.slice(3))]).toEqual(whole);
    expect(JSON.stringify(second.save())).toBe(JSON.stringify(uninterrupted.save()));
  });

  it('a saved state of another kind or other settings is refused, naming why', () => {
    const d = new Discovery(new BehaviorDiscoverer(), null);
    const snap = d.save();
    expect(() => new StateDiscoverer().restore(snap.behaviors!)).toThrow(/not this kind/);
    expect(() => new BehaviorDiscoverer([], { ...new BehaviorDiscoverer().params, join: 0.9 }).restore(snap.behaviors!)).toThrow(/other settings/);
  });

  it('a behavior that appears mid-run gets a new label; the labels of earlier steps stay as they were given', () => {
    const c = makeCorpus({ seed: 5, steps: 10, perStep: 96, behaviors: ['direct', 'stepwise', 'search', 'code', 'clarify', 'check', 'handoff'], late: { behavior: 'code', from: 6 } });
    const d = new BehaviorDiscoverer();
    const before: string[] = [];
    const labels: string[] = [];
    for (const s of stepsOf(c)) {
      const names = d.names();
      const l = d.labelStep(s, held(c, s));
      labels.push(...l);
      if (s < 6) before.push(...names);
    }
    const code = c.flatMap((t, i) => (t.behavior === 'code' ? [labels[i]] : []));
    const main = code.filter((l) => l !== UNCLASSIFIED);
    expect(main.length / code.length).toBeGreaterThan(0.8);
    const codeLabel = main[0];
    expect(before).not.toContain(codeLabel);
    expect(d.behaviors().find((b) => b.name === codeLabel)!.firstStep).toBeGreaterThanOrEqual(6);
    expect(d.behaviors().find((b) => b.name === codeLabel)!.shape).toMatch(/code/);
  });

  it('each behavior has a readable name, typical words, representatives that are its samples, and an explanation', () => {
    const d = new BehaviorDiscoverer();
    const labels = stepsOf(corpus).flatMap((s) => d.labelStep(s, held(corpus, s)));
    const bs = d.behaviors().filter((b) => !b.mergedInto);
    expect(bs.length).toBeGreaterThanOrEqual(5);
    for (const b of bs) {
      expect(b.name).toMatch(/^[\p{L}\p{N}_~.'·-]+$/u);
      // named by an opening it quotes or a shape in words, never a pair of content words
      expect(unreadableParts(b.title)).toEqual([]);
      expect(b.words.length).toBeGreaterThan(0);
      expect(b.representatives.length).toBeGreaterThan(0);
      for (const r of b.representatives) {
        const i = corpus.findIndex((t) => t.sample.file === r.file && t.sample.line === r.index + 1);
        expect(labels[i]).toBe(b.name);
      }
    }
    const i = corpus.findIndex((t, k) => t.behavior === 'search' && labels[k] !== UNCLASSIFIED);
    const e = d.explain(corpus[i].sample);
    expect(e.label).toBe(labels[i]);
    expect(e.similarity).toBeGreaterThan(0);
    expect(e.evidence.join(' ')).toMatch(/search|tool/);
    expect(d.explain({ ...corpus[i].sample, response: '' })).toMatchObject({ label: UNCLASSIFIED, noise: 'empty' });
  });

  // seeds the defaults were not chosen on; the answers restate their prompt's topic ("Tectonics holds a key value.")
  it.each([6, 8])('no name of a behavior or a state holds a word of a prompt\'s topic (seed %i)', (seed) => {
    const run = makeCorpus({ seed, steps: 12, perStep: 60 });
    const [b, st] = [new BehaviorDiscoverer(), new StateDiscoverer()];
    for (const s of stepsOf(run)) (st.labelStep(s, held(run, s)), b.labelStep(s, held(run, s)));
    const names = [...b.behaviors(), ...st.behaviors()].flatMap((x) => [x.name, x.title]);
    expect(names.filter((t) => t.toLowerCase().split(/[^\p{L}]+/u).some((w) => TOPIC_WORDS.has(w)))).toEqual([]);
  });

  it('says a length term in words, never its code', () => {
    expect(['len5', 'len8', 'lines2', 'lines4', 'think6', 'zh:len3', 'odd'].map(lengthText)).toEqual(['32–63 words', '256+ words', '4–7 lines', '16+ lines', 'a think of 64–127 words', '8–15 words (zh)', null]);
  });
});
