// The clustering's two reconciliations, on term lists small enough to reason about: groups that
// come together merge into the older at a step's end (later samples get its label, earlier labels
// stand), and words the prompt holds are not evidence (a frame about two topics stays one behavior).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeCorpus } from '../../../../tests/support/discover-corpus';
import { ClusterSet, type Item } from './clusters';
import { BEHAVIOR_PARAMS, BehaviorDiscoverer, StateDiscoverer } from './discoverer';
import type { ImportedSample } from '../types';

// `x:` terms weigh as they are: no rarity, and a term every sample has (x:c) does not fade
const params = { ...BEHAVIOR_PARAMS, join: 0.5, shapeIdf: 0, shapeCommon: 0, kinds: { x: 1 } };
const items = (terms: string[], n: number, step: number): Item[] => Array.from({ length: n }, (_, i) => new ClusterSet(params).item(terms, { file: `${step}.jsonl`, index: i }));
let named = 0;
const namer = () => `group-${++named}`;

describe('clusters', () => {
  it('two named groups that come within the threshold merge into the older; nothing already labelled changes', () => {
    const set = new ClusterSet(params);
    const first = set.labelStep(1, [...items(['x:a1', 'x:a2', 'x:c'], 4, 1), ...items(['x:b1', 'x:b2', 'x:c'], 4, 1)], namer);
    const [a, b] = [first[0]!, first[4]!];
    expect(a).not.toBe(b);
    // samples between the two join the older group and pull it towards the other
    const second = set.labelStep(2, items(['x:a1', 'x:b1', 'x:c'], 20, 2), namer);
    expect(new Set(second)).toEqual(new Set([a]));
    expect(set.byId(b).mergedInto).toBe(a);
    expect(set.labelStep(3, items(['x:b1', 'x:b2', 'x:c'], 2, 3), namer)).toEqual([a, a]);
    expect(first.slice(4)).toEqual([b, b, b, b]);
  });

  it('words from the prompt do not split a frame by topic', () => {
    const topics = ['quantum entanglement photon spin', 'medieval castle siege catapult'];
    const sample = (i: number, frame: number): ImportedSample => {
      const t = topics[i % 2];
      const w = t.split(' ');
      const topic = `${t} ${w[2]} ${w[0]} ${w[3]} ${w[1]} ${t}`; // the prompt's words, restated at length
      const response = frame === 0 ? `Could you clarify whether you mean ${topic}?` : `Here is what I found. ${topic}. That is all.`;
      return { file: 'x.jsonl', line: i + 1, step: 1, group: null, prompt: `Tell me about ${t}.`, response, reward: null, toolCalls: [], tokens: null, logprobs: null, lossMask: null, votes: [], behavior: null, state: null, fields: {} };
    };
    const samples = Array.from({ length: 24 }, (_, i) => sample(i, Math.floor(i / 12)));
    const labels = new BehaviorDiscoverer().labelStep(1, samples);
    expect(new Set(labels.slice(0, 12)).size).toBe(1);
    expect(new Set(labels.slice(12)).size).toBe(1);
    expect(labels[0]).not.toBe(labels[12]);
  });

  // Pinned: the labels and saved clusters of a generated run (sums in the same order; candidates'
  // sums sparse, docs made vectors in place): any change to what is summed, or in which order,
  // changes this hash. Recorded again when responses came to be read in parts, names to quote
  // openings and words to weigh by their spread over prompts, when moves came to weigh most, to be
  // read in an answer with no think, and a shape nearly every sample has to fade (a change of what is
  // summed, on purpose), and when a request's length and profile came to be read within its script and
  // its words of under 15 % of the requests to weigh as topic, its opening words no more than any other
  // word, and its terms without a letter within its script (the states' terms and weights, on purpose), and when
  // a run came to hold up to 128 states (the saved clusters carry their settings), and when what a
  // response follows in its session came to weigh (`r` in the saved settings; this run's prompts are
  // not chats: its labels and sums are unchanged), and when states came to save which of them their
  // answers joined into one kind (answer-kinds.ts; this run's labels are unchanged), and when that record
  // no longer kept the answers' scripts, which nothing read (labels unchanged), and when a group's title
  // and representatives came to be made again from the members each step gives it (labels unchanged), and
  // when groups came to count their members' lengths in words, to tell siblings apart (labels and titles unchanged),
  // and when states came to count the words their requests open and close with over the run (labels and titles unchanged),
  // and when an opening word of one prompt's samples came to be topic (12 samples' label moved from
  // this-example-changes·verifies to verifies: "This example changes" is a content sentence of one prompt),
  // and when states came to note the one prompt each such word was met in (a prompt asked at every step is one prompt; labels and titles unchanged),
  // and when titles came to differ from every name listed beside them, merged ones included, and to say a second opening a
  // quarter of the members write (titles only, 7 of 19: write-a-short "Find the latest…" → "Find the latest…" / "Could you
  // write…", how-does "Explain how…" → "Explain how…" / "How does…"; labels and clusters unchanged).
  // and when states came to save what each was asked, to tell a few questions from a kind (question-states.ts; labels unchanged).
  it('labels and saved clusters on a generated run are those recorded', () => {
    const corpus = makeCorpus({ seed: 3, steps: 9, perStep: 40 });
    const [b, st] = [new BehaviorDiscoverer(), new StateDiscoverer()];
    const out: string[] = [];
    for (let s = 1; s <= 9; s++) {
      const held = corpus.filter((t) => t.sample.step === s).map((t) => t.sample);
      out.push(...st.labelStep(s, held), ...b.labelStep(s, held));
    }
    const text = `${out.join('\n')}\n${JSON.stringify(b.save())}\n${JSON.stringify(st.save())}`;
    expect(createHash('sha256').update(text).digest('hex')).toBe('13f7e5e67c2ed6ea036218275b492e4356df62e93390aca825bf88e243a018cc');
  });
});
