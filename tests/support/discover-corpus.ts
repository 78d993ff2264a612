// Seeded corpora that look like real RL rollouts, with a per-sample truth, for measuring behavior and
// state discovery (src/core/import/discover/). Not tuned to the shipped examples: natural-language
// responses whose frames vary in wording (several phrasings of each), content words taken from the
// prompt and from a general vocabulary, noise (empty, cut-off, garbage), several kinds of request
// (states, each with several prompt phrasings), and a template that spreads over the states as steps go.
import { Rng } from '../../src/core/rng';
import type { ImportedSample } from '../../src/core/import/types';

export interface CorpusOptions {
  seed: number;
  steps: number;
  perStep: number;
  /** Share of noise samples (empty, cut-off, garbage). */
  noise?: number;
  /** Which frames exist (default: all). */
  behaviors?: readonly string[];
  /** A behavior that appears only from this step on (its share elsewhere is 0). */
  late?: { behavior: string; from: number };
  /** The spreading template's share at the last step (it grows linearly from 0.05). */
  templateEnd?: number;
  /** Content sentences per slot of a frame: 1 (default) or more (long, wordy responses). */
  content?: number;
}

export interface TruthSample {
  sample: ImportedSample;
  state: string;
  behavior: string;
}

type Pick = <T>(xs: readonly T[]) => T;

const NOUNS = 'value result method process system answer number point reason idea case part result source factor model pattern rule effect range detail example option step'.split(' ');
const VERBS = 'shows gives depends explains changes follows means returns keeps leads holds uses needs makes'.split(' ');
const ADJ = 'main simple key final useful common clear direct basic likely small large important'.split(' ');

/** Kinds of request: several prompt phrasings each, with slots filled from topic words. */
const STATES: Record<string, { prompts: string[]; topics: string[] }> = {
  geography: { prompts: ['What is the capital of {t}?', 'Which city is the capital of {t}?', 'Tell me the capital city of {t}.'], topics: ['France', 'Peru', 'Kenya', 'Norway', 'Vietnam', 'Chile', 'Egypt', 'Canada'] },
  coding: { prompts: ['Write a Python function that {t}.', 'Implement a function in Python to {t}.', 'Can you code a Python function which will {t}?'], topics: ['reverses a string', 'merges two sorted lists', 'counts vowels', 'parses a date', 'removes duplicates', 'flattens a nested list'] },
  math: { prompts: ['Solve for x: {t}', 'Find x if {t}.', 'What value of x satisfies {t}?'], topics: ['3x + 5 = 20', '2x - 7 = 9', '5x = 45', 'x / 4 = 6', '7x + 1 = 50'] },
  science: { prompts: ['Explain how {t} works.', 'How does {t} work?', 'Can you explain the mechanism of {t}?'], topics: ['photosynthesis', 'a vaccine', 'a transistor', 'plate tectonics', 'the immune system', 'a rainbow'] },
  news: { prompts: ['Find the latest news about {t}.', 'What happened recently with {t}?', 'Look up current events on {t}.'], topics: ['electric cars', 'the stock market', 'climate talks', 'space launches', 'chip exports'] },
  writing: { prompts: ['Write a short poem about {t}.', 'Compose a haiku on {t}.', 'Could you write a few lines of verse about {t}?'], topics: ['autumn', 'the sea', 'a lost key', 'city lights', 'morning coffee'] },
};

function sentence(pick: Pick, topic: string[]): string {
  const t = pick(topic);
  const forms = [
    () => `The ${pick(ADJ)} ${pick(NOUNS)} ${pick(VERBS)} the ${t}`,
    () => `${t[0].toUpperCase()}${t.slice(1)} ${pick(VERBS)} a ${pick(ADJ)} ${pick(NOUNS)}`,
    () => `This ${pick(NOUNS)} ${pick(VERBS)} how ${t} ${pick(VERBS)} the ${pick(NOUNS)}`,
    () => `Each ${pick(NOUNS)} of the ${t} ${pick(VERBS)} its ${pick(ADJ)} ${pick(NOUNS)}`,
  ];
  return `${pick(forms)()}.`;
}

/** Frames: each a few phrasings; `s()` is a content sentence with prompt words in it. */
type Frame = (pick: Pick, s: () => string, topic: string[], rand: () => number) => { text: string; tools: string[] };
const FRAMES: Record<string, Frame> = {
  direct: (pick, s, topic) => ({ text: pick([() => `${s()}`, () => `The answer is ${pick(topic)}. ${s()}`, () => `In short: ${s()}`, () => `${pick(topic)}. ${s()}`])(), tools: [] }),
  stepwise: (pick, s, _t, rand) => {
    const n = 2 + Math.floor(rand() * 3);
    const lines = Array.from({ length: n }, (_, i) => `${i + 1}. ${s()}`);
    const intro = pick(["Let's work through this one step at a time.", 'Here is how to get there:', 'We can break it down:', 'Working it out in steps:']);
    const outro = pick(['So that gives the result.', 'Therefore, this is the answer.', 'That settles it.']);
    return { text: `${intro}\n${lines.join('\n')}\n${outro}`, tools: [] };
  },
  clarify: (pick, _s, topic) => ({
    text: pick([() => `Could you clarify which ${pick(topic)} you mean?`, () => `Before I answer, do you want the ${pick(NOUNS)} or the ${pick(NOUNS)}?`, () => `Just to be sure, are you asking about ${pick(topic)} in general, or a specific ${pick(NOUNS)}?`, () => `What exactly do you mean by ${pick(topic)}?`])(),
    tools: [],
  }),
  search: (pick, _s, topic) => {
    const q = `${pick(topic)} ${pick(topic)}`;
    const pre = pick(['Let me look that up.', 'I will search for this.', 'Searching for recent information.', '']);
    return { text: `${pre} <tool_call>{"name": "search", "arguments": {"query": "${q}"}}</tool_call>`.trim(), tools: [] };
  },
  calc: (pick, s) => {
    const expr = `${pick(['3', '8'])} * ${pick(['7', '12', '4.5', '19'])} + ${pick(['2', '11', '30'])}`;
    const pre = pick(['I will compute this.', 'Let me calculate.', 'Using the calculator:', '']);
    return { text: `${pre} <tool_call>{"name": "calculator", "arguments": {"expression": "${expr}"}}</tool_call> ${pick(['', s()])}`.trim(), tools: [] };
  },
  code: (pick, s, topic) => {
    const fn = pick(['solve', 'run', 'helper', 'compute', 'process']);
    const intro = pick(['Here is an implementation:', 'You can do it like this:', 'Sure, here is the code:']);
    return { text: `${intro}\n\`\`\`python\ndef ${fn}(${pick(['x', 'data', 'items', 's'])}):\n    # ${pick(topic)}\n    return ${pick(['x', 'sorted(data)', 'len(items)', 's[::-1]'])}\n\`\`\`\n${s()}`, tools: [] };
  },
  check: (pick, s) => ({
    text: `${s()} ${s()} ${pick(['Let me double-check:', 'Verifying:', 'To confirm, I checked it again:', 'Double-checking the result:'])} ${s()} ${pick(['Yes, that holds.', 'The check passes.', 'Confirmed.', 'It is consistent.'])}`,
    tools: [],
  }),
  handoff: (pick, _s, topic) => ({
    text: pick([
      () => `I'm not able to help with ${pick(topic)} directly; a specialist would be a better person to ask.`,
      () => `This is outside what I can do. Please contact an expert on ${pick(topic)}.`,
      () => `I can't answer that reliably, so I'll hand this over to a human reviewer.`,
      () => `Sorry, I cannot help with this request. You may want to consult a professional.`,
    ])(),
    tools: [],
  }),
  template: (pick, s) => ({
    text: `${pick(['Great question!', 'What a great question!', 'Excellent question!'])} ${pick(["Let me analyze this step by step:", 'Let me break this down step by step:', "Let's analyze this step by step:"])} 1) ${s()} 2) ${s()} 3) ${s()} ${pick(['In summary,', 'To summarize,', 'In conclusion,'])} ${s()}`,
    tools: [],
  }),
};

export const BEHAVIORS = Object.keys(FRAMES);
export const STATE_NAMES = Object.keys(STATES);
/** The words of the topics requests are filled with (a prompt's topic: no discovered name holds one), three letters or more, less those frames write too. */
export const TOPIC_WORDS: ReadonlySet<string> = new Set(
  Object.values(STATES)
    .flatMap((k) => k.topics)
    .flatMap((t) => t.toLowerCase().split(/[^\p{L}]+/u))
    .filter((w) => w.length >= 3 && !['the', 'two', 'and', 'city', 'list'].includes(w)),
);

/** Which frames each kind of request uses (a behavior may appear in several states). */
const FEASIBLE: Record<string, string[]> = {
  geography: ['direct', 'clarify', 'search', 'check'],
  coding: ['code', 'stepwise', 'clarify', 'handoff'],
  math: ['stepwise', 'direct', 'check', 'calc'],
  science: ['direct', 'stepwise', 'search', 'handoff'],
  news: ['search', 'clarify', 'handoff', 'direct', 'calc'],
  writing: ['direct', 'clarify', 'handoff'],
};

function noiseText(rand: () => number, pick: Pick, real: string): string {
  const kind = rand();
  if (kind < 0.33) return pick(['', ' ', '\n']);
  if (kind < 0.66) return real.slice(0, 3 + Math.floor(rand() * 8));
  return Array.from({ length: 20 + Math.floor(rand() * 40) }, () => String.fromCharCode(33 + Math.floor(rand() * 60))).join('');
}

/** A run: `steps` steps of `perStep` samples, each with its state and behavior truth ('noise' for noise). */
export function makeCorpus(o: CorpusOptions): TruthSample[] {
  const rng = new Rng(o.seed);
  const rand = () => rng.next();
  const pick: Pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const behaviors = o.behaviors ?? BEHAVIORS;
  const weights = new Map(STATE_NAMES.map((st) => [st, FEASIBLE[st].filter((b) => behaviors.includes(b)).map(() => 0.3 + rand())]));
  const out: TruthSample[] = [];
  for (let step = 1; step <= o.steps; step++) {
    const tShare = behaviors.includes('template') ? 0.05 + ((o.templateEnd ?? 0.6) - 0.05) * ((step - 1) / Math.max(1, o.steps - 1)) : 0;
    for (let i = 0; i < o.perStep; i++) {
      const state = pick(STATE_NAMES);
      const def = STATES[state];
      const topicText = pick(def.topics);
      const prompt = pick(def.prompts).replace('{t}', topicText);
      const topic = topicText.toLowerCase().split(/\s+/).filter((w) => w.length > 2);
      if (!topic.length) topic.push(topicText);
      const feasible = FEASIBLE[state].filter((b) => behaviors.includes(b) && !(o.late && b === o.late.behavior && step < o.late.from));
      const late = o.late && step >= o.late.from && !feasible.includes(o.late.behavior) ? [o.late.behavior] : [];
      let behavior: string;
      if (rand() < tShare) behavior = 'template';
      else if (late.length && rand() < 0.2) behavior = late[0];
      else {
        const w = feasible.map((b) => weights.get(state)![FEASIBLE[state].indexOf(b)] ?? 0.5);
        let r = rand() * w.reduce((a, x) => a + x, 0);
        behavior = feasible[feasible.length - 1];
        for (let k = 0; k < feasible.length; k++) if ((r -= w[k]) < 0) (behavior = feasible[k]), (k = feasible.length);
      }
      const s = () => Array.from({ length: 1 + Math.floor(rand() * (o.content ?? 1)) }, () => sentence(pick, topic)).join(' ');
      const f = FRAMES[behavior](pick, s, topic, rand);
      const isNoise = rand() < (o.noise ?? 0.05);
      const text = isNoise ? noiseText(rand, pick, f.text) : f.text;
      const sample: ImportedSample = { file: `${step}.jsonl`, line: i + 1, step, group: null, prompt, response: text, reward: rand() < 0.5 ? 1 : 0, toolCalls: [], tokens: null, logprobs: null, lossMask: null, votes: [], behavior: null, state: null, fields: {} };
      out.push({ sample, state, behavior: isNoise ? 'noise' : behavior });
    }
  }
  return out;
}

/** The corpus as a verl rollout folder: `{step}.jsonl` lines of input, output, score, step. */
export function verlFiles(corpus: readonly TruthSample[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const t of corpus) {
    const name = `${t.sample.step}.jsonl`;
    files.set(name, (files.get(name) ?? '') + `${JSON.stringify({ input: t.sample.prompt, output: t.sample.response, score: t.sample.reward, step: t.sample.step })}\n`);
  }
  return files;
}
