// Writers that append to files a run long (OpenClaw-RL's record and PRM files, a generic JSONL
// log): the bytes appended since the last poll are fed to the import's line reader as they come (a
// line is a line once its newline is there). OpenClaw's server empties both files when training on
// a batch starts (openclaw_api_server.py `purge_record_files`, called by openclaw_rollout.py
// `pause_submission`): that purge is the writer saying the step is complete. A purge is seen as a
// file shorter than what was read, or whose first bytes changed; the segment's records are then
// joined with the PRM lines read (a record whose PRM line never came stays unjudged, as in a
// one-shot import) and its steps written. Lines appended after the last read and purged before the
// next are gone to any reader: the notice says what is known of them (a line cut in half, PRM lines
// whose record was never read). A generic JSONL file is in step order: a step is written when the
// log has moved OPEN_STEPS steps past it (the one-shot measure's rule).
import { OpenClawReader } from '../formats/openclaw';
import { jsonlSample } from '../formats/jsonl';
import { LineFeed, sampleReader, type RecordReader } from '../read/records';
import type { PlannedFile } from '../read/tally';
import { errorText } from '../../unknown';
import type { FollowCore } from './follow-core';
import { READ_CHUNK, followSource, type FollowEntry } from './fs';
import { isPrmFile } from '../read/run-folder';

interface LiveFile {
  file: PlannedFile;
  feed: LineFeed;
  /** Bytes read; the first bytes of the file as read (to see it replaced). */
  offset: number;
  head: Uint8Array;
}

const HEAD = 64;
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

export class LiveFiles {
  private files = new Map<string, LiveFile>();
  private reader: RecordReader;
  /** OpenClaw: the step of this segment's records without `step`; the files purged in it. */
  private segment: number;
  private purgedInSegment = new Set<string>();
  private readonly openclaw: boolean;

  constructor(private readonly core: FollowCore) {
    this.openclaw = core.opts.format === 'openclaw';
    this.segment = Math.max(0, ...core.closed) + 1;
    this.reader = this.newReader();
  }

  private newReader(): RecordReader {
    if (!this.openclaw) return sampleReader(this.core, jsonlSample);
    const files = [...this.files.values()].map((x) => x.file);
    return new OpenClawReader(files.length ? files : [], this.core, this.core.opts.openclawBatch, { awaitPrm: true, recordStep: this.segment });
  }

  private kindOf(path: string): PlannedFile['kind'] {
    if (!this.openclaw) return 'jsonl';
    return isPrmFile(path) ? 'openclaw-prm' : 'openclaw-record';
  }

  async poll(): Promise<boolean> {
    const entries = await this.core.fs.list();
    let changed = false;
    const seen = new Set<string>();
    for (const { entry: e } of this.core.runFiles(entries, 'live')) {
      const kind = this.kindOf(e.path);
      seen.add(e.path);
      if (e.error) {
        this.core.noticeOnce(`stat:${e.path}`, `${e.path}: cannot be read (${e.error}); trying again`);
        continue;
      }
      changed = (await this.follow(e, kind)) || changed;
    }
    for (const [path] of this.files) {
      if (seen.has(path)) continue;
      this.files.delete(path);
      this.core.notice(`${path} was deleted; what was read of it is kept`);
      changed = true;
    }
    if (!this.openclaw) this.core.closeMeasured();
    return changed;
  }

  private track(path: string, kind: PlannedFile['kind']): LiveFile {
    const sum = this.core.summary(path, kind);
    const file: PlannedFile = { source: followSource(this.core.fs, path, 0), kind, sum };
    const t: LiveFile = { file, feed: new LineFeed(file, this.reader, this.core), offset: 0, head: new Uint8Array(0) };
    this.reader.addFile?.(file);
    this.files.set(path, t);
    return t;
  }

  /** Read what a file gained; a file that shrank or whose head changed was purged first. */
  private async follow(e: FollowEntry, kind: PlannedFile['kind']): Promise<boolean> {
    let t = this.files.get(e.path) ?? this.track(e.path, kind);
    try {
      if (t.offset > 0 && (e.size < t.offset || !sameBytes(await this.core.fs.read(e.path, 0, t.head.length), t.head))) {
        this.purged(t);
        t = this.track(e.path, kind);
      }
      if (e.size <= t.offset) return false;
      for (let at = t.offset; at < e.size; ) {
        const b = await this.core.fs.read(e.path, at, Math.min(e.size, at + READ_CHUNK));
        if (!b.byteLength) break;
        if (t.head.length < HEAD) t.head = new Uint8Array([...t.head, ...b.subarray(0, HEAD - t.head.length)]);
        t.feed.push(b);
        at += b.byteLength;
        t.offset = at;
      }
      this.core.forget(`read:${e.path}`);
      return true;
    } catch (err) {
      this.core.noticeOnce(`read:${e.path}`, `${e.path}: cannot be read (${errorText(err)}); trying again`);
      return false;
    }
  }

  /** A file was emptied or replaced: OpenClaw's purge ends the segment; a JSONL file is read again from its start. */
  private purged(t: LiveFile): void {
    const name = t.file.source.name;
    this.files.delete(name);
    if (t.feed.partial) this.core.notice(`${name}: a line was cut by the purge (${t.feed.partial} bytes of it were read, not its end): that line is lost`);
    if (!this.openclaw) {
      this.core.notice(`${name} was truncated or replaced: read again from its start; steps already written are not counted again`);
      return;
    }
    if (this.purgedInSegment.has(name) || !this.purgedInSegment.size) this.endSegment(`${name} was purged (training on a batch started)`);
    this.purgedInSegment.add(name);
  }

  /** OpenClaw: the records read so far are joined and their steps written; a new segment starts. */
  private endSegment(why: string): void {
    const before = this.core.closed.size;
    for (const t of this.files.values()) if (t.file.kind === 'openclaw-record') this.reader.endFile(t.file);
    for (const t of this.files.values()) if (t.file.kind === 'openclaw-prm') this.reader.endFile(t.file);
    this.reader.finish();
    const orphans = this.reader instanceof OpenClawReader ? this.reader.unmatchedPrm : 0;
    if (orphans) this.core.notice(`the purge took at least ${orphans} record line${orphans === 1 ? '' : 's'} that were never read (their PRM lines were read): appended after the last read, gone before the next`);
    this.core.closeOpen();
    this.core.notice(`${why}: step ${this.segment} complete (${this.core.closed.size - before} frame${this.core.closed.size - before === 1 ? '' : 's'} written)`);
    this.segment = Math.max(this.segment, ...this.core.closed) + 1;
    this.purgedInSegment = new Set();
    this.reader = this.newReader();
    for (const t of this.files.values()) {
      t.feed.reader = this.reader;
      this.reader.addFile?.(t.file);
    }
  }

  /** Bytes read of each file followed (of its current content: a purge starts it over). */
  readSoFar(): Map<string, number> {
    return new Map([...this.files].map(([path, t]) => [path, t.offset]));
  }

  /** The end: last lines without a newline are read, the open segment (OpenClaw) or steps (JSONL) written. */
  async finish(): Promise<void> {
    for (const t of this.files.values()) t.feed.end();
    if (this.openclaw) this.reader.finish();
    this.core.closeOpen();
  }
}
