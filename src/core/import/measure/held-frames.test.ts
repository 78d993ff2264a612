// Pinned: the frames and sample lines the real import path (measureLogs: read, discover, measure)
// gives on a generated run of each style (tests/support/discover-styles.ts), with a gate and
// without. Recorded before a step's samples came to be held compactly (measure.ts: what measuring
// needs, no text) and their discovery terms made on arrival: where or when they are computed must
// not change what is computed; any change to a label, a count or the order of a sum changes a hash.
// Recorded again at each deliberate change to what discovery computes (the commit says which);
// re-record with a refactor only when it changes nothing else.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeStyledCorpus, type Style } from '../../../../tests/support/discover-styles';
import { scaled } from '../../../../tests/support/speed';
import { DISCOVER_BEHAVIORS, DISCOVER_STATES, measureLogs, type SamplesOut } from '../analyze';
import { frameLine } from '../follow/frame-line';
import { sampleLine, type SampleRecord } from '../samples/record';
import { memorySource } from '../sources';
import { builtinGateText, type GateKnobs } from '../../gates/builtin';

const KNOBS: GateKnobs = { method: 'binary-rl', atLeastOne: true, maskZeroMode: 'keep', wOpd: 1, wRl: 1, normalizeStd: true, dynamicSampling: false };

/** Frames and sample lines of the import of a styled run, hashed. */
async function importHash(style: Style, gate: boolean): Promise<string> {
  const c = await makeStyledCorpus(style, { seed: 5, steps: 5, perStep: 160 });
  const lines: string[] = [];
  const sink: SamplesOut = { root: '', step: (_: number, rows: SampleRecord[]) => lines.push(...rows.map(sampleLine)), restart: () => (lines.length = 0) };
  const spec = { states: DISCOVER_STATES, behaviors: DISCOVER_BEHAVIORS, eps: 0.05, ...(gate ? { gate: builtinGateText(KNOBS) } : {}) };
  const r = await measureLogs([...c.files].map(([name, text]) => memorySource(name, text)), spec, { format: c.format }, undefined, sink);
  expect(r.frames.length).toBe(5);
  expect(r.behaviors.length).toBeGreaterThan(2); // discovered, not one label for all
  return createHash('sha256').update(`${r.frames.map(frameLine).join('\n')}\n${lines.join('\n')}`).digest('hex');
}

// every style: recorded again when phrasings of one kind of request came to be joined by what their
// answers talk about (discover/answer-kinds.ts): states moved (reasoning 65, agent 274, multilingual 119 of
// 800 sample lines), no behavior did; and when names came to leave out topic words (no sample moved
// group; labels renamed: reasoning lena-packs-pencils -> how-many; multilingual states
// назовите-столицу-перу -> назовите-столицу, what-is-the -> what-is, #-# -> #-#-कितना-होता, behaviors
// франция-даёт-париж -> plain, для-54 -> для); reasoning: when a pair of states came to be judged by
// the questions both answered (answer-kinds.ts: 43 of 800 sample lines' states moved, no behavior)
const pinned: [Style, boolean, string][] = [
  ['reasoning', false, '5af9d85bf8762dcce7b82eb59ec91bfcc3e6a9f3e19485faf13cbc1ea2d29b32'],
  ['reasoning', true, 'af601d52c8789b5f793ff17e49f6940feef103673e3c82d305ae6557872cc109'],
  // agent: recorded again when what a response follows in its session (a tool result, the user's next message) came to weigh
  ['agent', true, '36e032a004320f12feb4fa5d2e8bdd3df47f02173d1cd2d3b3fae96a7f55fabd'],
  // multilingual: recorded again when short answers of short words ("It is Lima.", "यह 93 है।", "150。") came to be answers, not garbage (27 direct answers, unclassified before, now the direct behavior; no other label moved)
  ['multilingual', false, 'bd1244fb487d8a238d98d3c7f68a8e45f49d4bb854900f021d142ad55e95b5bf'],
];

describe('frames of the real import, before and after holding samples compactly', () => {
  it.each(pinned)('%s (gate %s): frames and sample lines are those recorded', async (style, gate, hash) => {
    expect(await importHash(style, gate)).toBe(hash);
  }, scaled(60_000));
});
