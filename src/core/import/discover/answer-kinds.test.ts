// One kind of request written several ways is one state when its answers talk alike (answer-kinds.ts);
// two kinds whose answers share only a language's frame stay two.
import { describe, expect, it } from 'vitest';
import { Gen } from '../../../bench/reasoning-phrases';
import { emptySample } from '../formats/common';
import { nmi } from '../../measure/nmi';
import { AnswerKinds, answerOf, promptId, type Answer } from './answer-kinds';
import { StateDiscoverer } from './discoverer';
import type { ImportedSample } from '../types';

const chatml = (user: string) => `<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n${user}<|im_end|>\n<|im_start|>assistant\n`;

/** Requests by kind, each kind asked in phrasings that share no word, and what its answers say. */
interface Kind {
  ask: ((g: Gen) => string)[];
  answer: (g: Gen) => string;
}

const FRAME = ['Okay, let me work through this carefully.', 'So, putting it together, the result follows.', 'I think that settles it.', 'Let me make sure nothing is missing.'];

function say(g: Gen, topic: string[]): string {
  const out: string[] = [];
  for (let k = g.int(6, 10); k > 0; k--) out.push(g.chance(0.5) ? g.pick(FRAME) : `The ${g.pick(topic)} and the ${g.pick(topic)} matter here.`);
  return out.join(' ');
}

const KINDS: Record<string, Kind> = {
  garden: {
    ask: [(g) => `My tomato plants have yellow leaves after ${g.int(2, 9)} weeks. What should I do?`, (g) => `Why would seedlings wilt ${g.int(2, 9)} days after transplanting?`, (g) => `Which fertilizer suits ${g.pick(['roses', 'tulips', 'lilies', 'peonies', 'dahlias'])} best?`],
    answer: (g) => say(g, ['soil', 'watering', 'nitrogen', 'roots', 'sunlight', 'compost']),
  },
  travel: {
    ask: [(g) => `Book me a train from Lyon to Turin on March ${g.int(2, 28)}.`, (g) => `I need to get to ${g.pick(['Vienna', 'Prague', 'Munich', 'Zurich'])} by Friday, cheapest option please.`, (g) => `Can you find an overnight bus out of ${g.pick(['Porto', 'Seville', 'Bilbao', 'Faro'])}?`],
    answer: (g) => say(g, ['ticket', 'departure', 'fare', 'station', 'connection', 'seat']),
  },
  code: {
    ask: [(g) => `My script crashes with a ${g.pick(['KeyError', 'TypeError', 'ValueError', 'NameError'])} on startup.`, (g) => `Getting a timeout in handler.py line ${g.int(10, 99)}, any idea?`, (g) => `Unit tests started failing after the last ${g.pick(['merge', 'rebase', 'release', 'upgrade'])}.`],
    answer: (g) => say(g, ['stack', 'trace', 'function', 'variable', 'exception', 'module']),
  },
};

function step(g: Gen, s: number): { samples: ImportedSample[]; truth: string[] } {
  const samples: ImportedSample[] = [];
  const truth: string[] = [];
  for (let p = 0; p < 9; p++) {
    const kind = g.pick(Object.keys(KINDS));
    const prompt = chatml(g.pick(KINDS[kind].ask)(g));
    for (let k = 0; k < 8; k++) {
      samples.push({ ...emptySample(`${s}.jsonl`, samples.length + 1), step: s, group: `${s}-${p}`, prompt, response: KINDS[kind].answer(g) });
      truth.push(kind);
    }
  }
  return { samples, truth };
}

describe('phrasings of one kind of request, joined by what their answers talk about', () => {
  it('three kinds, each asked three ways that share no word, become three states', () => {
    const g = new Gen(3);
    const d = new StateDiscoverer();
    const [truth, labels, late, lateTruth] = [[] as string[], [] as string[], [] as string[], [] as string[]];
    for (let s = 1; s <= 12; s++) {
      const x = step(g, s);
      const l = d.labelStep(s, x.samples);
      labels.push(...l);
      truth.push(...x.truth);
      if (s > 6) (late.push(...l), lateTruth.push(...x.truth));
    }
    // once the answers have been read a few steps, each kind is one state
    expect(nmi(lateTruth, late)).toBeGreaterThan(0.95);
    expect(new Set(late).size).toBe(3);
    // the phrasings joined are listed as merged into their kind, whose count holds theirs
    const listed = d.behaviors();
    const current = listed.filter((b) => b.mergedInto === null);
    expect(current.reduce((n, b) => n + b.count, 0)).toBe(labels.length);
    expect(listed.filter((b) => b.mergedInto !== null).length).toBeGreaterThanOrEqual(3);
  });

  it('without the answers (no responses) the phrasings stay apart: the joins are what the answers say', () => {
    const g = new Gen(3);
    const d = new StateDiscoverer();
    const late: string[] = [];
    for (let s = 1; s <= 12; s++) {
      const x = step(g, s);
      const l = d.labelStep(s, x.samples.map((t) => ({ ...t, response: '' })));
      if (s > 6) late.push(...l);
    }
    expect(new Set(late).size).toBeGreaterThan(3);
  });

  it('two kinds whose answers share a language frame but not their topic stay two', () => {
    const k = new AnswerKinds();
    const g = new Gen(5);
    const frame = 'the answer is so we get it here';
    const capitals = ['paris', 'lima', 'oslo', 'cairo', 'nairobi'];
    const labels: string[] = [];
    const answers: Answer[] = [];
    for (let i = 0; i < 120; i++) {
      const capital = i % 2 === 0;
      labels.push(capital ? 'capital' : 'sum');
      answers.push(answerOf(`${frame} ${capital ? g.pick(capitals) : g.int(2, 99)}.`, new Set(), promptId(`p${i % 10}`))!);
    }
    k.add(labels, answers);
    expect(k.join(['capital', 'sum'])).toEqual([]);
    // the same answers under two labels (one kind, two phrasings) join
    const same = new AnswerKinds();
    same.add(labels.map((_, i) => (i % 4 < 2 ? 'a' : 'b')), answers.map((_, i) => answers[i - (i % 2)]));
    expect(same.join(['a', 'b'])).toEqual(['b']);
    expect(same.kind('b')).toBe('a');
  });

  it('a pair is judged once its two states together answer 3 prompts, whatever each holds', () => {
    const g = new Gen(7);
    const text = () => `the ${g.pick(['soil', 'roots', 'compost', 'nitrogen'])} and the ${g.pick(['watering', 'sunlight', 'mulch'])} matter.`;
    // a: one prompt, b: one prompt — two questions' answers are two topics, not yet a kind
    const one = (p: string) => answerOf(text(), new Set(), promptId(p))!;
    const k = new AnswerKinds();
    k.add([...Array(20).fill('a'), ...Array(20).fill('b')], [...Array.from({ length: 20 }, () => one('p1')), ...Array.from({ length: 20 }, () => one('p2'))]);
    expect(k.join(['a', 'b'])).toEqual([]);
    // b's answers to a second prompt make three between them: b joins a though a holds one prompt
    k.add(Array(20).fill('b'), Array.from({ length: 20 }, () => one('p3')));
    expect(k.join(['a', 'b'])).toEqual(['b']);
  });

  it('the joins are saved and restored with the states', () => {
    const g = new Gen(9);
    const d = new StateDiscoverer();
    for (let s = 1; s <= 8; s++) d.labelStep(s, step(g, s).samples);
    const restored = new StateDiscoverer();
    restored.restore(JSON.parse(JSON.stringify(d.save())));
    const next = step(g, 9).samples;
    expect(restored.labelStep(9, next)).toEqual(d.labelStep(9, next));
  });
});
