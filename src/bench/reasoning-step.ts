// One step of a reasoning-model GRPO run at scale, as verl dumps it (`{step}.jsonl` of input, output,
// score, step, gts): `prompts` requests (four kinds behind one long ChatML system prompt), each sampled
// `samples / prompts` times, every response a `<think>` trace of minTokens..maxTokens tokens (the
// import's count: words and punctuation marks, src/core/import/measure/tokens.ts) and a framed answer.
// A trace's behavior shows all along it, not only in its opening: backtracks ("Wait, …") every few
// hundred tokens, numbered cases, checks, or a short direct think; a share of noise (cut-off thinks,
// loops). No `lab_behavior` field: nothing is labelled by the log, everything is left to discovery.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { EN_ADJ, EN_FILLER, EN_NOUNS, EN_VERBS, Gen } from './reasoning-phrases';

export interface ReasoningStepOptions {
  samples: number;
  prompts: number;
  minTokens: number;
  maxTokens: number;
  /** No `<think>`: a short answer of minTokens..maxTokens tokens (the follow's step of short answers). */
  shortAnswers?: boolean;
  step?: number;
  seed?: number;
}

export const SCALE_BEHAVIORS = ['backtrack', 'enumerate', 'verify', 'direct', 'noise'] as const;
type Behavior = (typeof SCALE_BEHAVIORS)[number];

const SYSTEM =
  'You are a careful reasoning assistant trained to solve problems in mathematics, programming, logic and general knowledge. ' +
  'Before answering, think through the problem step by step inside <think> </think> tags; the reasoning is not shown to the user. ' +
  'After the reasoning, give a concise final answer. When the question asks for a number, give the exact value.';

const NAMES = ['Natalia', 'James', 'Priya', 'Tom', 'Mei', 'Carlos', 'Aisha', 'Lena'];
const ITEMS = ['apples', 'marbles', 'stickers', 'books', 'cupcakes', 'pencils', 'tickets', 'coins'];
const FUNCS = ['reverse_words', 'count_vowels', 'is_palindrome', 'flatten', 'second_largest', 'merge_sorted'];
const FACTS = ['Eiffel Tower', 'Danube', 'Kilimanjaro', 'Berlin Wall', 'South Pole', 'tungsten'];
const PEOPLE = ['Alice', 'Bob', 'Carol', 'Dave', 'Eve'];

interface Request {
  kind: string;
  text: string;
  topic: string[];
  answer: string;
}

// the styled corpora's English phrasings (reasoning-phrases.ts), and arithmetic
const FILLER = [
  ...EN_FILLER,
  'Multiplying {n} by {m} gives {nm}, which {verb} the {adj} {noun}.',
  'Subtracting {m} from {n} leaves {d}, so the {noun} of the {t} is {d}.',
];
const MOVES: Record<Exclude<Behavior, 'direct' | 'noise'>, string[]> = {
  backtrack: ['Wait, that is not right.', 'Wait, I think I made a mistake with the {t}.', 'Hmm, wait. Let me reconsider the {t}.', 'Actually, wait, the {t} does not work that way.', 'No, wait, I mixed up the {noun}.'],
  enumerate: ['Case {i}: the {t} is {n}.', 'Possibility {i}: the {noun} {verb} the {t}.', 'Option {i}: take the {adj} {noun} as {n}.'],
  verify: ['Let me check: the {noun} {verb} the {t}, and {n} plus {m} is {nm2}. That checks out.', 'Let me verify this. The {adj} {noun} is {n}. Yes, that is consistent.', 'Double-checking the {t}: {n} times {m} is {nm}. Good, it matches.'],
};
const OPEN = ["Okay, let's see.", 'Alright, so the question is about the {t}.', 'Let me think about this.', 'Okay, I need to figure out the {t}.', 'Hmm, so we have the {t} here.'];

function request(g: Gen): Request {
  const kind = g.pick(['math', 'code', 'logic', 'factual']);
  const [a, b, c] = [g.int(12, 90), g.int(3, 40), g.int(2, 11)];
  if (kind === 'math') {
    const [name, item] = [g.pick(NAMES), g.pick(ITEMS)];
    return { kind, text: `${name} has ${a} ${item}. ${name} buys ${b} more and then gives ${c} to each of 3 friends. How many ${item} does ${name} have left?`, topic: [item, 'friends', 'remainder', 'sum'], answer: String(a + b - 3 * c) };
  }
  if (kind === 'code') {
    const fn = g.pick(FUNCS);
    return { kind, text: `Write a Python function \`${fn}\` that passes the examples ${a}, ${b} and ${c}. Include a short docstring.`, topic: [fn, 'function', 'loop', 'list'], answer: `\`${fn}\`` };
  }
  if (kind === 'logic') {
    const [x, y] = [g.pick(PEOPLE), g.pick(PEOPLE)];
    return { kind, text: `On an island, knights always tell the truth and knaves always lie. ${x} says: "${y} is a knave." ${y} says ${a} is prime. Who is a knight?`, topic: ['knights', 'knaves', x.toLowerCase(), 'statement'], answer: x };
  }
  const f = g.pick(FACTS);
  return { kind, text: `Quick question about the ${f}: what year, place or symbol is it known for? Case ${a}.`, topic: f.toLowerCase().split(' '), answer: f };
}

/** Tokens as the import counts them (words and single punctuation marks), counted cheaply. */
function tokenCount(s: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const word = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c > 127;
    if (word) {
      if (!inWord) n++;
      inWord = true;
    } else {
      inWord = false;
      if (c !== 32 && c !== 10 && c !== 9) n++;
    }
  }
  return n;
}

function filled(g: Gen, text: string, topic: readonly string[], i = 1): string {
  const n = g.int(2, 99);
  const m = g.int(2, 40);
  return text.replace(/\{(\w+)\}/g, (_, k: string) => {
    switch (k) {
      case 't': return g.pick(topic);
      case 'noun': return g.pick(EN_NOUNS);
      case 'noun2': return g.pick(EN_NOUNS);
      case 'verb': return g.pick(EN_VERBS);
      case 'adj': return g.pick(EN_ADJ);
      case 'n': return String(n);
      case 'm': return String(m);
      case 'nm': return String(n * m);
      case 'nm2': return String(n + m);
      case 'd': return String(n - m);
      case 'i': return String(i);
      default: throw new Error(`reasoning-step: no value for {${k}} in ${text}`);
    }
  });
}

/** A think of about `tokens` tokens showing `behavior` every 150-500 tokens (direct: no moves). */
function think(g: Gen, r: Request, behavior: Behavior, tokens: number): string {
  const parts = [filled(g, g.pick(OPEN), r.topic)];
  let n = tokenCount(parts[0]);
  let nextMove = g.int(150, 500);
  let caseNo = 1;
  while (n < tokens) {
    let s: string;
    if (behavior !== 'direct' && behavior !== 'noise' && n >= nextMove) {
      s = filled(g, g.pick(MOVES[behavior]), r.topic, caseNo++);
      if (behavior === 'enumerate') s = `\n${s}`;
      nextMove = n + g.int(150, 500);
    } else s = filled(g, g.pick(FILLER), r.topic);
    parts.push(s);
    n += tokenCount(s);
  }
  return parts.join(' ');
}

function answer(g: Gen, behavior: Behavior, a: string): string {
  if (behavior === 'enumerate') return `<answer>${a}</answer>`;
  if (behavior === 'verify') return g.pick([`The answer is ${a}.`, `Therefore, the final answer is ${a}.`]);
  return g.pick([`The final answer is $\\boxed{${a}}$.`, `**Final Answer**\n\\[\n\\boxed{${a}}\n\\]`]);
}

/** A short answer of about `tokens` tokens, framed by its behavior (no think). */
function shortAnswer(g: Gen, r: Request, behavior: Behavior, tokens: number): string {
  return `${think(g, r, behavior, tokens)}\n${answer(g, behavior, r.answer)}`;
}

/** One line of the step (JSON, no newline) and the truth it was written from. */
export interface StepLine {
  json: string;
  behavior: Behavior;
  kind: string;
}

/** The step's lines, one at a time. */
export function* reasoningStepLines(o: ReasoningStepOptions): Generator<StepLine> {
  const g = new Gen(o.seed ?? 45);
  const step = o.step ?? 1;
  const per = Math.ceil(o.samples / o.prompts);
  for (let line = 0; line < o.samples; ) {
    const r = request(g);
    const input = `<|im_start|>system\n${SYSTEM}<|im_end|>\n<|im_start|>user\n${r.text}<|im_end|>\n<|im_start|>assistant\n`;
    for (let k = 0; k < per && line < o.samples; k++, line++) {
      const behavior: Behavior = g.chance(0.05) ? 'noise' : g.pick(SCALE_BEHAVIORS.slice(0, 4));
      const tokens = g.int(o.minTokens, o.maxTokens);
      let output: string;
      if (o.shortAnswers) output = `${shortAnswer(g, r, behavior, tokens)}<|im_end|>`;
      else if (behavior === 'noise') {
        // a think cut mid-sentence at the length limit, or one sentence looped to it
        const loop = g.chance(0.5);
        output = loop ? `<think>\n${Array.from({ length: Math.ceil(tokens / 10) }, () => 'So the value gives the total again.').join(' ')}` : `<think>\n${think(g, r, g.pick(SCALE_BEHAVIORS.slice(0, 3)), tokens)}`.slice(0, -g.int(5, 40));
      } else output = `<think>\n${think(g, r, behavior, tokens)}\n</think>\n\n${answer(g, behavior, r.answer)}<|im_end|>`;
      const score = behavior === 'noise' ? 0 : g.chance(0.6) ? 1 : 0;
      yield { json: JSON.stringify({ input, output, score, step, gts: r.answer }), behavior, kind: r.kind };
    }
  }
}

/** Write the step to `path`; its size in bytes and each line's truth, in order. */
export async function writeReasoningStep(path: string, o: ReasoningStepOptions): Promise<{ bytes: number; truth: Omit<StepLine, 'json'>[] }> {
  const out = createWriteStream(path);
  let bytes = 0;
  const truth: Omit<StepLine, 'json'>[] = [];
  for (const { json, behavior, kind } of reasoningStepLines(o)) {
    bytes += Buffer.byteLength(json) + 1;
    truth.push({ behavior, kind });
    if (!out.write(`${json}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return { bytes, truth };
}
