// The follower on OpenClaw-RL kept as per-step snapshot directories (snapshot-files.ts): the shipped
// example run copied step by step into `step_NNNN/` as tests/support/writer-sim.ts
// `openclawSnapshotWrites` writes it — copies cut mid-line, PRM lines landing in the next snapshot
// (and, once, two snapshots on) — must give the frames of the one-shot import of the finished
// folder, byte for byte as frames-file lines; killed and restarted at random points, no step is
// lost or written twice.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nodeRegexEngine } from '../../../io/regex/node';
import { EXAMPLES, exampleRules } from '../../../../tests/support/example-import';
import { MemoryFolder, openclawSnapshotWrites, type Write } from '../../../../tests/support/writer-sim';
import { measureLogs } from '../analyze';
import { memorySource } from '../sources';
import { frameLine } from './frame-line';
import { RunFollower } from './follower';

const EPS = 0.05;
const SPEC = { ...exampleRules('openclaw'), eps: EPS };
const text = (f: string) => readFileSync(join(EXAMPLES, 'openclaw', f), 'utf8');
const writesOf = (late: { lateByOne?: number; lateByTwo?: number }) => openclawSnapshotWrites(text('openclaw-record.jsonl'), text('openclaw-record_prm.jsonl'), late);

interface Checkpoint {
  lines: Map<number, string>;
  firsts: Map<number, number>;
  notices: string[];
}

function follower(d: MemoryFolder, cp: Checkpoint): RunFollower {
  return new RunFollower(
    d,
    { format: 'openclaw', spec: SPEC, regex: nodeRegexEngine(), written: cp.lines.keys(), now: () => d.clock, settleMs: 25 },
    {
      frame: (f, replaced) => {
        cp.lines.set(f.step, frameLine(f));
        if (!replaced) cp.firsts.set(f.step, (cp.firsts.get(f.step) ?? 0) + 1);
      },
      notice: (t) => cp.notices.push(t),
    },
  );
}

async function follow(writes: Write[], polls: (i: number) => boolean, kills: (i: number) => boolean): Promise<Checkpoint> {
  const d = new MemoryFolder();
  const cp: Checkpoint = { lines: new Map(), firsts: new Map(), notices: [] };
  let f = follower(d, cp);
  for (let i = 0; i < writes.length; i++) {
    writes[i](d);
    if (polls(i)) await f.poll();
    if (kills(i)) {
      f = follower(d, cp);
      await f.poll();
    }
  }
  d.clock += 1000;
  await f.finish();
  return cp;
}

/** The one-shot import of the finished folder (every snapshot's files, in path order). */
async function oneShot(writes: Write[]): Promise<string[]> {
  const d = new MemoryFolder();
  for (const w of writes) w(d);
  const sources = d.paths().map((p) => memorySource(p, d.bytes(p)));
  return (await measureLogs(sources, SPEC, { format: 'openclaw', regex: nodeRegexEngine() })).frames.map(frameLine);
}

const sorted = (cp: Checkpoint) => [...cp.lines].sort((a, b) => a[0] - b[0]).map(([, l]) => l);

describe('following OpenClaw-RL per-step snapshot directories', () => {
  it('the followed frames equal the one-shot import of the finished folder; PRM lines of the next snapshot are joined', async () => {
    const writes = writesOf({ lateByOne: 3 });
    const want = await oneShot(writes);
    expect(want.length).toBe(20);
    // the late lines are there: step_0002's PRM copy judges turns of step_0001's records
    const d = new MemoryFolder();
    for (const w of writes) w(d);
    const keys = (p: string) => new TextDecoder().decode(d.bytes(p)).split('\n').filter(Boolean).map((l) => { const o = JSON.parse(l) as { session_id: string; turn: number }; return `${o.session_id}/${o.turn}`; });
    const first = new Set(keys('step_0001/record.jsonl'));
    expect(keys('step_0002/record_prm.jsonl').filter((k) => first.has(k)).length).toBe(3);
    const cp = await follow(writes, () => true, () => false);
    expect(sorted(cp)).toEqual(want);
    expect([...cp.firsts.values()].every((n) => n === 1)).toBe(true);
    // a step is written once the next snapshot is whole, not before
    expect(cp.notices.filter((n) => /snapshot of step \d+ complete \(the next snapshot is whole\)/.test(n)).length).toBe(19);
  }, 120_000);

  it('a PRM line two snapshots after its record: the step is measured again and its frame replaced', async () => {
    const writes = writesOf({ lateByOne: 2, lateByTwo: 1 });
    const cp = await follow(writes, () => true, () => false);
    expect(sorted(cp)).toEqual(await oneShot(writes));
    expect(cp.notices.some((n) => /came in a later snapshot than the next: step 1 is measured again/.test(n))).toBe(true);
    expect([...cp.firsts.values()].every((n) => n === 1)).toBe(true);
  }, 120_000);

  it('killed and restarted at random points, no step is lost or written twice', async () => {
    const writes = writesOf({ lateByOne: 3 });
    const want = await oneShot(writes);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.nat(writes.length - 1), { maxLength: 6 }), fc.uniqueArray(fc.nat(writes.length - 1), { minLength: 1, maxLength: 40 }), async (kills, polls) => {
        const cp = await follow(writes, (i) => polls.includes(i) || i % 5 === 0, (i) => kills.includes(i));
        expect(sorted(cp)).toEqual(want);
        expect([...cp.firsts.values()].every((x) => x === 1)).toBe(true);
      }),
      { numRuns: 12, seed: 21 },
    );
  }, 600_000);

  it('a single snapshot is read at the end as the one-shot import reads one record file', async () => {
    const writes = writesOf({}).slice(0, 6); // step_0001's record and PRM copies
    const cp = await follow(writes, () => true, () => false);
    expect(sorted(cp)).toEqual(await oneShot(writes));
  }, 60_000);
});
