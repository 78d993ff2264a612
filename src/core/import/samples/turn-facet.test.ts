// The turn kind of a session's turn (docs/import.md "Every sample, findable"): on OpenClaw-RL agent
// sessions written with the Qwen3 chat template (tests/support/discover-styles/agent.ts, with each
// turn's truth), every sample line says what its turn answers — the first request, a tool's result,
// the user's follow-up — while all the turns of a session share their session's discovered state.
import { describe, expect, it } from 'vitest';
import { discoverCorpus } from '../../../../tests/support/discover-quality';
import { makeStyledCorpus } from '../../../../tests/support/discover-styles';
import { scaled } from '../../../../tests/support/speed';
import { emptySample } from '../formats/common';
import { DISCOVER_BEHAVIORS, DISCOVER_STATES, measureLogs, type SamplesOut } from '../analyze';
import { memorySource } from '../sources';
import { sampleRecord, turnOf, type SampleRecord } from './record';

const FACET: Record<string, string> = { first: 'first', 'after-tool': 'after-tool', 'after-user': 'follow-up' };

describe('the turn kind of an agent session turn', () => {
  it('is written on each sample line, and a session\'s turns share one state', async () => {
    const c = await makeStyledCorpus('agent', { seed: 5, steps: 3, perStep: 96 });
    const { states } = discoverCorpus(c.truth, true);
    const seen = new Set<string>();
    const bySession = new Map<string, Set<string>>();
    c.truth.forEach((t, i) => {
      const r = sampleRecord({ ...t.sample, turn: turnOf(t.sample.prompt) }, states[i], 'x');
      expect(r.turn, `${t.sample.file}:${t.sample.line}`).toBe(FACET[t.facet!]);
      seen.add(r.turn!);
      const s = bySession.get(t.sample.group!) ?? new Set();
      bySession.set(t.sample.group!, s.add(states[i]));
    });
    expect([...seen].sort()).toEqual(['after-tool', 'first', 'follow-up']);
    expect(bySession.size).toBeGreaterThan(20);
    for (const [session, s] of bySession) expect([...s], session).toHaveLength(1);
  }, scaled(60_000));

  it('is on the sample lines of the real import (read when the sample is read: a waiting sample keeps no prompt)', async () => {
    const c = await makeStyledCorpus('agent', { seed: 6, steps: 2, perStep: 64 });
    const rows: SampleRecord[] = [];
    const sink: SamplesOut = { root: '', step: (_: number, r: SampleRecord[]) => rows.push(...r), restart: () => (rows.length = 0) };
    await measureLogs([...c.files].map(([name, text]) => memorySource(name, text)), { states: DISCOVER_STATES, behaviors: DISCOVER_BEHAVIORS, eps: 0.05 }, { format: c.format }, undefined, sink);
    const truth = new Map(c.truth.map((t) => [`${t.sample.file}:${t.sample.line - 1}`, t.facet!]));
    expect(rows.length).toBe(c.truth.length);
    for (const r of rows) expect(r.turn, `${r.file}:${r.index}`).toBe(FACET[truth.get(`${r.file}:${r.index}`)!]);
  }, scaled(60_000));

  it('is absent when the prompt is not a chat', () => {
    const r = sampleRecord({ ...emptySample('a.jsonl', 1), turn: turnOf('What is 2 + 3?') }, 's', 'b');
    expect(r.turn).toBeUndefined();
  });
});
