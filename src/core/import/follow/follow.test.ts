// The follower against the one-shot import: writers (tests/support/writer-sim.ts) write the shipped
// example runs as their trainers do — pieces cut mid-line, files growing, a verl step rewritten,
// OpenClaw's purge at every step — and the followed frames must equal `measureLogs` of the finished
// files, byte for byte as frames-file lines; killed and restarted at random points, no step is lost
// or written twice.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openParquet } from '../../../io/hyparquet';
import { nodeRegexEngine } from '../../../io/regex/node';
import { EXAMPLES, exampleRules, importExample } from '../../../../tests/support/example-import';
import { MemoryFolder, openclawWrites, trlWrites, verlWrites, type Write } from '../../../../tests/support/writer-sim';
import type { FormatId } from '../types';
import { frameLine } from './frame-line';
import { measureLogs } from '../analyze';
import { memorySource } from '../sources';
import { RunFollower, type FileStamp } from './follower';

const EPS = 0.05;
const bytesOf = (f: string) => new Uint8Array(readFileSync(join(EXAMPLES, f)));
const index = JSON.parse(readFileSync(join(EXAMPLES, 'index.json'), 'utf8')) as { files: Record<FormatId, string[]> };

function writesOf(format: FormatId): Write[] {
  const files = index.files[format].map((f) => ({ name: f.replace(/^[^/]+\//, ''), bytes: bytesOf(f) }));
  if (format === 'verl') return verlWrites(files, { parts: 3, rewrite: 5 });
  if (format === 'trl') return trlWrites(files);
  if (format === 'openclaw') return openclawWrites(new TextDecoder().decode(files[0].bytes), new TextDecoder().decode(files[1].bytes)).writes;
  return files.flatMap((f) => Array.from({ length: 40 }, (_, i) => (d: MemoryFolder) => d.append(f.name, f.bytes.subarray(Math.floor((f.bytes.length * i) / 40), Math.floor((f.bytes.length * (i + 1)) / 40)))));
}

/** What a frames file and its sidecar hold across restarts. */
interface Checkpoint {
  lines: Map<number, string>;
  files: Record<string, FileStamp>;
  /** Frames written per step that were not replacements (must be 1). */
  firsts: Map<number, number>;
  notices: string[];
}

function follower(format: FormatId, d: MemoryFolder, cp: Checkpoint): RunFollower {
  return new RunFollower(
    d,
    { format, spec: { ...exampleRules(format), eps: EPS }, regex: nodeRegexEngine(), parquet: openParquet, written: cp.lines.keys(), readFiles: { ...cp.files }, now: () => d.clock, settleMs: 25 },
    {
      frame: (f, replaced) => {
        cp.lines.set(f.step, frameLine(f));
        if (!replaced) cp.firsts.set(f.step, (cp.firsts.get(f.step) ?? 0) + 1);
      },
      fileRead: (path, stamp) => (cp.files[path] = stamp),
      notice: (t) => cp.notices.push(t),
    },
  );
}

/** Writes applied one by one; the follower polls after the writes `polls` picks and is restarted after those `kills` picks. */
async function follow(format: FormatId, polls: (i: number) => boolean, kills: (i: number) => boolean): Promise<Checkpoint> {
  const d = new MemoryFolder();
  const cp: Checkpoint = { lines: new Map(), files: {}, firsts: new Map(), notices: [] };
  let f = follower(format, d, cp);
  const writes = writesOf(format);
  for (let i = 0; i < writes.length; i++) {
    writes[i](d);
    if (polls(i)) await f.poll();
    if (kills(i)) {
      f = follower(format, d, cp); // a restarted follower reads at once, before the writer's next write
      await f.poll();
    }
  }
  d.clock += 1000;
  await f.finish();
  return cp;
}

async function oneShot(format: FormatId): Promise<string[]> {
  return (await importExample(format, EPS)).frames.map(frameLine);
}

describe('following a run as its writer writes it', () => {
  for (const format of ['verl', 'trl', 'openclaw', 'jsonl'] as const)
    it(`${format}: the followed frames equal the one-shot import of the finished files`, async () => {
      const cp = await follow(format, () => true, () => false);
      const want = await oneShot(format);
      const got = [...cp.lines].sort((a, b) => a[0] - b[0]).map(([, l]) => l);
      expect(got.length).toBe(want.length);
      expect(got).toEqual(want);
      expect([...cp.firsts.values()].every((n) => n === 1)).toBe(true);
      // only the step the writer rewrote: a file read before it was whole would be "rewritten" too
      if (format === 'verl') expect(cp.notices.filter((n) => /was rewritten/.test(n)).map((n) => /step (\d+)/.exec(n)![1])).toEqual(['5']);
      if (format === 'openclaw') expect(cp.notices.filter((n) => /was purged/.test(n)).length).toBe(want.length);
    }, 120_000);

  for (const format of ['verl', 'trl', 'openclaw'] as const)
    it(`${format}: killed and restarted at random points, no step is lost or written twice`, async () => {
      const want = await oneShot(format);
      const n = writesOf(format).length;
      await fc.assert(
        fc.asyncProperty(fc.uniqueArray(fc.nat(n - 1), { maxLength: 6 }), fc.uniqueArray(fc.nat(n - 1), { minLength: 1, maxLength: 40 }), async (kills, polls) => {
          // OpenClaw's lines are read as they are appended (a watch on the files): a line appended and purged
          // between two reads is lost to any reader, which the purge test below shows
          const cp = await follow(format, (i) => format === 'openclaw' || polls.includes(i) || i % 7 === 0, (i) => kills.includes(i));
          expect([...cp.lines].sort((a, b) => a[0] - b[0]).map(([, l]) => l)).toEqual(want);
          expect([...cp.firsts.values()].every((x) => x === 1)).toBe(true);
        }),
        { numRuns: 12, seed: 21 },
      );
    }, 600_000);
});

describe('what goes wrong on the way is said', () => {
  it('openclaw: lines appended and purged between two reads are reported lost, the rest measured', async () => {
    const cp = await follow('openclaw', (i) => i % 9 === 0, () => false);
    expect(cp.notices.some((n) => /cut by the purge/.test(n))).toBe(true);
    expect(cp.notices.some((n) => /never read/.test(n))).toBe(true);
    expect(cp.lines.size).toBe((await oneShot('openclaw')).length);
  }, 120_000);

  it('openclaw: purged and grown past what was read between two reads, the purge is still seen (the head changed)', async () => {
    const text = (i: number) => new TextDecoder().decode(bytesOf(index.files.openclaw[i]));
    const { snapshots } = openclawWrites(text(0), text(1));
    const [a, b] = snapshots.slice(0, 2).sort((x, y) => x.record.length - y.record.length); // the longer one second
    expect(b.record.length).toBeGreaterThan(a.record.length);
    const d = new MemoryFolder();
    const cp: Checkpoint = { lines: new Map(), files: {}, firsts: new Map(), notices: [] };
    const f = follower('openclaw', d, cp);
    const enc = new TextEncoder();
    for (const s of [a, b]) {
      d.truncate('record.jsonl');
      d.truncate('record_prm.jsonl');
      d.append('record.jsonl', enc.encode(s.record));
      d.append('record_prm.jsonl', enc.encode(s.prm));
      await f.poll();
    }
    await f.finish();
    const want = await measureLogs([memorySource('r.jsonl', enc.encode(a.record + b.record)), memorySource('r_prm.jsonl', enc.encode(a.prm + b.prm))], { ...exampleRules('openclaw'), eps: EPS }, { format: 'openclaw', regex: nodeRegexEngine() });
    expect([...cp.lines].sort((x, y) => x[0] - y[0]).map(([, l]) => l)).toEqual(want.frames.map(frameLine));
    expect(cp.notices.filter((n) => /was purged/.test(n)).length).toBeGreaterThan(0);
  });

  it('verl: killed after a step\'s frame but before its file stamp, a restart leaves the step as written and says nothing of it', async () => {
    const d = new MemoryFolder();
    const cp: Checkpoint = { lines: new Map(), files: {}, firsts: new Map(), notices: [] };
    for (const w of writesOf('verl')) w(d);
    d.clock += 1000;
    await follower('verl', d, cp).finish();
    const lines = new Map(cp.lines);
    const path = Object.keys(cp.files).find((p) => /(^|\/)3\.jsonl$/.test(p))!;
    delete cp.files[path]; // the sidecar never got this stamp
    cp.notices.length = 0;
    const again = follower('verl', d, cp);
    await again.poll();
    await again.finish();
    expect(cp.lines).toEqual(lines);
    expect([...cp.firsts.values()].every((n) => n === 1)).toBe(true);
    // the step's frame is on disk: its file is not read again (which would report its samples as already written)
    expect(cp.notices).toEqual([]);
  });

  it('verl: a deleted step file, an unreadable file and a half-written file are said, the step read once whole', async () => {
    const d = new MemoryFolder();
    const cp: Checkpoint = { lines: new Map(), files: {}, firsts: new Map(), notices: [] };
    const f = follower('verl', d, cp);
    const one = bytesOf('verl/1.jsonl');
    d.append('1.jsonl', one.subarray(0, 100));
    await f.poll();
    d.clock += 5000;
    await f.poll();
    expect(cp.lines.size).toBe(0); // no newline at the end: not whole however long it waits
    d.append('1.jsonl', one.subarray(100));
    d.deny('1.jsonl', true);
    d.clock += 5000;
    await f.poll();
    expect(cp.notices.some((n) => /1\.jsonl: cannot be read \(permission denied\)/.test(n))).toBe(true);
    d.deny('1.jsonl', false);
    await f.poll();
    d.clock += 5000;
    await f.poll();
    expect([...cp.lines.keys()]).toEqual([1]);
    // the half-written file was never read as if whole (it would show as a cut line, then a rewrite)
    expect(cp.notices.filter((n) => /truncated|rewritten/.test(n))).toEqual([]);
    d.remove('1.jsonl');
    await f.poll();
    expect(cp.notices.some((n) => /1\.jsonl was deleted; step 1's frame stays/.test(n))).toBe(true);
  });

  it('progress (npm run watch --progress): the bytes read of each file beside its listed size; caught up once all are read', async () => {
    const cp: Checkpoint = { lines: new Map(), files: {}, firsts: new Map(), notices: [] };
    const d = new MemoryFolder();
    const verl = follower('verl', d, cp);
    const one = bytesOf('verl/1.jsonl');
    d.append('1.jsonl', one.subarray(0, 100));
    await verl.poll();
    expect(verl.progress()).toEqual({ files: [{ path: '1.jsonl', read: 0, size: 100 }], caughtUp: false }); // not whole: not read
    d.append('1.jsonl', one.subarray(100));
    await verl.poll();
    d.clock += 5000; // whole once it has not changed for a while
    await verl.poll();
    expect(verl.progress()).toEqual({ files: [{ path: '1.jsonl', read: one.length, size: one.length }], caughtUp: true });

    const o = new MemoryFolder();
    const live = follower('openclaw', o, cp);
    const enc = new TextEncoder();
    o.append('record.jsonl', enc.encode('{"a":1}\n'));
    o.append('record_prm.jsonl', enc.encode('{"b"'));
    await live.poll();
    const at = (record: number, prm: number) => [{ path: 'record.jsonl', read: record, size: record }, { path: 'record_prm.jsonl', read: prm, size: prm }];
    expect(live.progress()).toEqual({ files: at(8, 4), caughtUp: true }); // a half line is read too (its end comes later)
    o.append('record.jsonl', enc.encode('{"a":2}\n'));
    expect(live.progress().files[0].read).toBe(8); // said after a read pass, not before
    await live.poll();
    expect(live.progress()).toEqual({ files: at(16, 4), caughtUp: true });
    o.truncate('record.jsonl');
    o.append('record.jsonl', enc.encode('{"c"}\n'));
    await live.poll();
    expect(live.progress().files[0]).toEqual({ path: 'record.jsonl', read: 6, size: 6 }); // purged: read from its start again
  });
});
