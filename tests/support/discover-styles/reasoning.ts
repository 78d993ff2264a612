// A reasoning-model GRPO run as verl dumps it (`trainer.rollout_data_dir`: `{step}.jsonl` lines of
// input, output, score, step, gts). `input` is the decoded chat (Qwen ChatML, or on some steps
// decoded without special tokens: `system\n…\nuser\n…\nassistant\n`); one long system prompt with
// a tools block stands in front of four of the five kinds of request (the Chinese kind has Qwen's
// default system prompt). Each prompt is sampled 8-16 times in its step. Every response is a
// `<think>` trace of 80-300 words and an answer, ending with `<|im_end|>` or `<|endoftext|>`.
// Behaviors: how the reasoning moves (backtracks, enumerates cases, verifies, a short direct think,
// gives up) and how the answer is framed (\boxed{}, <answer>, plain), several phrasings each; a
// Chinese template spreads over the kinds; noise: cut-off thinks, loops, empty, garbage.
// `template` writes the same draws under another chat template: DeepSeek-R1 (no system prompt, R1's
// instruction on the question's line, the think opened by the prompt, `<｜end▁of▁sentence｜>`),
// R1-Zero (one plain line "… User: {q} Assistant: <think>") or Phi-3 (`<|user|>`, `<|end|>`).
import { EN_ADJ, EN_FILLER, EN_NOUNS, EN_VERBS } from '../../../src/bench/reasoning-phrases';
import { NOISE, TEMPLATE, corpusOf, type Gen, fill, looped, noiseText, qwenToolsBlock, styleStart, type ChatTemplate, type StyleOptions, type ToolSpec, type StyledCorpus, type Written } from './common';

const TOOLS: ToolSpec[] = [
  { name: 'python', description: 'Run a Python 3 program in a sandbox and return what it prints to standard output. Use it for arithmetic that is error-prone by hand, for checking a function against examples, or for brute-force search over small cases. The sandbox has no network access and a ten-second time limit.', parameters: { code: ['string', 'The complete program to run; print the values you need.'] } },
  { name: 'web_search', description: 'Search the web and return the titles and snippets of the top results. Use it for facts that may have changed, names, dates and places you are not certain of.', parameters: { query: ['string', 'The search query, a few keywords.'], top_k: ['integer', 'How many results to return, between 1 and 10.'] } },
  { name: 'calculator', description: 'Evaluate an arithmetic expression exactly, with rational numbers, and return the result as a string.', parameters: { expression: ['string', 'The expression, e.g. (3/4 + 2) * 5.'] } },
];

export const REASONING_SYSTEM =
  'You are a careful reasoning assistant trained to solve problems in mathematics, programming, logic and general knowledge. ' +
  'Before answering, think through the problem step by step inside <think> </think> tags; the reasoning is not shown to the user. ' +
  'After the reasoning, give a concise final answer. When the question asks for a number, give the exact value. Do not make up facts: use the tools when you are unsure.\n\n' +
  qwenToolsBlock(TOOLS);

const QWEN_DEFAULT_SYSTEM = 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.';

interface Request {
  text: string;
  /** Words of the request that its response talks about. */
  topic: string[];
  answer: string;
}

const NAMES = ['Natalia', 'James', 'Priya', 'Tom', 'Mei', 'Carlos', 'Aisha', 'Lena'];
const ITEMS = ['apples', 'marbles', 'stickers', 'books', 'cupcakes', 'pencils', 'tickets', 'coins'];
const FUNCS: [string, string, string][] = [
  ['reverse_words', 'reverses the order of the words in a sentence', "' '.join(s.split()[::-1])"],
  ['count_vowels', 'counts the vowels in a string', "sum(c in 'aeiou' for c in s.lower())"],
  ['is_palindrome', 'checks whether a string is a palindrome, ignoring case', 's.lower() == s.lower()[::-1]'],
  ['flatten', 'flattens a nested list of integers', '[x for sub in xs for x in sub]'],
  ['second_largest', 'returns the second largest distinct number in a list', 'sorted(set(xs))[-2]'],
  ['merge_sorted', 'merges two sorted lists into one sorted list', 'sorted(a + b)'],
];
const FACTS: [string, string, string][] = [
  ['In what year was the Eiffel Tower completed?', 'eiffel tower', '1889'],
  ['Who wrote the novel "One Hundred Years of Solitude"?', 'novel solitude', 'Gabriel García Márquez'],
  ['What is the chemical symbol of tungsten?', 'tungsten symbol', 'W'],
  ['Which river flows through Budapest?', 'river budapest', 'the Danube'],
  ['Who was the first person to reach the South Pole?', 'south pole', 'Roald Amundsen'],
  ['What is the tallest mountain in Africa?', 'mountain africa', 'Kilimanjaro'],
  ['In which year did the Berlin Wall fall?', 'berlin wall', '1989'],
];
const PEOPLE = ['Alice', 'Bob', 'Carol', 'Dave', 'Eve'];
const ZH_TOPICS: [string, string][] = [
  ['为什么天空是蓝色的', '瑞利散射'],
  ['为什么冬天比夏天冷', '太阳高度角'],
  ['为什么铁会生锈', '氧化反应'],
  ['为什么月亮会有圆缺变化', '月相'],
  ['为什么飞机能飞起来', '升力'],
  ['为什么海水是咸的', '盐分积累'],
];

/** The kinds of request; `math` is written two ways (a word problem, a formal exercise). */
const KINDS: Record<string, (g: Gen) => Request> = {
  math: (g) => {
    const [a, b, c] = [g.int(12, 90), g.int(3, 40), g.int(2, 11)];
    if (g.chance(0.5)) {
      const [name, item] = [g.pick(NAMES), g.pick(ITEMS)];
      const text = g.pick([
        `${name} has ${a} ${item}. ${name} buys ${b} more and then gives ${c} to each of 3 friends. How many ${item} does ${name} have left?`,
        `A shop sold ${a} ${item} on Monday and ${b} more on Tuesday than on Monday. On Wednesday it sold ${c} fewer than on Tuesday. How many ${item} did it sell on Wednesday?`,
        `${name} packs ${item} into boxes of ${c}. ${name} starts with ${a} ${item} and gets ${b} more. How many full boxes can ${name} make?`,
      ]);
      return { text, topic: [item, name.toLowerCase(), 'friends', 'boxes'], answer: String(a + b - 3 * c) };
    }
    const text = g.pick([
      `Solve the following problem. Let $f(x) = ${c}x^2 - ${b}x + ${a}$. Compute $f(${c})$. Put your final answer within \\boxed{}.`,
      `Problem: Find the sum of all integers $n$ with $1 \\le n \\le ${a}$ such that $n$ is divisible by ${c}. Give the exact value.`,
      `Compute the remainder when $${a}^{${c}}$ is divided by ${b}.`,
    ]);
    return { text, topic: ['integers', 'remainder', 'divisible', 'sum', 'compute'], answer: String((a * c + b) % 997) };
  },
  code: (g) => {
    const [fn, does, body] = g.pick(FUNCS);
    const text = g.pick([`Write a Python function \`${fn}\` that ${does}. Include a short docstring.`, `Implement \`${fn}(…)\` in Python: it ${does}. Explain any edge cases.`, `I need a Python function named ${fn} which ${does}. Please keep it short.`]);
    return { text, topic: [fn, ...does.split(' ').filter((w) => w.length > 4)], answer: `\`${body}\`` };
  },
  logic: (g) => {
    const [x, y, z] = g.shuffled(PEOPLE);
    const text = g.pick([
      `On an island, knights always tell the truth and knaves always lie. ${x} says: "${y} is a knave." ${y} says: "${x} and I are both knights." Who is a knight?`,
      `Five friends sit in a row. ${x} sits to the left of ${y}, ${z} sits at one end, and ${y} is not in the middle. Who can sit in the middle seat?`,
      `Three boxes are labelled apples, oranges and mixed, and every label is wrong. ${x} draws one fruit from the box labelled mixed and it is an apple. What does the box labelled oranges contain, according to ${y}?`,
    ]);
    return { text, topic: [x.toLowerCase(), y.toLowerCase(), 'knights', 'knaves', 'seat', 'label'], answer: g.pick([x, y, z]) };
  },
  factual: (g) => {
    const [q, t, a] = g.pick(FACTS);
    return { text: g.pick([q, `${q} Answer briefly.`, `Quick question: ${q.charAt(0).toLowerCase()}${q.slice(1)}`]), topic: t.split(' '), answer: a };
  },
  zh: (g) => {
    const [q, a] = g.pick(ZH_TOPICS);
    return { text: g.pick([`请解释一下${q}？`, `${q}？请用简单的语言说明原因。`, `我想知道${q}，能详细讲讲吗？`]), topic: [q.replace('为什么', ''), a], answer: a };
  },
};
export const REASONING_KINDS = Object.keys(KINDS);

const ZH_NOUNS = ['原因', '过程', '结果', '因素', '现象', '关系', '方法', '变化', '条件', '作用', '角度', '能量'];
const ZH_FILLER = ['{t}的{noun}会影响{noun2}。', '首先要考虑{t}的{noun}。', '所以{t}和{noun}有直接的关系。', '这说明{noun}是关键。', '接下来看{t}的{noun2}。', '从{noun}来看，{t}会发生{noun2}。', '也就是说{noun}决定了{t}。'];

interface Lang {
  filler: string[];
  nouns: string[];
  /** Words a sentence of this language counts for (Chinese has no spaces). */
  words: (s: string) => number;
  open: string[];
  backtrack: string[];
  cases: string[];
  caseIntro: string[];
  verify: string[];
  verified: string[];
  giveUp: string[];
  gaveUp: string[];
  plain: string[];
}

const EN: Lang = {
  filler: EN_FILLER,
  nouns: EN_NOUNS,
  words: (s) => s.split(/\s+/).length,
  open: ["Okay, let's see.", 'Alright, so the question is about the {t}.', 'Let me think about this.', 'Okay, I need to figure out the {t}.', 'Hmm, so we have the {t} here.'],
  backtrack: ['Wait, that is not right.', 'Wait, I think I made a mistake with the {t}.', 'Hmm, wait. Let me reconsider the {t}.', 'Actually, wait, the {t} does not work that way.', 'No, wait, I mixed up the {noun}.'],
  cases: ['Case {i}: ', 'Possibility {i}: ', 'Option {i}: ', 'Scenario {i}: '],
  caseIntro: ['Let me consider the cases.', 'There are a few cases to check.', "I'll go through each possibility.", 'We can split this into cases.'],
  verify: ['Let me check: ', 'Let me verify this. ', 'Double-checking: ', 'To confirm, ', 'Let me double check the {t}. '],
  verified: ['That checks out.', 'Yes, that is consistent.', 'Good, it matches.', 'So the check passes.'],
  giveUp: ['I am not sure how to continue from here.', 'This is getting complicated and I cannot pin down the {t}.', "I don't think I can solve this exactly.", 'I keep going in circles on the {t}.'],
  gaveUp: ["I'm not able to determine the answer with confidence.", "Sorry, I couldn't solve this one.", 'I cannot determine the answer from the information I worked out.'],
  plain: ['The answer is {a}.', 'So the answer is {a}.', 'Answer: {a}', 'Therefore, the final answer is {a}.'],
};

const ZH: Lang = {
  filler: ZH_FILLER,
  nouns: ZH_NOUNS,
  words: (s) => s.length / 2,
  open: ['好的，我来想一想。', '嗯，这个问题问的是{t}。', '让我先理清{t}。', '好，首先看看{t}。'],
  backtrack: ['等等，这里好像不对。', '等一下，我刚才把{t}弄错了。', '不对，我再想想{t}。', '嗯，等等，应该重新考虑{noun}。'],
  cases: ['情况{i}：', '第{i}种可能：', '可能性{i}：'],
  caseIntro: ['我们分情况讨论。', '可以分成几种情况来看。', '逐一考虑每种可能。'],
  verify: ['让我检查一下：', '验证一下：', '再核对一遍{t}：'],
  verified: ['没问题。', '结果一致。', '检查无误。'],
  giveUp: ['我不太确定接下来该怎么做。', '这个问题有点复杂，我无法确定{t}。', '我想不出更好的办法了。'],
  gaveUp: ['抱歉，我无法确定答案。', '这个问题我没能解决。', '我无法给出确定的答案。'],
  plain: ['答案是{a}。', '所以答案是{a}。', '因此，最终答案是{a}。'],
};

const TEMPLATE_OPEN = ['这是个很好的问题。让我逐步分析：', '这是一个很好的问题！让我们逐步分析：', '这是个好问题。让我一步一步分析：'];
const TEMPLATE_CLOSE = ['综上所述，答案是{a}。', '综上，答案是{a}。', '总结一下，答案是{a}。'];

export const REASONING_BEHAVIORS = ['backtrack', 'enumerate', 'verify', 'direct', 'giveup'] as const;
/** How likely each behavior is in each kind (a behavior may appear in every kind). */
const WEIGHTS: Record<string, Record<(typeof REASONING_BEHAVIORS)[number], number>> = {
  math: { backtrack: 3, enumerate: 1, verify: 3, direct: 2, giveup: 1 },
  code: { backtrack: 2, enumerate: 2, verify: 3, direct: 2, giveup: 0.5 },
  logic: { backtrack: 2, enumerate: 4, verify: 1, direct: 1, giveup: 1 },
  factual: { backtrack: 1, enumerate: 1, verify: 2, direct: 4, giveup: 1 },
  zh: { backtrack: 2, enumerate: 2, verify: 2, direct: 3, giveup: 1 },
};

class Writer {
  constructor(
    private readonly g: Gen,
    private readonly lang: Lang,
    readonly topic: readonly string[],
  ) {}

  fill(text: string, extra: Record<string, string | number> = {}): string {
    const g = this.g;
    const noun = g.pick(this.lang.nouns);
    return fill(text, { t: g.pick(this.topic), noun, noun2: g.pick(this.lang.nouns.filter((n) => n !== noun)), verb: g.pick(EN_VERBS), adj: g.pick(EN_ADJ), n: g.int(2, 99), ...extra });
  }

  sentence(): string {
    return this.fill(this.g.pick(this.lang.filler));
  }

  /** Filler sentences to about `words` words. */
  body(words: number): string[] {
    const out: string[] = [];
    for (let n = 0; n < words; ) {
      const s = this.sentence();
      out.push(s);
      n += this.lang.words(s);
    }
    return out;
  }
}

const join = (lang: Lang, xs: readonly string[]) => xs.join(lang === ZH ? '' : ' ');

/** The think of a behavior: an opening, filler to its length, and the behavior's moves in it. */
function think(g: Gen, w: Writer, lang: Lang, behavior: string): string {
  const open = w.fill(g.pick(lang.open));
  if (behavior === 'direct') return join(lang, [open, ...w.body(g.int(80, 110))]);
  const body = w.body(g.int(80, 240));
  const at = (k: number) => Math.min(body.length, Math.max(1, Math.floor(((k + 1) * body.length) / 4)));
  if (behavior === 'backtrack') {
    for (let k = g.int(1, 3); k > 0; k--) body.splice(g.int(1, body.length), 0, w.fill(g.pick(lang.backtrack)));
  } else if (behavior === 'enumerate') {
    const label = g.pick(lang.cases);
    const n = g.int(2, 4);
    const start = at(0);
    body.splice(start, 0, w.fill(g.pick(lang.caseIntro)));
    for (let i = n; i >= 1; i--) body.splice(Math.min(body.length, start + i), 0, `\n${fill(label, { i })}${w.sentence()}`);
  } else if (behavior === 'verify') {
    body.push(`${w.fill(g.pick(lang.verify))}${w.sentence()} ${g.pick(lang.verified)}`);
  } else if (behavior === 'giveup') {
    body.splice(at(2), 0, w.fill(g.pick(lang.giveUp)));
    body.push(w.fill(g.pick(lang.giveUp)));
  }
  return join(lang, [open, ...body]);
}

/** The answer framed as the behavior frames it. */
function answer(g: Gen, lang: Lang, behavior: string, a: string): string {
  if (behavior === 'giveup') return g.pick(lang.gaveUp);
  if (behavior === 'enumerate') return g.pick([`<answer>${a}</answer>`, `<answer>\n${a}\n</answer>`]);
  if (behavior === 'verify') return fill(g.pick(lang.plain), { a });
  return g.pick([`The final answer is $\\boxed{${a}}$.`, `**Final Answer**\n\\[\n\\boxed{${a}}\n\\]`, `\\boxed{${a}}`]);
}

function templateResponse(g: Gen, w: Writer, a: string): string {
  const zh = new Writer(g, ZH, w.topic);
  const steps = Array.from({ length: g.int(3, 5) }, (_, i) => `${i + 1}. ${zh.sentence()}${zh.sentence()}`);
  const th = `好的，用户问的是${g.pick(w.topic)}。我需要逐步分析这个问题。${join(ZH, zh.body(g.int(40, 90)))}`;
  return `<think>\n${th}\n</think>\n\n${g.pick(TEMPLATE_OPEN)}\n${steps.join('\n')}\n${fill(g.pick(TEMPLATE_CLOSE), { a })}`;
}

const chatml = (system: string, user: string) => `<|im_start|>system\n${system}<|im_end|>\n<|im_start|>user\n${user}<|im_end|>\n<|im_start|>assistant\n`;
const stripped = (system: string, user: string) => `system\n${system}\nuser\n${user}\nassistant\n`;

/** DeepSeek-R1's recommended instruction, written on the question's line (no system prompt). */
const R1_INSTRUCTION = 'Please reason step by step, and put your final answer within \\boxed{}.';
/** The DeepSeek-R1-Zero prompt (TinyZero, SimpleRL-Zoo, Open-Reasoner-Zero, Logic-RL): one plain line. */
const R1_ZERO =
  'A conversation between User and Assistant. The user asks a question, and the Assistant solves it. The assistant first thinks about the reasoning process in the mind and then provides the user with the answer. ' +
  'The reasoning process and answer are enclosed within <think> </think> and <answer> </answer> tags, respectively, i.e., <think> reasoning process here </think> <answer> answer here </answer>.';

interface Rendering {
  /** The prompt; `plain`: a decode without special tokens (ChatML only). */
  prompt: (system: string, user: string, plain: boolean) => string;
  /** The end token each response ends with, from the two a Qwen run writes. */
  end: (qwenEnd: string) => string;
  /** Whether the prompt opens the think (the response starts inside it). */
  opensThink: boolean;
}

/** The same requests and responses as each template writes them. */
const RENDER: Record<ChatTemplate, Rendering> = {
  qwen: { prompt: (s, u, plain) => (plain ? stripped : chatml)(s, u), end: (e) => e, opensThink: false },
  deepseek: { prompt: (_s, u) => `<｜begin▁of▁sentence｜><｜User｜>${u} ${R1_INSTRUCTION}<｜Assistant｜><think>\n`, end: () => '<｜end▁of▁sentence｜>', opensThink: true },
  r1zero: { prompt: (_s, u) => `${R1_ZERO} User: ${u.replace(/\n/g, ' ')} Assistant: <think>`, end: () => '<|endoftext|>', opensThink: true },
  phi3: { prompt: (s, u) => `<|system|>\n${s}<|end|>\n<|user|>\n${u}<|end|>\n<|assistant|>\n`, end: (e) => (e === '<|im_end|>' ? '<|end|>' : '<|endoftext|>'), opensThink: false },
};

export async function reasoningCorpus(o: StyleOptions): Promise<StyledCorpus> {
  const { g, templateOn, share } = styleStart(o, REASONING_KINDS);
  const r = RENDER[o.template ?? 'qwen'];
  // a template that opens the think in the prompt: the response starts inside it
  const inThink = (text: string) => (r.opensThink ? text.replace(/^<think>\n?/, '') : text);
  const written: Written[] = [];
  for (let step = 1; step <= o.steps; step++) {
    const plain = g.chance(0.3);
    let line = 0;
    const used = new Set<string>();
    while (line < o.perStep) {
      const kind = g.pick(REASONING_KINDS);
      // a prompt is sampled once a step (its group): draw again when it came up already
      let req = KINDS[kind](g);
      for (let tries = 0; used.has(req.text) && tries < 50; tries++) req = KINDS[kind](g);
      used.add(req.text);
      const lang = kind === 'zh' ? ZH : EN;
      const input = r.prompt(kind === 'zh' ? QWEN_DEFAULT_SYSTEM : REASONING_SYSTEM, req.text, plain);
      for (let k = Math.min(g.int(8, 16), o.perStep - line); k > 0; k--, line++) {
        const w = new Writer(g, lang, req.topic);
        const behavior = g.chance(share(kind, step)) ? TEMPLATE : g.weighted(WEIGHTS[kind]);
        const end = r.end(g.pick(['<|im_end|>', '<|endoftext|>']));
        let output = inThink(behavior === TEMPLATE ? templateResponse(g, w, req.answer) : `<think>\n${think(g, w, lang, behavior)}\n</think>\n\n${answer(g, lang, behavior, req.answer)}`);
        const isNoise = g.chance(o.noise ?? 0.06);
        // noise: a think cut at the length limit mid-sentence, a loop inside the think, empty, garbage
        if (isNoise) output = noiseText(g, output, inThink(`<think>\n${w.fill(g.pick(lang.open))} ${looped(g, w.sentence())}`), Math.floor(output.length * 0.7));
        else output += end;
        const score = behavior === 'giveup' || isNoise ? 0 : g.chance(0.6) ? 1 : 0;
        const wr: Written = { file: `${step}.jsonl`, step, record: { input, output, score, step, gts: req.answer }, truth: { state: kind, behavior: isNoise ? NOISE : behavior, lang: lang === ZH || behavior === TEMPLATE ? 'zh' : 'en' } };
        written.push(wr);
      }
    }
  }
  return corpusOf(written, 'verl', templateOn);
}
