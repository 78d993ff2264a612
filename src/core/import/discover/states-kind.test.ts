// States are kinds of request, not topics (docs/import.md "Behaviors and states nobody named"): a
// run of one kind of request asked about many topics — word problems like GSM8K's, each prompt
// its own story under one standing instruction, sampled as a GRPO group — is one state, not a
// state a problem (with the state defaults before issue 45's rework of them: eight states, the
// largest holding 18 % of the samples); requests in two scripts share no term, so the same question
// asked in Russian and in Arabic is never one state by its numbers; an eval-like run of a hundred
// kinds, a few samples of each a step, gets a state a kind (with at most 24 states, three quarters of
// it was `other`).
import { describe, expect, it } from 'vitest';
import { Gen } from '../../../bench/reasoning-phrases';
import { emptySample } from '../formats/common';
import { nmi } from '../../measure/nmi';
import { OTHER_STATE, StateDiscoverer } from './discoverer';
import { promptTerms } from './text';
import type { ImportedSample } from '../types';

const NAMES = ['Natalia', 'Weng', 'Betty', 'Julie', 'James', 'Albert', 'Ken', 'Alexis', 'Tina', 'Randy', 'Joy', 'Mark', 'Carla', 'Marie', 'Lloyd', 'Gissela', 'Sandra', 'Hector', 'Noah', 'Priya'];
const THINGS = ['clips', 'muffins', 'stamps', 'pages', 'marbles', 'cookies', 'bricks', 'shells', 'lemons', 'crayons', 'tickets', 'apples', 'nails', 'roses', 'pencils', 'jars', 'eggs', 'socks', 'bottles', 'cards', 'beads', 'candles', 'plates', 'ribbons'];
const PLACES = ['the market', 'her garden', 'the bakery', 'his workshop', 'the library', 'the farm', 'school', 'the beach', 'the fair', 'the store'];
const FRAMES = [
  '{n} sold {a} {t} to her friends in April, and then she sold half as many {t} in May.',
  '{n} earns ${a} an hour for babysitting. Yesterday, she just did {b} minutes of babysitting.',
  '{n} is saving money for a new wallet which costs ${a}. {n} has only half of the money she needs.',
  'At {p}, {n} picked {a} {t} on Monday and twice as many on Tuesday.',
  '{n} buys {a} boxes of {t}, each box holding {b} {t}, and gives {c} {t} away.',
  'A bag holds {a} {t}. {n} fills {b} bags at {p} and loses {c} {t} on the way home.',
  '{n} reads {a} {t} of a book every day, and on the weekend reads {b} more.',
  'There are {a} {t} at {p}. {n} takes {b} of them, and {c} more arrive later.',
  '{n} spends ${a} on {t} and ${b} on lunch at {p}, then finds ${c} on the street.',
  'Every week {n} makes {a} {t} and sells them for ${b} each at {p}.',
];
const QUESTIONS = ['How many {t} does {n} have now?', 'How much money does {n} have left?', 'How many {t} did {n} sell altogether?', 'What is the total number of {t}?', 'How many more {t} does {n} need?'];
const INSTRUCTION = 'Let\'s think step by step and output the final answer after "####".';

function fill(g: Gen, text: string, v: Record<string, string>): string {
  return text.replace(/\{(\w)\}/g, (_, k: string) => v[k] ?? String(g.int(2, 90)));
}

/** One step of GRPO groups: `prompts` distinct word problems, each sampled `group` times. */
function wordProblems(g: Gen, step: number, prompts: number, group: number, chat: (user: string) => string): ImportedSample[] {
  const out: ImportedSample[] = [];
  for (let p = 0; p < prompts; p++) {
    const v = { n: g.pick(NAMES), t: g.pick(THINGS), p: g.pick(PLACES) };
    const story = g.shuffled(FRAMES).slice(0, 2).map((f) => fill(g, f, v)).join(' ');
    const prompt = chat(`${story} ${fill(g, g.pick(QUESTIONS), v)} ${INSTRUCTION}`);
    for (let k = 0; k < group; k++) out.push({ ...emptySample(`${step}.jsonl`, out.length + 1), step, group: `${step}-${p}`, prompt, response: '#### 12' });
  }
  return out;
}

const chatml = (user: string) => `<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n${user}<|im_end|>\n<|im_start|>assistant\n`;

describe('states are kinds of request', () => {
  it('a run of word problems, each its own story under one instruction, is one state', () => {
    const g = new Gen(7);
    const d = new StateDiscoverer();
    const labels = [1, 2, 3].flatMap((step) => d.labelStep(step, wordProblems(g, step, 48, 8, chatml)));
    const counts = new Map<string, number>();
    for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
    const [top, n] = [...counts].sort((a, b) => b[1] - a[1])[0];
    expect(top, JSON.stringify([...counts])).not.toBe(OTHER_STATE);
    expect(n / labels.length, JSON.stringify([...counts])).toBeGreaterThanOrEqual(0.9);
  });

  it('requests in two scripts share no term (their numbers and length are read within their script)', () => {
    const terms = (r: string) => new Set(promptTerms(r).filter((t) => !t.startsWith('q:')));
    const ru = terms('Сложите 12 и 34.');
    const shared = [...terms('اجمع 12 و 34.')].filter((t) => ru.has(t));
    expect(shared).toEqual([]);
    expect([...terms('Add 12 and 34.')].filter((t) => ru.has(t))).toEqual([]);
  });

  it('two states that open alike are told apart by more of their request, not by a number', () => {
    const asked = (step: number, prompt: string, from: number) => Array.from({ length: 8 }, (_, k) => ({ ...emptySample(`${step}.jsonl`, from + k), step, group: prompt, prompt }));
    const other = 'Write a Python function that reverses the words of a sentence and keeps the punctuation.';
    const d = new StateDiscoverer();
    d.labelStep(1, [...asked(1, 'What is the tallest mountain in Africa, and how high does its summit rise above sea level?', 1), ...asked(1, other, 9)]);
    const labels = d.labelStep(2, [...asked(2, 'What is the chemical symbol of tungsten, the metal of old light bulb filaments?', 1), ...asked(2, other, 9)]);
    expect(new Set(labels).size).toBe(2);
    const titles = d.behaviors().map((s) => s.title).filter((t) => t.startsWith('"What'));
    expect(titles).toHaveLength(2);
    expect(titles[1]).toMatch(/^"What is the chemical\b.*…"$/);
    expect(titles.join(' ')).not.toContain('~');
  });

  it('a run of a hundred kinds, a few samples of each a step, gets a state a kind', () => {
    const g = new Gen(11);
    const syllables = ['ka', 'lo', 'mi', 'ren', 'to', 'su', 'vel', 'da', 'ni', 'por', 'sha', 'qu', 'bri', 'zen', 'fa', 'gor'];
    const word = () => Array.from({ length: g.int(2, 4) }, () => g.pick(syllables)).join('');
    // each kind a standing instruction of its own words, the instance's numbers in it
    const kinds = Array.from({ length: 100 }, () => Array.from({ length: g.int(10, 18) }, word));
    const d = new StateDiscoverer();
    const [truth, labels] = [[] as string[], [] as string[]];
    for (let step = 1; step <= 12; step++) {
      const held: ImportedSample[] = [];
      for (const k of g.shuffled(kinds.map((_, i) => i)).slice(0, 50)) {
        const w = kinds[k];
        const prompt = chatml(`${w.slice(0, 5).join(' ')} ${g.int(2, 900)} ${w.slice(5, 8).join(' ')} ${g.int(2, 900)}. ${w.slice(8).join(' ')}.`);
        for (let r = 0; r < 3; r++) (held.push({ ...emptySample(`${step}.jsonl`, held.length + 1), step, group: `${step}-${k}`, prompt }), truth.push(`k${k}`));
      }
      labels.push(...d.labelStep(step, held));
    }
    expect(labels.filter((l) => l === OTHER_STATE).length / labels.length).toBeLessThan(0.1);
    expect(nmi(truth, labels)).toBeGreaterThan(0.9);
  });
});
