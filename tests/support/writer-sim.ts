// A folder in memory that writers write into as a trainer does, step by step, and a follower reads
// (FollowFs): the test's stand-in for verl's rollout_data_dir, TRL's completions/ and OpenClaw-RL's
// record files. Each writer turns a finished run (the shipped examples) into the writes that made it:
// files growing in pieces cut mid-line, a step's file rewritten, OpenClaw's purge at each step.
import type { FollowEntry, FollowFs } from '../../src/core/import/follow/fs';

interface MemFile {
  bytes: Uint8Array;
  mtimeMs: number;
  denied: boolean;
}

export class MemoryFolder implements FollowFs {
  private files = new Map<string, MemFile>();
  /** The folder's clock (ms): each write moves it on. */
  clock = 0;

  private touch(path: string, bytes: Uint8Array): void {
    const f = this.files.get(path);
    this.clock += 10;
    this.files.set(path, { bytes, mtimeMs: this.clock, denied: f?.denied ?? false });
  }

  append(path: string, data: Uint8Array): void {
    const old = this.files.get(path)?.bytes ?? new Uint8Array(0);
    const b = new Uint8Array(old.length + data.length);
    b.set(old);
    b.set(data, old.length);
    this.touch(path, b);
  }

  /** Open with "w": the file is empty (then written by appends). */
  truncate(path: string): void {
    this.touch(path, new Uint8Array(0));
  }

  remove(path: string): void {
    this.files.delete(path);
  }

  deny(path: string, denied: boolean): void {
    const f = this.files.get(path);
    if (f) f.denied = denied;
  }

  bytes(path: string): Uint8Array {
    return this.files.get(path)?.bytes ?? new Uint8Array(0);
  }

  paths(): string[] {
    return [...this.files.keys()].sort();
  }

  async list(): Promise<FollowEntry[]> {
    return [...this.files].map(([path, f]) => (f.denied ? { path, size: 0, mtimeMs: 0, error: 'permission denied' } : { path, size: f.bytes.length, mtimeMs: f.mtimeMs }));
  }

  async read(path: string, start: number, end: number): Promise<Uint8Array> {
    const f = this.files.get(path);
    if (!f) throw new Error('no such file');
    if (f.denied) throw new Error('permission denied');
    return f.bytes.slice(start, Math.min(end, f.bytes.length));
  }
}

export type Write = (d: MemoryFolder) => void;

/** The bytes written in `parts` pieces cut at fixed fractions (mid-line, mid-character even). */
export function pieces(path: string, bytes: Uint8Array, parts: number): Write[] {
  const cuts = Array.from({ length: parts + 1 }, (_, i) => Math.floor((bytes.length * i) / parts));
  return cuts.slice(1).map((c, i) => (d: MemoryFolder) => d.append(path, bytes.subarray(cuts[i], c)));
}

const enc = new TextEncoder();
/** The trainer at work between two writes (a training step takes a while). */
const pause: Write = (d) => (d.clock += 1000);
const dec = new TextDecoder();

/** verl: each step's `{step}.jsonl` opened with "w" and written in pieces; `rewrite`: that step is first written with other scores, then again as it really is (a resumed trainer). */
export function verlWrites(files: readonly { name: string; bytes: Uint8Array }[], opts: { parts?: number; rewrite?: number } = {}): Write[] {
  const out: Write[] = [];
  for (const f of files) {
    const step = Number(/(\d+)\.jsonl$/.exec(f.name)![1]);
    if (step === opts.rewrite) {
      const other = dec.decode(f.bytes).replace(/"score": ?(-?[\d.]+)/g, (_, x) => `"score": ${Number(x) > 0 ? 0 : 1}`);
      out.push((d) => d.truncate(f.name), ...pieces(f.name, enc.encode(other), opts.parts ?? 3), pause);
    }
    out.push((d) => d.truncate(f.name), ...pieces(f.name, f.bytes, opts.parts ?? 3), pause);
  }
  return out;
}

/** TRL: each step's parquet file written in pieces (unreadable until its footer is there). */
export function trlWrites(files: readonly { name: string; bytes: Uint8Array }[], parts = 4): Write[] {
  return files.flatMap((f) => [(d: MemoryFolder) => d.truncate(f.name), ...pieces(f.name, f.bytes, parts)]);
}

/**
 * OpenClaw-RL: the record and PRM files appended turn by turn (a turn's PRM line after its record,
 * as the judge scores it once the next state is known), each line in two halves, and both files
 * purged when training on the step starts (`purge_record_files`). Returns the writes and each
 * step's snapshot (what the files held at the purge).
 */
export function openclawWrites(record: string, prm: string, names = { record: 'record.jsonl', prm: 'record_prm.jsonl' }): { writes: Write[]; snapshots: { step: number; record: string; prm: string }[] } {
  const key = (o: Record<string, unknown>) => `${o.session_id}\u0000${o.turn}`;
  const prmLines = new Map(prm.split('\n').filter(Boolean).map((l) => [key(JSON.parse(l)), l]));
  const bySteps = new Map<number, string[]>();
  for (const l of record.split('\n').filter(Boolean)) {
    const step = (JSON.parse(l) as { step: number }).step;
    bySteps.set(step, [...(bySteps.get(step) ?? []), l]);
  }
  const writes: Write[] = [];
  const snapshots: { step: number; record: string; prm: string }[] = [];
  for (const [step, lines] of [...bySteps].sort((a, b) => a[0] - b[0])) {
    let rec = '';
    let judged = '';
    for (const l of lines) {
      const half = Math.floor(l.length / 2);
      writes.push((d) => d.append(names.record, enc.encode(l.slice(0, half))), (d) => d.append(names.record, enc.encode(`${l.slice(half)}\n`)));
      rec += `${l}\n`;
      const p = prmLines.get(key(JSON.parse(l)));
      if (p) {
        writes.push((d) => d.append(names.prm, enc.encode(`${p}\n`)));
        judged += `${p}\n`;
      }
    }
    snapshots.push({ step, record: rec, prm: judged });
    writes.push((d) => d.truncate(names.record), (d) => d.truncate(names.prm));
  }
  return { writes, snapshots };
}

/**
 * OpenClaw-RL kept as per-step snapshot directories: the live files written as `openclawWrites`
 * does, and before each purge a copy of both into `step_NNNN/` (written in pieces, cut mid-line).
 * Records carry no `step` (OpenClaw's `_flush_pending_record` writes none: the directory's number
 * is the step). The judge's line comes after its record: the PRM lines of a step's last `lateByOne`
 * judged turns land after the purge, in the next snapshot; `lateByTwo` of them two snapshots on.
 */
export function openclawSnapshotWrites(record: string, prm: string, opts: { lateByOne?: number; lateByTwo?: number } = {}): Write[] {
  const key = (o: Record<string, unknown>) => `${o.session_id}\u0000${o.turn}`;
  const prmLines = new Map(prm.split('\n').filter(Boolean).map((l) => [key(JSON.parse(l)), l]));
  const bySteps = new Map<number, string[]>();
  for (const l of record.split('\n').filter(Boolean)) {
    const { step, ...rest } = JSON.parse(l) as { step: number };
    bySteps.set(step, [...(bySteps.get(step) ?? []), JSON.stringify(rest)]);
  }
  const steps = [...bySteps].sort((a, b) => a[0] - b[0]);
  const deferred = new Map<number, string[]>(); // snapshot index → PRM lines that land in it
  const writes: Write[] = [];
  steps.forEach(([, lines], k) => {
    let rec = '';
    let judged = (deferred.get(k) ?? []).map((p) => `${p}\n`).join('');
    const mine = lines.map((l) => prmLines.get(key(JSON.parse(l)))).filter((p): p is string => !!p);
    const last = k === steps.length - 1;
    const byTwo = last || k + 2 >= steps.length ? 0 : (opts.lateByTwo ?? 0);
    const byOne = last ? 0 : (opts.lateByOne ?? 0);
    const late = mine.slice(Math.max(0, mine.length - byOne - byTwo));
    for (const [i, p] of late.entries()) {
      const to = k + (i < byTwo ? 2 : 1);
      deferred.set(to, [...(deferred.get(to) ?? []), p]);
    }
    for (const l of lines) rec += `${l}\n`;
    for (const p of mine) if (!late.includes(p)) judged += `${p}\n`;
    const dir = `step_${String(k + 1).padStart(4, '0')}`;
    writes.push(...pieces(`${dir}/record.jsonl`, enc.encode(rec), 3), ...pieces(`${dir}/record_prm.jsonl`, enc.encode(judged), 2), pause);
  });
  return writes;
}
