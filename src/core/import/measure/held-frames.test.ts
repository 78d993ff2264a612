// Pinned: the frames and sample lines the real import path (measureLogs: read, discover, measure)
// gives on a generated run of each style (tests/support/discover-styles.ts), with a gate and
// without. Recorded before a step's samples came to be held compactly (measure.ts: what measuring
// needs, no text) and their discovery terms made on arrival: where or when they are computed must
// not change what is computed; any change to a label, a count or the order of a sum changes a hash.
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
  ['reasoning', false, '5ce8e0a271575cbaa8049e38e7a48eb6cc2429f78684709ee18bf922161da35a'],
  ['reasoning', true, '4bfb824663905911ee2d238e29a265ce4069d0e85c3d30a4654b9c4bfd4e961c'],
  ['agent', true, 'c3802af334b78a8e8a20e9b74b2694face9ae82a8065ea5d71d35461612ea904'],
  ['multilingual', false, '1c94739e518eff1ae31d65a32364ab142447325c189820a63a196dbdbf2aaade'],
];

describe('frames of the real import, before and after holding samples compactly', () => {
  it.each(pinned)('%s (gate %s): frames and sample lines are those recorded', async (style, gate, hash) => {
    expect(await importHash(style, gate)).toBe(hash);
  }, scaled(60_000));
});
