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

const pinned: [Style, boolean, string][] = [
  ['reasoning', false, 'dda4eedd837b12510f2be1cad6cfe4f13cd072b489ec176ef712992ab0f8c815'],
  ['reasoning', true, '1d8d8f010a5565583f767fbaf6bbb677bfd676840c0628a3f1d3a9124768608e'],
  // agent: recorded again when what a response follows in its session (a tool result, the user's next message) came to weigh
  ['agent', true, '827d9b47dd8b88ae5f137041a2c136c9b28e4a64da18217e62720bc2d9a06613'],
  // multilingual: recorded again when short answers of short words ("It is Lima.", "यह 93 है।", "150。") came to be answers, not garbage (27 direct answers, unclassified before, now the direct behavior; no other label moved)
  ['multilingual', false, 'b5f70179f2914a67f6e7710bbe25e92e85d5dc6f2c82627a555b7daf39a2a610'],
];

describe('frames of the real import, before and after holding samples compactly', () => {
  it.each(pinned)('%s (gate %s): frames and sample lines are those recorded', async (style, gate, hash) => {
    expect(await importHash(style, gate)).toBe(hash);
  }, scaled(60_000));
});
