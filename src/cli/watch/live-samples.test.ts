// `npm run watch --port`'s samples: a followed verl run handed to --samples-out's sink and the page's
// sample endpoint at once; the endpoint answers every line the samples file gets, read from the folder.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunFollower } from '../../core/import/follow/follower';
import { DISCOVER_BEHAVIORS, DISCOVER_STATES, UNCLASSIFIED, type DiscoverySnapshot, type SampleRecord, type SampleRowsSink } from '../../core/import/index';
import { openParquet } from '../../io/hyparquet';
import { nodeRegexEngine } from '../../io/regex/node';
import { EXAMPLES, exampleRules } from '../../../tests/support/example-import';
import { bothSinks, liveSamples } from './live-samples';
import { nodeFolder } from './node-fs';

const GATE = 'reward > 0 => mask1 rl # rewarded\ntrue => mask0';

describe("the followed run's samples for the page", () => {
  it('every line the samples file gets is on the endpoint, its text read from the folder, its gate rule named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'invlab-live-samples-'));
    cpSync(join(EXAMPLES, 'verl'), dir, { recursive: true });
    try {
      const lines: SampleRecord[] = [];
      const file: SampleRowsSink = { root: '', step: (_, rows) => void lines.push(...rows) };
      const served = liveSamples(dir, 'verl', GATE, () => null);
      let clock = 0;
      const f = new RunFollower(
        nodeFolder(dir),
        { format: 'verl', spec: { ...exampleRules('verl'), eps: 0.05, gate: GATE }, regex: nodeRegexEngine(), parquet: openParquet, samples: bothSinks(file, served.sink), now: () => clock, settleMs: 25 },
        { frame: () => undefined, fileRead: () => undefined, notice: () => undefined },
      );
      await f.poll();
      clock += 1000;
      await f.finish();
      const steps = [...new Set(lines.map((l) => l.step))];
      expect(steps.length).toBeGreaterThan(1);
      expect(served.endpoint.facets()?.steps).toEqual(steps);
      for (const step of [steps[0], steps.at(-1)!]) {
        const want = lines.filter((l) => l.step === step);
        const page = await served.endpoint.query({ step, pageSize: want.length });
        expect(page.total).toBe(want.length);
        expect(page.rows.map((r) => [r.file, r.index, r.state, r.behavior])).toEqual(want.map((l) => [l.file, l.index, l.state, l.behavior]));
        expect(page.rows.every((r) => r.response.length > 0 && r.prompt.length > 0)).toBe(true);
        expect(page.rows.map((r) => r.rule)).toEqual(want.map((l) => (l.decision!.rule === 0 ? 'rewarded' : 'rule 2')));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('a run followed with no rules: the facets give the title of every discovered state and behavior, as the follow last saved them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'invlab-live-titles-'));
    cpSync(join(EXAMPLES, 'verl'), dir, { recursive: true });
    try {
      let saved: DiscoverySnapshot | null = null;
      const served = liveSamples(dir, 'verl', undefined, () => saved);
      let clock = 0;
      const f = new RunFollower(
        nodeFolder(dir),
        { format: 'verl', spec: { states: DISCOVER_STATES, behaviors: DISCOVER_BEHAVIORS, eps: 0.05 }, regex: nodeRegexEngine(), parquet: openParquet, samples: served.sink, now: () => clock, settleMs: 25 },
        { frame: () => undefined, fileRead: () => undefined, notice: () => undefined, discovered: (snap) => void (saved = snap) },
      );
      await f.poll();
      clock += 1000;
      await f.finish();
      const facets = served.endpoint.facets()!;
      const discovered = facets.behaviors.filter((b) => b !== UNCLASSIFIED);
      expect(discovered.length).toBeGreaterThan(1);
      for (const b of discovered) expect(facets.titles?.behaviors[b], b).toMatch(/\S/);
      for (const st of facets.states.filter((x) => x !== 'other' && x !== 'unknown')) expect(facets.titles?.states[st], st).toMatch(/\S/);
      // what a person reads is not the key name
      expect(discovered.every((b) => facets.titles!.behaviors[b] !== b)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('one sink given is that sink; none is none; two with different roots are refused', () => {
    const a: SampleRowsSink = { root: '', step: () => undefined };
    expect(bothSinks(undefined, a)).toBe(a);
    expect(bothSinks(undefined, undefined)).toBeUndefined();
    expect(() => bothSinks(a, { root: 'x', step: () => undefined })).toThrow('different roots');
  });
});
