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
  ['reasoning', false, '030d4750dfef02b6c490b8e16227122535517232b1dda8805c84453bcfee16a2'],
  ['reasoning', true, '2303c29582bf5933bf4817b3f2eb7e9b42ca5ec0a1ac96ffaef89001ca3424b3'],
  // agent: recorded again when what a response follows in its session (a tool result, the user's next message) came to weigh
  ['agent', true, '958f3cbb4c83ccdb03805851d898ca12faddd293f1e3762c9630efd6798d0b41'],
  ['multilingual', false, '3e56af7a8f9f13ce4e06d8882309e54fd6ba637c2b4d15b26d7eca597ee0f8e5'],
];

describe('frames of the real import, before and after holding samples compactly', () => {
  it.each(pinned)('%s (gate %s): frames and sample lines are those recorded', async (style, gate, hash) => {
    expect(await importHash(style, gate)).toBe(hash);
  }, scaled(60_000));
});
