// OpenClaw-RL kept as per-step snapshot directories (`step_0012/qwen3_4b_record.jsonl` and its
// `_prm.jsonl`): a copy of both files taken before each purge (openclaw_api_server.py
// `purge_record_files`, which empties them when openclaw_rollout.py `pause_submission` starts
// training), read as the one-shot import reads the finished folder: every PRM line in one map, each
// record joined with it, a record's step its `step` field else its directory's number
// (`snapshotStep`). A snapshot is whole when each of its files ends with a newline (or is empty)
// and either a later snapshot exists or it has not changed for `settleMs` (a copy can be seen half
// done). Snapshot k's step is complete when the next snapshot is whole too: the judge writes a
// turn's PRM line after its record (`_flush_pending_record` fires `_prm_evaluate`, which appends it
// with `_append_prm_record` when the votes are in), so a line can land in the copy after its
// record's. A PRM line later still, for a turn this follow left unjudged, has that step measured
// again and its frame replaced.
import { OpenClawReader, snapshotStep } from '../formats/openclaw';
import { LineFeed } from '../read/records';
import type { PlannedFile } from '../read/tally';
import { errorText } from '../../unknown';
import type { FollowCore } from './follow-core';
import { followSource, type FollowEntry } from './fs';
import { isPrmFile } from '../read/run-folder';

interface SnapFile {
  path: string;
  kind: 'openclaw-record' | 'openclaw-prm';
  size: number;
  mtimeMs: number;
  changedAt: number;
  /** Read at this size (a PRM file into the map; a record file when its step closed). */
  readAt: number | null;
}

interface Snapshot {
  step: number;
  files: Map<string, SnapFile>;
  /** Its PRM files are in the map; its records are measured (or were, before a restart). */
  prmRead: boolean;
  closed: boolean;
  /** The steps its records went to (its directory's number, or their own `step`). */
  wrote: number[];
}

export class SnapshotFiles {
  private snaps = new Map<number, Snapshot>();
  private readonly reader: OpenClawReader;
  private recordFiles = new Set<string>();

  constructor(private readonly core: FollowCore) {
    // a record's step is its directory's number once there are two record files, as in the one-shot import
    const stepOf = (name: string) => (this.recordFiles.size > 1 ? snapshotStep(name) ?? undefined : undefined);
    this.reader = new OpenClawReader([], core, core.opts.openclawBatch, { awaitPrm: false, recordStep: stepOf, trackUnjudged: true });
  }

  async poll(): Promise<boolean> {
    const changed = this.track(await this.core.fs.list());
    const order = [...this.snaps.values()].sort((a, b) => a.step - b.step);
    const whole: boolean[] = [];
    for (let i = 0; i < order.length; i++) whole.push(await this.whole(order[i], i < order.length - 1));
    let read = false;
    // PRM lines go into the map in snapshot order (the first of a duplicate is kept, as in the one-shot import)
    for (let i = 0; i < order.length && whole[i]; i++) {
      if (order[i].prmRead) continue;
      if (!(await this.readPrm(order[i]))) break; // unreadable now: the later ones wait, to keep the order
      read = true;
    }
    await this.lateJoins();
    for (let i = 0; i + 1 < order.length && whole[i + 1]; i++) if (!order[i].closed && order[i].prmRead) read = (await this.close(order[i], 'next')) || read;
    return changed || read;
  }

  /** Bytes read of each snapshot file (a record file once its step closed, a PRM file once its snapshot was whole). */
  readSoFar(): Map<string, number> {
    return new Map([...this.snaps.values()].flatMap((s) => [...s.files.values()].map((f): [string, number] => [f.path, f.readAt ?? 0])));
  }

  /** Sizes and times as listed now; true when a file appeared, changed or went away. */
  private track(entries: readonly FollowEntry[]): boolean {
    const now = this.core.now();
    const seen = new Set<string>();
    let changed = false;
    for (const { entry: e, step: at } of this.core.runFiles(entries, 'snapshots')) {
      const step = at!; // the snapshots layout reads only files in numbered directories
      seen.add(e.path);
      if (e.error) {
        this.core.noticeOnce(`stat:${e.path}`, `${e.path}: cannot be read (${e.error}); trying again`);
        continue;
      }
      let s = this.snaps.get(step);
      if (!s) this.snaps.set(step, (s = { step, files: new Map(), prmRead: false, closed: this.core.closed.has(step), wrote: [] }));
      const kind = isPrmFile(e.path) ? 'openclaw-prm' : 'openclaw-record';
      if (kind === 'openclaw-record') this.recordFiles.add(e.path);
      const f = s.files.get(e.path) ?? { path: e.path, kind, size: -1, mtimeMs: -1, changedAt: now, readAt: null };
      s.files.set(e.path, f);
      if (f.size === e.size && f.mtimeMs === e.mtimeMs) continue;
      changed = true;
      if (f.readAt !== null) this.core.noticeOnce(`changed:${e.path}`, `${e.path} changed after it was read (a snapshot is written once): what was read of it is kept`);
      f.size = e.size;
      f.mtimeMs = e.mtimeMs;
      f.changedAt = now;
    }
    for (const s of this.snaps.values())
      for (const [path, f] of s.files) {
        if (seen.has(path)) continue;
        changed = true;
        s.files.delete(path);
        this.core.notice(f.readAt !== null ? `${path} was deleted; what was read of it is kept` : `${path} was deleted before it was read`);
      }
    return changed;
  }

  private async whole(s: Snapshot, laterExists: boolean): Promise<boolean> {
    if (!s.files.size) return false;
    let last = 0;
    for (const f of s.files.values()) {
      last = Math.max(last, f.changedAt);
      if (f.size <= 0) continue;
      try {
        const t = await this.core.fs.read(f.path, f.size - 1, f.size);
        if (t[0] !== 0x0a) return false; // a line still being copied
      } catch (e) {
        this.core.noticeOnce(`read:${f.path}`, `${f.path}: cannot be read (${errorText(e)}); trying again`);
        return false;
      }
    }
    return laterExists || this.core.now() - last >= (this.core.opts.settleMs ?? 500);
  }

  /** Feed a file's bytes as listed to the reader (a last line without its newline is read, and said if cut). */
  private async feed(f: SnapFile): Promise<boolean> {
    const file: PlannedFile = { source: followSource(this.core.fs, f.path, f.size), kind: f.kind, sum: this.core.summary(f.path, f.kind) };
    if (f.kind === 'openclaw-prm') this.reader.addFile(file);
    const feed = new LineFeed(file, this.reader, this.core);
    try {
      for await (const c of file.source.stream()) feed.push(c);
    } catch (e) {
      this.core.noticeOnce(`read:${f.path}`, `${f.path}: cannot be read (${errorText(e)}); trying again`);
      return false;
    }
    this.core.forget(`read:${f.path}`);
    feed.end();
    f.readAt = f.size;
    return true;
  }

  private sorted(s: Snapshot, kind: SnapFile['kind']): SnapFile[] {
    return [...s.files.values()].filter((f) => f.kind === kind && f.size >= 0).sort((a, b) => (a.path < b.path ? -1 : 1));
  }

  /** Its PRM files into the map; false when one cannot be read now. */
  private async readPrm(s: Snapshot): Promise<boolean> {
    // a restarted follow needs no PRM lines before the first step it measures: a turn's line comes after its record
    if (s.closed) return (s.prmRead = true);
    for (const f of this.sorted(s, 'openclaw-prm')) if (f.readAt === null && !(await this.feed(f))) return false;
    s.prmRead = true;
    return true;
  }

  /** Measure the snapshot's records and write its steps: the next snapshot is whole, the follow ends, or `again` (a PRM line came late: its frames are replaced). */
  private async close(s: Snapshot, why: 'next' | 'end' | 'again'): Promise<boolean> {
    const again = why === 'again';
    if (this.core.closed.has(s.step) && !again) return (s.closed = true), false;
    const core = this.core;
    core.touched.clear();
    if (again) for (const step of s.wrote) core.reopen(step);
    for (const f of this.sorted(s, 'openclaw-record'))
      if (!(await this.feed(f))) {
        for (const step of core.touched) core.measure.discardStep(step);
        return false;
      }
    s.closed = true;
    const steps = [...core.touched].sort((a, b) => a - b);
    s.wrote = steps;
    for (const step of steps) core.closeStep(step, again);
    if (!again) core.notice(`snapshot of step ${s.step} complete (${why === 'next' ? 'the next snapshot is whole' : 'the follow ends'}): ${steps.length} frame${steps.length === 1 ? '' : 's'} written`);
    return true;
  }

  /** PRM lines read now for turns a written step left unjudged: that step is measured again. */
  private async lateJoins(): Promise<void> {
    const files = this.reader.lateJoins();
    if (!files.size) return;
    for (const s of [...this.snaps.values()].sort((a, b) => a.step - b.step)) {
      if (!s.closed || ![...s.files.keys()].some((p) => files.has(p))) continue;
      this.core.notice(`a PRM line for a turn of step ${s.step} came in a later snapshot than the next: step ${s.step} is measured again and its frame replaced`);
      await this.close(s, 'again');
    }
  }

  /** The end: every snapshot is read as it is, its steps written, and what stayed unjoined said. */
  async finish(): Promise<void> {
    const order = [...this.snaps.values()].sort((a, b) => a.step - b.step);
    for (const s of order) if (!s.prmRead) await this.readPrm(s);
    await this.lateJoins();
    for (const s of order) if (!s.closed) await this.close(s, 'end');
    this.reader.finish();
  }
}
