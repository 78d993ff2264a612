// A state that is a few questions asked again is a topic: the questions of one script become one
// state (question-states.ts); a kind of many prompts, a state asked once, and another script stay.
import { describe, expect, it } from 'vitest';
import { AnswerKinds } from './answer-kinds';
import { QuestionStates, requestRead } from './question-states';

const QUESTIONS = ['Who painted the ceiling of the Sistine Chapel?', 'Which gas makes up most of the air on Mars?', 'What is the longest river in South America?', 'Who composed the opera Carmen?'];
const phrasings = (q: string) => [q, `${q} Answer briefly.`, `Quick question: ${q.charAt(0).toLowerCase()}${q.slice(1)}`];
const NAMES = ['Ana', 'Ben', 'Chloe', 'Dmitri', 'Eun', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Kofi', 'Lucia'];
const ITEMS = ['lamps', 'chairs', 'crates', 'shirts', 'bottles', 'ropes', 'kites', 'drums', 'maps', 'bowls', 'bells', 'coats'];
/** A task's prompt: a new text each time (its names, items and numbers), its frame spread over all of them. */
const task = (k: number) => `${NAMES[k % 12]} stacks ${ITEMS[(k * 5) % 12]} in rows of ${(k % 7) + 2}; ${NAMES[(k * 7 + 3) % 12]} adds ${k + 11} more. How many rows are there now?`;

/** Steps of a run: the task asked by six new prompts a step (state `task`), each question by its phrasings (state `q<i>`, or `zh`). */
function run(qs: QuestionStates, kinds: AnswerKinds, steps: number, extra: (step: number) => [string, string][] = () => []): void {
  const current = ['task', ...QUESTIONS.map((_, i) => `q${i}`), 'zh'];
  let k = 0;
  for (let s = 0; s < steps; s++) {
    const asked: [string, string][] = [];
    for (let j = 0; j < 6; j++) asked.push(['task', task(k++)]);
    QUESTIONS.forEach((q, i) => phrasings(q).forEach((p, j) => (s + j) % 2 === 0 && asked.push([`q${i}`, p])));
    asked.push(...extra(s));
    qs.add(asked.map(([l]) => kinds.kind(l)), asked.map(([, r]) => requestRead(r)));
    qs.join(current, kinds);
  }
}

const ZH = (s: number): [string, string][] => ['为什么天空是蓝色的？', '请解释一下为什么天空是蓝色的？', '我想知道为什么天空是蓝色的，能详细讲讲吗？'].map((r) => ['zh', r] as [string, string]).filter((_, j) => (s + j) % 2 === 0);

describe('states that are a few questions', () => {
  it('questions asked again in a run of many prompts are one state; the task and another script stay apart', () => {
    const [qs, kinds] = [new QuestionStates(), new AnswerKinds()];
    run(qs, kinds, 16, ZH);
    expect(QUESTIONS.map((_, i) => kinds.kind(`q${i}`))).toEqual(['q0', 'q0', 'q0', 'q0']);
    expect(kinds.kind('task')).toBe('task');
    expect(kinds.kind('zh')).toBe('zh');
    expect(qs.questionsOf('task')).toBe(false);
  });

  it('nothing is joined before the run has seen enough requests to call a few of them few', () => {
    const [qs, kinds] = [new QuestionStates(), new AnswerKinds()];
    run(qs, kinds, 2);
    expect(kinds.joined().size).toBe(0);
  });

  it('questions asked once each are not judged (a question is known by being asked again)', () => {
    const [qs, kinds] = [new QuestionStates(), new AnswerKinds()];
    const current = ['task', 'a', 'b'];
    for (let s = 0; s < 16; s++) {
      const asked: [string, string][] = Array.from({ length: 6 }, (_, j) => ['task', task(s * 6 + j)] as [string, string]);
      if (s === 12) asked.push(...phrasings(QUESTIONS[0]).map((p) => ['a', p] as [string, string]), ...phrasings(QUESTIONS[1]).map((p) => ['b', p] as [string, string]));
      qs.add(asked.map(([l]) => l), asked.map(([, r]) => requestRead(r)));
      qs.join(current, kinds);
    }
    expect(kinds.joined().size).toBe(0);
  });

  // what tells the two apart is which is rarer: a question's topic (held by its few phrasings) or a
  // phrasing's frame (held by the topics it is asked about); here more topics than ways to ask
  it('a way of asking about many topics is not a question: it shares its frame and holds its own topic', () => {
    const [qs, kinds] = [new QuestionStates(), new AnswerKinds()];
    const TOPICS = ['electric cars', 'the stock market', 'climate talks', 'space launches', 'chip exports', 'river floods'];
    const WAYS: Record<string, (t: string) => string> = { look: (t) => `Look up current events on ${t}.`, recent: (t) => `What happened recently with ${t}?`, haiku: (t) => `Compose a haiku on ${t}.` };
    const current = ['task', ...Object.keys(WAYS)];
    for (let s = 0; s < 16; s++) {
      // a run of many requests (few is then 10: the frames, held by 6, are few)
      const asked: [string, string][] = Array.from({ length: 12 }, (_, j) => ['task', task(s * 12 + j)] as [string, string]);
      for (const [l, f] of Object.entries(WAYS)) asked.push([l, f(TOPICS[s % TOPICS.length])]);
      qs.add(asked.map(([l]) => kinds.kind(l)), asked.map(([, r]) => requestRead(r)));
      qs.join(current, kinds);
    }
    expect(Object.keys(WAYS).map((l) => qs.questionsOf(l))).toEqual([false, false, false]);
    expect(kinds.joined().size).toBe(0);
  });

  it('is saved and restored whole', () => {
    const [qs, kinds] = [new QuestionStates(), new AnswerKinds()];
    run(qs, kinds, 6);
    const back = new QuestionStates();
    back.restore(JSON.parse(JSON.stringify(qs.save())));
    expect(back.save()).toEqual(qs.save());
    expect(QUESTIONS.map((_, i) => back.questionsOf(`q${i}`))).toEqual(QUESTIONS.map((_, i) => qs.questionsOf(`q${i}`)));
  });
});
