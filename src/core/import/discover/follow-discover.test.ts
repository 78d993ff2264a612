// With no rules, a followed verl run (written as its trainer writes it, killed and restarted with
// the clusters saved beside its frames) gives the frames and the per-sample labels of the one-shot
// import of the finished files, bit for bit.
import { describe, expect, it } from 'vitest';
import { makeCorpus, verlFiles } from '../../../../tests/support/discover-corpus';
import { MemoryFolder, verlWrites } from '../../../../tests/support/writer-sim';
import { DISCOVER_BEHAVIORS, DISCOVER_STATES, measureLogs } from '../analyze';
import { frameLine } from '../follow/frame-line';
import { RunFollower } from '../follow/follower';
import { memorySource } from '../sources';
import type { DiscoverySnapshot } from './step-labels';

const spec = { states: DISCOVER_STATES, behaviors: DISCOVER_BEHAVIORS, eps: 0.05 };
const enc = new TextEncoder();
const files = [...verlFiles(makeCorpus({ seed: 3, steps: 9, perStep: 40 }))].map(([name, text]) => ({ name, bytes: enc.encode(text) }));

interface Saved {
  lines: Map<number, string>;
  labels: Map<string, string>;
  files: Record<string, { size: number; mtimeMs: number }>;
  snap: DiscoverySnapshot | undefined;
}

function follower(d: MemoryFolder, saved: Saved): RunFollower {
  return new RunFollower(
    d,
    { format: 'verl', spec, written: saved.lines.keys(), readFiles: { ...saved.files }, discovered: saved.snap, now: () => d.clock, settleMs: 25 },
    {
      frame: (f) => saved.lines.set(f.step, frameLine(f)),
      fileRead: (p, st) => (saved.files[p] = st),
      notice: () => undefined,
      discovered: (snap) => (saved.snap = JSON.parse(JSON.stringify(snap)) as DiscoverySnapshot),
      sample: (s, state, behavior) => saved.labels.set(`${s.file}:${s.line}`, `${state}|${behavior}`),
    },
  );
}

describe('discovery in a followed run', () => {
  it.each([[[]], [[4, 11]], [[2, 7, 15]]])('killed after writes %j: frames and labels equal the one-shot import', async (kills) => {
    const labels = new Map<string, string>();
    const want = await measureLogs(
      files.map((f) => memorySource(f.name, f.bytes)),
      spec,
      { format: 'verl' },
      (s, state, behavior) => labels.set(`${s.file}:${s.line}`, `${state}|${behavior}`),
    );
    expect(want.behaviors.length).toBeGreaterThan(3);
    expect(want.states.length).toBeGreaterThan(2);
    const d = new MemoryFolder();
    const saved: Saved = { lines: new Map(), labels: new Map(), files: {}, snap: undefined };
    let f = follower(d, saved);
    const writes = verlWrites(files, { parts: 2 });
    for (let i = 0; i < writes.length; i++) {
      writes[i](d);
      await f.poll();
      if (kills.includes(i)) f = follower(d, saved);
    }
    d.clock += 1000;
    await f.finish();
    expect([...saved.lines].sort((a, b) => a[0] - b[0]).map(([, l]) => l)).toEqual(want.frames.map(frameLine));
    expect(new Map([...saved.labels].sort())).toEqual(new Map([...labels].sort()));
  }, 120_000);
});
